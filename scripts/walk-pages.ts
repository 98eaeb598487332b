/**
 * `npm run walk [-- --out DIR] [--lang ar,fr] [--only NAME,NAME]`: every dashboard and customer
 * page of Paylinks opened in Chromium at 360 and 1280 px in Arabic, French and English, on a fresh
 * SQLite file with the built-in simulator over loopback, filled so each page shows real content
 * (scripts/walk/seed.ts). Each page is checked with axe-core (every impact) and for anything
 * sticking out sideways, and kept as a screenshot; report.md in the output folder lists the pages
 * and what was found. Exits 1 if anything was found or a dashboard route has no address here.
 *
 * A command and not part of `npm test`: its few hundred navigations would double the suite's
 * time (docs/decisions/test-suite.md); the suite keeps its own axe-core checks.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import type { Page } from 'playwright-core'
import type { Language } from '../src/config.js'
import { axeViolations, launchChromium } from '../test/support/chromium.js'
import { startPaylinks } from '../test/support/harness.js'
import { overflow } from '../test/support/phone-overflow.js'
import {
  CUSTOMER_PAGES,
  DASHBOARD_STATES,
  dashboardPages,
  signIn,
  signInPages,
  type WalkEnv,
  type WalkPage,
  type Who,
} from './walk/pages.js'
import { PASSWORD, PEOPLE, seed } from './walk/seed.js'

const WIDTHS = [
  { width: 360, height: 740 },
  { width: 1280, height: 900 },
] as const

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: join(tmpdir(), 'paylinks-walk') },
    lang: { type: 'string', default: 'ar,fr,en' },
    only: { type: 'string' },
  },
})
const out = values.out
const languages = values.lang.split(',') as Language[]

interface Finding {
  page: string
  lang: Language
  width: number
  problems: string[]
}

const { pages: dashboard, unplaced } = dashboardPages()
const all: WalkPage[] = [
  ...signInPages(PEOPLE, PASSWORD),
  ...CUSTOMER_PAGES,
  ...dashboard,
  ...DASHBOARD_STATES,
].filter((page) => {
  const name = `${page.area}/${page.name}`
  return !values.only || values.only.split(',').some((part) => name.includes(part))
})

const findings: Finding[] = []
let shots = 0
const started = Date.now()

/** Opens the page, then checks and photographs it at each width. */
async function walk(page: Page, entry: WalkPage, env: WalkEnv) {
  const name = `${entry.area}/${entry.name}`
  try {
    await entry.open(page, env)
  } catch (error) {
    findings.push({ page: name, lang: env.lang, width: 0, problems: [`not opened: ${error}`] })
    return
  }
  await page.emulateMedia({ media: entry.print ? 'print' : 'screen' })
  for (const size of WIDTHS) {
    await page.setViewportSize(size)
    const problems: string[] = []
    const lang = await page.getAttribute('html', 'lang')
    const dir = await page.getAttribute('html', 'dir')
    const expected = entry.lang ?? env.lang
    if (lang !== expected) problems.push(`html lang is ${lang}`)
    if ((dir ?? 'ltr') !== (expected === 'ar' ? 'rtl' : 'ltr')) problems.push(`html dir is ${dir}`)
    problems.push(
      ...(await overflow(page, { scrollBoxes: true })),
      ...(await axeViolations(page, { impact: 'any' })),
    )
    if (problems.length > 0)
      findings.push({ page: name, lang: env.lang, width: size.width, problems })
    const file = join(out, env.lang, `${entry.area}-${entry.name}-${size.width}.png`)
    // A long page's first 6,000 px: enough to look at, where the whole of one (the API docs are
    // sixty thousand px on a phone) takes Chromium longer to paint than the rest of the walk.
    const tall = (await page.evaluate(() => document.documentElement.scrollHeight)) > 6000
    try {
      if (tall) await page.setViewportSize({ width: size.width, height: 6000 })
      await page.screenshot({ path: file, fullPage: !tall, animations: 'disabled' })
      shots += 1
    } catch (error) {
      findings.push({ page: name, lang: env.lang, width: size.width, problems: [`${error}`] })
    }
  }
  await page.emulateMedia({ media: 'screen' })
  await page.setViewportSize(WIDTHS[0])
}

async function main() {
  for (const lang of languages) mkdirSync(join(out, lang), { recursive: true })
  const p = await startPaylinks({ http: true })
  const browser = await launchChromium()
  try {
    const data = await seed(p, languages)
    for (const lang of languages) {
      const context = await browser.newContext({ viewport: WIDTHS[0], locale: lang })
      // tsx names the functions it compiles with a helper (__name) that pages do not have.
      await context.addInitScript('globalThis.__name = (f) => f')
      const page = await context.newPage()
      const env: WalkEnv = { p, data, lang }
      const signInAs: Record<Who, (() => Promise<unknown>) | null> = {
        nobody: null,
        owner: () => signIn(page, env, PEOPLE.owner, PASSWORD),
        cashier: () => signIn(page, env, PEOPLE.cashier, PASSWORD),
      }
      let who: Who = 'nobody'
      for (const entry of all) {
        if (entry.who !== who) {
          await context.clearCookies()
          await signInAs[entry.who]?.()
          who = entry.who
        }
        await walk(page, entry, env)
        process.stdout.write('.')
      }
      await context.close()
      process.stdout.write(` ${lang}\n`)
    }
  } finally {
    await browser.close()
    await p.close()
  }
  report()
}

function report() {
  const seconds = Math.round((Date.now() - started) / 1000)
  const lines = [
    '# Paylinks page walk',
    '',
    `${all.length} pages × ${languages.length} languages × ${WIDTHS.length} widths: ${shots} screenshots in ${seconds} s; ${findings.length} page views with problems.`,
    '',
  ]
  if (unplaced.length > 0)
    lines.push(
      '## Dashboard routes without an address in scripts/walk/pages.ts',
      '',
      ...unplaced.map((r) => `- ${r}`),
      '',
    )
  lines.push('## Problems', '')
  if (findings.length === 0) lines.push('None.', '')
  for (const f of findings) {
    lines.push(`### ${f.page} — ${f.lang}${f.width ? `, ${f.width} px` : ''}`, '')
    for (const problem of f.problems) lines.push(`- ${problem}`)
    lines.push('')
  }
  lines.push('## Pages walked', '', ...all.map((page) => `- ${page.area}/${page.name}`), '')
  writeFileSync(join(out, 'report.md'), lines.join('\n'))
  console.log(lines.slice(0, 3).join('\n'))
  console.log(`Report: ${join(out, 'report.md')}; screenshots: ${out}/<lang>/`)
  process.exitCode = findings.length > 0 || unplaced.length > 0 ? 1 : 0
}

await main()
