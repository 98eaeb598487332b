/**
 * The Workers that `npm run deploy:worker` uploads (wrangler.toml's top level, the production
 * Worker, and wrangler.dashboard.toml, its back office; built by their dry runs, once per test run
 * from the current sources): each within the size budget, neither holding the other's pages, nor
 * anything of the gateway simulator, nor what they read from their static assets or never run
 * (docs/decisions/performance.md, "The Worker upload").
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  BUDGET_GZIP_BYTES,
  measureUpload,
  SIMULATOR_MARKERS,
  uploadIn,
} from '../../scripts/worker-bundle-size.js'
import * as client from '../../src/client/index.js'
import { en } from '../../src/dashboard/messages.js'
import { TERMS_TEXTS } from '../../src/i18n/terms.js'
import { MAIL_TABLES } from '../../src/mail/messages.js'
import { SHARE_SCRIPT } from '../../views/dashboard/link-share.js'
import { DASHBOARD_CSS } from '../../views/dashboard/styles.js'
import { TILL_SCRIPT } from '../../views/dashboard/till-script.js'
import { builtWorker, configFileOf } from './build.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
let upload: string
let backOffice: string
/** Both uploads, for what holds of each. */
let both: [string, string][]

beforeAll(async () => {
  const [production, dashboard] = await Promise.all([
    builtWorker('production'),
    builtWorker('dashboard'),
  ])
  upload = uploadIn(dirname(production))
  backOffice = uploadIn(dirname(dashboard))
  both = [
    ['production', upload],
    ['back office', backOffice],
  ]
}, 120_000)

describe('the two Worker uploads', () => {
  it('are each at most 200 KB (200,000 bytes) gzipped', () => {
    for (const [, text] of both) {
      const size = measureUpload(text)
      expect(size.gzipBytes).toBeLessThanOrEqual(200_000)
      expect(size.budgetGzipBytes).toBe(BUDGET_GZIP_BYTES)
      expect(size.withinBudget).toBe(true)
    }
  })

  it("hold none of the simulator's code, key, credentials, inspector or fault controls", () => {
    for (const [, text] of both) {
      expect(SIMULATOR_MARKERS.filter((marker) => text.includes(marker))).toEqual([])
      expect(measureUpload(text).simulatorMarkers).toEqual([])
    }
  })

  it('are split: the back office’s pages only in its Worker, the customer’s only in the other', () => {
    // Class names of the people page, the till's keypad and the overview's chart.
    const backOfficeMarkers = ['"people-acts"', '"keypad"', '"chart-outcomes"']
    // The checkout's amount hint, its route and the gateway's webhook path.
    const customerMarkers = ['"amount-hint"', '/l/:slug', '/webhooks/gateway']
    expect(backOfficeMarkers.filter((marker) => backOffice.includes(marker))).toEqual(
      backOfficeMarkers,
    )
    expect(backOfficeMarkers.filter((marker) => upload.includes(marker))).toEqual([])
    expect(customerMarkers.filter((marker) => upload.includes(marker))).toEqual(customerMarkers)
    expect(customerMarkers.filter((marker) => backOffice.includes(marker))).toEqual([])
  })

  it('are built alike: the back office’s wrangler file keeps the production Worker’s build', async () => {
    const { unstable_readConfig } = await import('wrangler')
    const read = (build: 'production' | 'dashboard') =>
      unstable_readConfig({ config: configFileOf(build), env: '' }, { hideWarnings: true })
    const [production, dashboard] = [read('production'), read('dashboard')]
    const keys = [
      'compatibility_date',
      'compatibility_flags',
      'minify',
      'keep_names',
      'define',
      'build',
      'assets',
    ] as const
    for (const key of keys) expect({ [key]: dashboard[key] }).toEqual({ [key]: production[key] })
    // Libraries are bundled from their published entry points (package.json "exports") only: no
    // [alias] swaps one of their inner modules for a stand-in that their next release could break.
    expect([production.alias, dashboard.alias]).toEqual([undefined, undefined])
    expect(dashboard.d1_databases).toEqual(production.d1_databases)
    // The binding names the back office's Worker and its entrypoint.
    expect(production.services).toEqual([
      { binding: 'DASHBOARD', service: dashboard.name, entrypoint: 'Dashboard' },
    ])
    expect(dashboard.workers_dev).toBe(false)
    expect(dashboard.triggers.crons ?? []).toEqual([])
  })
})

describe('the production Worker upload', () => {
  it('is minified without names, yet every gateway error keeps its name for the logs', () => {
    // Minified identifiers, and no `__name(…)` wrappers that keep_names would add.
    expect(upload.includes('createWorker')).toBe(false)
    expect(upload.includes('__name(')).toBe(false)
    // SignatureError is thrown only by assertGatewaySignature, which the app does not use.
    const errors = Object.entries(client)
      .filter(([, value]) => typeof value === 'function' && value.prototype instanceof Error)
      .map(([name]) => name)
    const inApp = errors.filter((name) => name !== 'SignatureError')
    const unnamed = inApp.filter((name) => !upload.includes(`name="${name}"`))
    expect(unnamed).toEqual([])
  })

  it('is built from modules none of which is imported for its side effects alone', () => {
    // package.json declares `"sideEffects": false`, so a bundle drops a module none of whose
    // exports is used: an `import './x.js'` written for what the module does would be dropped.
    const sources = ['src', 'views', 'db'].flatMap((dir) =>
      readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
        .filter((file) => /\.(ts|tsx|js)$/.test(file))
        .map((file) => join(dir, file)),
    )
    const bare = sources.filter((file) =>
      /^import\s+['"]/m.test(readFileSync(join(ROOT, file), 'utf8')),
    )
    expect(sources.length).toBeGreaterThan(100)
    expect(bare).toEqual([])
  })

  it('neither Worker carries the dashboard’s words, stylesheet and scripts nor the API document’s generator', () => {
    // The Worker reads those from its static assets (src/runtime/worker/assets.ts).
    const cssRule = DASHBOARD_CSS.split('\n').find((line) => line.startsWith('nav.main'))!
    const tillLine = TILL_SCRIPT.split('\n').find((line) => line.includes('inputMode'))!
    const shareLine = SHARE_SCRIPT.split('\n').find((line) => line.includes('execCommand'))!
    const markers = [
      ['dashboard words', en.loginHint],
      ['dashboard stylesheet', cssRule],
      ['till script', tillLine.trim()],
      ['share script', shareLine.trim()],
      ['e-mail texts', MAIL_TABLES.en.footer],
      ['terms texts', TERMS_TEXTS.en.merchant],
      ['OpenAPI document', 'The merchant API of Paylinks'],
      // The gateway client's parts the app does not use (createPaymentGateway).
      ['gateway operations', 'must be one of djezzy, ooredoo, mobilis'],
      // The tables' indexes and checks, for drizzle-kit only ([define] in wrangler.toml).
      ['schema indexes', 'links_created_at_idx'],
      // The API's answer schemas, for the OpenAPI document and the tests only.
      ['API answer schemas', 'the start of the key, to tell keys apart'],
      // What only Node runs, given by its runtime: the till's event stream, the gzip splicer.
      ['till event stream', ': beat'],
      ['gzip splicer', '31,139,8,0,0,0,0,0,0,255'],
    ]
    expect(cssRule).toBeTruthy()
    expect(tillLine).toBeTruthy()
    expect(shareLine).toBeTruthy()
    for (const [name, text] of both) {
      const carried = markers.filter(([, marker]) => text.includes(marker!)).map(([what]) => what)
      expect({ [name]: carried }).toEqual({ [name]: [] })
    }
  })
})
