/**
 * The pieces of Paylinks the Workers runtime gives, beside the configuration and D1 (the Node
 * counterpart is src/runtime/node/runtime.ts): the client's address from Cloudflare's header,
 * background work handed to `waitUntil`, settings kept in D1 in one call, pages compressed by
 * workerd, the dashboard's words, the terms' texts, the API's document and the e-mails' texts
 * read from the static assets, e-mail over TCP sockets, webhook targets' names resolved through
 * DNS over HTTPS and the password work Workers allow. The simulator's loader is passed only by the
 * dev entry.
 */
import type { D1Database, Fetcher } from '@cloudflare/workers-types/index.ts'
import type { RuntimeParts, SimulatorModule } from '../../app/assemble.js'
import type { Config } from '../../config.js'
import type { Db } from '../../data/db.js'
import { workerdEncodes } from '../../http/compress-pages.js'
import { consoleLogger } from '../../log.js'
import type { SmtpConnect } from '../../mail/smtp.js'
import { WORKERS_MAX_ITERATIONS } from '../../security/passwords.js'
import {
  assetReader,
  assetsApiDocs,
  assetsDashboardKit,
  assetsMailWords,
  assetsTermsTexts,
} from './assets.js'
import { workerMail } from './mail.js'
import { type DohFetch, dohResolveHost } from './resolve-host.js'
import { keepSettingsInD1 } from './settings.js'

/** The Worker's bindings: the D1 database, and the configuration names of product.md as vars and secrets. */
export interface WorkerEnv {
  DB: D1Database
  /** The static assets the build wrote (src/runtime/worker/assets.ts). */
  ASSETS?: Fetcher
  [name: string]: unknown
}

/** What the entry gives the runtime's pieces. */
export interface WorkerRuntimeOptions {
  /** Opens TCP connections for e-mail (`cloudflare:sockets`); without it no mail is sent or queued. */
  smtpConnect?: SmtpConnect | undefined
  /** The fetch webhook targets' names are resolved through (DNS over HTTPS); default: global. */
  dohFetch?: DohFetch | undefined
  /** The simulator's module; only the dev entry passes it. */
  loadSimulator?: (() => Promise<SimulatorModule>) | undefined
  clock: () => number
  /** Hands the built-in simulator's background work to a request's `ctx.waitUntil`. */
  waitUntil: (promise: Promise<unknown>) => void
}

export interface WorkerRuntime {
  parts: RuntimeParts
  /** The daily digest's check (MERCHANT_NOTIFY=daily), run by each Cron event. */
  digest: (() => Promise<void>) | undefined
}

/** What `assemble` takes from the Workers runtime, for this configuration, D1 and assets. */
export function runtimeParts(
  config: Config,
  db: Db,
  env: WorkerEnv,
  options: WorkerRuntimeOptions,
): WorkerRuntime {
  const readAsset = assetReader(env.ASSETS)
  const mail = workerMail(
    db,
    config,
    consoleLogger,
    options.clock,
    options.smtpConnect,
    assetsMailWords(readAsset),
  )
  const parts: RuntimeParts = {
    db,
    config,
    log: consoleLogger,
    clientIp: (c) => c.req.header('cf-connecting-ip') ?? 'unknown',
    waitUntil: options.waitUntil,
    keepSettings: keepSettingsInD1(env.DB, mail.settings),
    encodePage: workerdEncodes,
    dashboardKit: assetsDashboardKit(readAsset),
    termsTexts: assetsTermsTexts(readAsset),
    apiDocs: assetsApiDocs(readAsset),
    ...mail.parts,
    // Workers have no resolver: webhook targets' names are checked through DNS over HTTPS.
    resolveHost: dohResolveHost(options.dohFetch),
    passwordIterations: WORKERS_MAX_ITERATIONS,
    ...(options.loadSimulator ? { loadSimulator: options.loadSimulator } : {}),
  }
  return { parts, digest: mail.digest }
}
