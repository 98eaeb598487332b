import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one fork fewer than the cores: one on a 2-core machine. Most test files
    // wait on Chromium, workerd or a server process, so two forks keep both cores busy.
    maxWorkers: 2,
    // A cache directory for the run: the Worker test files build each entry and migrate a D1 once
    // per run instead of once per file (test/worker/run-cache.ts).
    globalSetup: ['test/worker/global-setup.ts'],
  },
})
