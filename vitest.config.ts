import { defineConfig } from 'vitest/config'

/**
 * Test files that replace a module for themselves (`vi.mock`, `vi.doMock`, `vi.resetModules`):
 * each runs with a module registry of its own. test/suite-config.test.ts keeps this list whole.
 */
export const ISOLATED_FILES: string[] = []

const FILES = ['test/**/*.test.ts', 'test/**/*.test.tsx']

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one fork fewer than the cores: one on a 2-core machine. Most test files
    // wait on Chromium, workerd or a server process, so two forks keep both cores busy.
    maxWorkers: 2,
    // A cache directory for the run: the Worker test files build each entry and migrate a D1 once
    // per run instead of once per file (test/support/run-cache.ts).
    globalSetup: ['test/support/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: FILES,
          exclude: ISOLATED_FILES,
          // A test process loads Paylinks' modules (and starts Chromium) once for all the files
          // it runs, instead of once per file: importing the app took more of the suite's time
          // than most of its tests. Each test file is still loaded afresh; what a file starts, it
          // stops in its own afterAll.
          isolate: false,
        },
      },
      // A project only while a file needs it: its own test process loads all of Paylinks again.
      ...(ISOLATED_FILES.length > 0
        ? [{ extends: true as const, test: { name: 'isolated', include: ISOLATED_FILES } }]
        : []),
    ],
  },
})
