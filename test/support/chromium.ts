/**
 * The one way tests start Chromium: Debian's /usr/bin/chromium through playwright-core, with
 * nothing that would phone home. Without the browser, browser tests are skipped on a developer's
 * machine (with a warning) and fail under CI, where a missing browser is a broken machine.
 */
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { type Browser, chromium } from 'playwright-core'
import { describe, it } from 'vitest'

export const CHROMIUM = '/usr/bin/chromium'

/** Whether this machine has the browser. */
export const hasChromium = existsSync(CHROMIUM)

/** What browser tests do without the browser: fail under CI, skip elsewhere; null when it is here. */
export function missingChromium(
  env: Record<string, string | undefined>,
  has = hasChromium,
): 'fail' | 'skip' | null {
  if (has) return null
  return env.CI ? 'fail' : 'skip'
}

const missing = missingChromium(process.env)
const MESSAGE = `${CHROMIUM} does not exist: install Debian's chromium (see .ci/run) to run the browser tests.`
if (missing === 'skip') console.warn(`Skipping the browser tests: ${MESSAGE}`)

/**
 * `describe` for tests that drive Chromium: skipped when the browser is missing on a developer's
 * machine; under CI the suite fails instead, naming what is missing.
 */
export function describeInChromium(name: string, body: () => void): void {
  if (missing === 'fail') {
    // A failing test, not a throw at import: the report names the suite that could not run.
    describe(name, () => {
      it('finds Chromium', () => {
        throw new Error(MESSAGE)
      })
    })
    return
  }
  describe.skipIf(missing === 'skip')(name, body)
}

/** Starts Chromium headless. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  })
}

/** axe-core's source, to inject into pages. */
export const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
)
