/**
 * The one way tests start Chromium: Debian's /usr/bin/chromium through playwright-core, with
 * nothing that would phone home. Without the browser, browser tests are skipped on a developer's
 * machine (with a warning) and fail under CI, where a missing browser is a broken machine.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type CDPSession,
  chromium,
  type Page,
} from 'playwright-core'
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

const SHARED = Symbol.for('paylinks.test.chromium')
type WithShared = { [SHARED]?: Promise<Browser> }

/**
 * The test process's one Chromium, started headless by the first browser test file and kept for
 * the files the process runs after it (a launch costs one to two seconds of CPU). A file closes
 * only the contexts it opened (`closeContexts`); the browser goes when the process exits
 * (playwright-core closes what it launched), and is started again if it went away.
 */
export async function launchChromium(): Promise<Browser> {
  const kept = globalThis as WithShared
  const current = await kept[SHARED]?.catch(() => undefined)
  if (current?.isConnected()) return current
  const launching = chromium.launch({
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
  kept[SHARED] = launching
  return launching
}

/** Closes every context a test file opened on the shared browser (its afterAll). */
export async function closeContexts(browser: Browser | undefined): Promise<void> {
  if (!browser) return
  await Promise.all(browser.contexts().map((context) => context.close()))
}

/** A page of its own context, for one test at a time: `close()` puts it down for the next. */
export interface KeptPage {
  context: BrowserContext
  page: Page
  /** Done with it: wiped and kept for the next `openPage` with the same options (or closed). */
  close(): Promise<void>
}

/**
 * Pages put down, by browser and context options. Opening a browser context and its first page
 * starts a renderer process, and axe-core's half-megabyte script is compiled afresh in each one:
 * about two seconds a page, against a fraction of one for the same page going to its next
 * address. A page put down is wiped (no cookies or permissions, no routes the last test added,
 * its viewport and screen media as opened); it stays where it was until the next test sends it
 * elsewhere (a blank page in between would cost a new renderer).
 */
const shelves = new WeakMap<Browser, Map<string, KeptPage[]>>()

/**
 * A page in a context with `options`: one put down by an earlier test if there is one, else a new
 * one (`prepare` then runs once, on its context and page, before it is first used).
 */
export async function openPage(
  browser: Browser,
  options: BrowserContextOptions = {},
  prepare?: (kept: KeptPage) => Promise<void>,
): Promise<KeptPage> {
  const byOptions = shelves.get(browser) ?? new Map<string, KeptPage[]>()
  shelves.set(browser, byOptions)
  const key = JSON.stringify(options)
  const shelf = byOptions.get(key) ?? []
  byOptions.set(key, shelf)
  let kept = shelf.pop()
  while (kept?.page.isClosed()) kept = shelf.pop()
  if (kept) return kept
  const context = await browser.newContext(options)
  const page = await context.newPage()
  const fresh: KeptPage = {
    context,
    page,
    close: async () => {
      try {
        await page.unrouteAll({ behavior: 'ignoreErrors' })
        await context.clearCookies()
        await context.clearPermissions()
        if (options.viewport) await page.setViewportSize(options.viewport)
        await page.emulateMedia({ media: null })
        shelf.push(fresh)
      } catch {
        await context.close().catch(() => {})
      }
    },
  }
  await prepare?.(fresh)
  return fresh
}

/** What `readPage` reads: the root element's `lang` and `dir`, and texts by selector. */
export interface PageReading {
  lang: string | null
  dir: string | null
  /** The rendered text (`innerText`) of the first element each selector names. */
  text: Record<string, string>
}

/**
 * Reads the page in its own world, as a script of the page would: the root element's `lang` and
 * `dir` and the rendered text of the first element each of `selectors` names (an error if one
 * names none). The first locator used on a new document injects Playwright's own script into it,
 * about 0.15 s of Chromium's CPU a page; a check that only reads the page needs none.
 */
export async function readPage(
  page: Page,
  selectors: readonly string[] = [],
): Promise<PageReading> {
  // A navigation that began under the reading (a form's answer still arriving) destroys the
  // document it ran in: read the new one once it has loaded, as a locator would wait for it.
  for (let attempt = 1; ; attempt++) {
    try {
      return await readOnce(page, selectors)
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('Execution context was destroyed')) throw error
      await page.waitForLoadState('load')
    }
  }
}

function readOnce(page: Page, selectors: readonly string[]): Promise<PageReading> {
  return page.evaluate((names) => {
    const root = document.documentElement
    const text: Record<string, string> = {}
    for (const name of names) {
      const element = document.querySelector(name)
      if (!(element instanceof HTMLElement))
        throw new Error(`no element ${name} on ${location.href}`)
      text[name] = element.innerText
    }
    return { lang: root.getAttribute('lang'), dir: root.getAttribute('dir'), text }
  }, selectors)
}

/** axe-core's source, to inject into pages. */
export const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
)

