/**
 * The repository stands alone: a clone in an empty directory installs, starts and passes. Nothing
 * in it may read files beside it, and the browser tests cannot pass under CI by skipping.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { missingChromium } from './support/chromium.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.(ts|tsx|mjs|js|json|toml|sh)$/.test(f) || f.startsWith('.ci/'))
}

describe('the repository', () => {
  it('reads nothing outside itself: every relative path stays inside, none names the reference material', () => {
    const offenders: string[] = []
    for (const file of trackedFiles()) {
      if (file === 'test/repository.test.ts') continue
      const text = readFileSync(join(ROOT, file), 'utf8')
      if (/\bshared\/spec\b|['"`]\/work\//.test(text))
        offenders.push(`${file}: names a path outside`)
      for (const match of text.matchAll(/['"`](\.\.?\/[^'"`\s]*)['"`]/g)) {
        const path = match[1]
        const target = resolve(ROOT, dirname(file), path as string)
        if (relative(ROOT, target).startsWith('..')) offenders.push(`${file}: ${path}`)
      }
    }
    expect(offenders).toEqual([])
  })

  it('fails the browser tests under CI when Chromium is missing, and skips them only elsewhere', () => {
    expect(missingChromium({ CI: 'true' }, false)).toBe('fail')
    expect(missingChromium({ CI: '1' }, false)).toBe('fail')
    expect(missingChromium({}, false)).toBe('skip')
    expect(missingChromium({ CI: 'true' }, true)).toBeNull()
  })
})
