/**
 * The Worker that `wrangler deploy` uploads (wrangler.toml's top level, built by its dry run, once
 * per test run from the current sources): within its size budget, holding nothing of the gateway
 * simulator, nor what it reads from its static assets or never runs
 * (docs/decisions/performance.md, "The Worker upload").
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  BUDGET_GZIP_KIB,
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
import { builtWorker } from './build.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
let upload: string

beforeAll(async () => {
  upload = uploadIn(dirname(await builtWorker('production')))
}, 120_000)

describe('the Worker upload', () => {
  it(`is at most ${BUDGET_GZIP_KIB} KiB gzipped`, () => {
    const size = measureUpload(upload)
    expect(size.gzipBytes).toBeLessThanOrEqual(BUDGET_GZIP_KIB * 1024)
    expect(size.withinBudget).toBe(true)
  })

  it("holds none of the simulator's code, key, credentials, inspector or fault controls", () => {
    expect(SIMULATOR_MARKERS.filter((marker) => upload.includes(marker))).toEqual([])
    expect(measureUpload(upload).simulatorMarkers).toEqual([])
  })

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

  it('runs the stand-ins of wrangler.toml’s [alias] for what it never uses', () => {
    const standIns = [
      ['drizzle relational queries', "drizzle's relational queries are not part of the Worker"],
      ['hono mount', "hono's app.mount() is not part of the Worker"],
    ]
    expect(
      standIns.filter(([, marker]) => !upload.includes(marker!)).map(([what]) => what),
    ).toEqual([])
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

  it('carries neither the dashboard’s words, stylesheet and scripts nor the API document’s generator', () => {
    // The Worker reads those from its static assets (src/worker-assets.ts).
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
      // zod's JSON Schema generator (src/worker-zod-json-schema.js stands in for it).
      ['zod JSON Schema', 'Unprocessed schema. This is a bug in Zod.'],
      // drizzle's PostgreSQL builders (src/worker-drizzle-sqlite-only.js).
      ['drizzle pg-core', 'PgColumnBuilder'],
      // Classic zod (src/worker-zod.js builds the app's zod from zod/mini).
      ['classic zod', '"ZodString"'],
      // drizzle's relational queries (src/worker-drizzle-no-relational.js).
      ['drizzle relations', 'not found in schema'],
      // The gateway client's parts the app does not use (createPaymentGateway).
      ['gateway operations', 'must be one of djezzy, ooredoo, mobilis'],
      // hono's RegExpRouter, which no route group matches with (src/worker-hono-router.js).
      ['hono RegExpRouter', '"RegExpRouter"'],
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
    expect(markers.filter(([, marker]) => upload.includes(marker!)).map(([what]) => what)).toEqual(
      [],
    )
  })
})
