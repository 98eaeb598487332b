/**
 * How the suite runs, kept true as files are added: test processes share loaded modules, so a
 * file that replaces a module for itself must be listed to run apart (vitest.config.ts); and a
 * file that drives Chromium says so in its name (`*.browser.test.ts`) and goes through
 * test/support/chromium.ts, the one way the suite starts the browser.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ISOLATED_FILES } from '../vitest.config.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

function testFiles(dir = join(ROOT, 'test')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return testFiles(path)
    return /\.test\.tsx?$/.test(entry.name) ? [relative(ROOT, path)] : []
  })
}

const FILES = testFiles()
/** The other test files (this one names the patterns it looks for). */
const OTHERS = FILES.filter((file) => file !== 'test/suite-config.test.ts')
const text = (file: string) => readFileSync(join(ROOT, file), 'utf8')

/** Calls that give a file modules of its own: they need a registry no other file shares. */
const REPLACES_MODULES = /\bvi\.(mock|doMock|unmock|doUnmock|resetModules|importMock)\(/

/** Whatever starts or drives Chromium. */
const DRIVES_CHROMIUM = /\b(describeInChromium|launchChromium)\b/

describe('the test suite', () => {
  it('finds the test files', () => {
    expect(FILES.length).toBeGreaterThan(200)
    expect(FILES).toContain('test/suite-config.test.ts')
  })

  it('runs every file that replaces a module apart, and lists no other', () => {
    const replacing = OTHERS.filter((file) => REPLACES_MODULES.test(text(file))).sort()
    expect(replacing).toEqual([...ISOLATED_FILES].sort())
  })

  it('names every file that drives Chromium *.browser.test.ts, and only those', () => {
    const driving = OTHERS.filter((file) => DRIVES_CHROMIUM.test(text(file)))
    const named = FILES.filter((file) => file.endsWith('.browser.test.ts'))
    expect(driving.length).toBeGreaterThan(10)
    expect(named.sort()).toEqual(driving.sort())
  })

  it('starts Chromium only through test/support/chromium.ts', () => {
    const launching = OTHERS.filter((file) =>
      /\bchromium\.launch\(|from 'playwright'/.test(text(file)),
    )
    expect(launching).toEqual([])
  })
})