interface AxeResult {
  violations: { id: string; impact: string | null; nodes: { target: unknown }[] }[]
}

/** A DevTools protocol session of each page axe-core was injected into, kept for its next run. */
const devtools = new WeakMap<Page, Promise<CDPSession>>()

/**
 * Evaluates axe-core's source in the page's main world through the page's own DevTools protocol
 * session. Playwright's `page.evaluate` hands a string to its own script in the page, which
 * `eval`s it: V8 keeps compiled `eval` code per document, so Chromium compiled the half-megabyte
 * source afresh on every page. `Runtime.evaluate` compiles it as a script, which V8 can take from
 * its cache on the next page the renderer shows (0.53 against 0.63–0.76 CPU-s of Chromium for a
 * page load, injection and run).
 */
async function injectAxe(page: Page): Promise<void> {
  let session = devtools.get(page)
  if (!session) {
    session = page.context().newCDPSession(page)
    devtools.set(page, session)
  }
  const { exceptionDetails } = await (await session).send('Runtime.evaluate', {
    expression: `${axeSource};void 0`,
  })
  if (exceptionDetails)
    throw new Error(`axe-core did not load on ${page.url()}: ${exceptionDetails.text}`)
}

/**
 * Runs axe-core on the page and returns its violations, `serious` and `critical` ones only unless
 * `impact: 'any'`. The source is evaluated through the DevTools protocol, which the page's CSP
 * does not govern, so the page is checked with its real policy in force. Only violations are
 * collected (`resultTypes`): every rule still runs, axe just skips listing what passed.
 */
export async function axeViolations(
  page: Page,
  options: { impact?: 'serious' | 'any' } = {},
): Promise<string[]> {
  await injectAxe(page)
  const result = (await page.evaluate(() =>
    (globalThis as unknown as { axe: { run(o: unknown): Promise<unknown> } }).axe.run({
      resultTypes: ['violations'],
    }),
  )) as AxeResult
  const any = options.impact === 'any'
  return result.violations
    .filter((v) => any || v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${JSON.stringify(v.nodes.map((n) => n.target))}`)
}

/**
 * The folder `SCREENSHOTS` names (`SCREENSHOTS=/tmp/shots npm test`), where the browser tests keep
 * a full-page screenshot of each page they check, to be looked at; unset, they take none. A
 * screenshot checks nothing, and encoding full pages took a quarter of the browser tests' time.
 */
export const SCREENSHOTS = process.env.SCREENSHOTS || undefined

/**
 * Keeps a full-page screenshot of the page as `<SCREENSHOTS>/<name>.png` (`name` may hold folders),
 * at each of `widths` if given (the viewport is put back after); nothing without `SCREENSHOTS`.
 */
export async function keepScreenshot(
  page: Page,
  name: string,
  widths?: readonly { width: number; height: number }[],
): Promise<void> {
  if (!SCREENSHOTS) return
  const path = (suffix: string) => join(SCREENSHOTS, `${name}${suffix}.png`)
  mkdirSync(dirname(path('')), { recursive: true })
  if (!widths) {
    await page.screenshot({ path: path(''), fullPage: true, animations: 'disabled' })
    return
  }
  const before = page.viewportSize()
  for (const size of widths) {
    await page.setViewportSize(size)
    await page.screenshot({ path: path(`-${size.width}`), fullPage: true, animations: 'disabled' })
  }
  if (before) await page.setViewportSize(before)
}
