/** The typed Hono environment: everything a handler needs is in `c.var`, put there once per request. */
import type { GatewayClient } from './client/index.js'
import type { Config, Language } from './config.js'
import type { Db } from './data/db.js'
import type { Translate } from './i18n/index.js'
import type { Logger } from './log.js'

/** Long-lived secrets resolved at start (from the environment or the settings table). */
export interface AppSecrets {
  /** SHA-256 hex of the admin token; the token itself is never kept. */
  adminTokenHash: string
  /** Key for CSRF tokens and dashboard session cookies. */
  sessionSecret: string
}

/** What the app is built from; the two entry files (Node, Workers) assemble it. */
export interface AppDeps {
  db: Db
  config: Config
  gateway: GatewayClient
  secrets: AppSecrets
  /** The receiving account payments must reach (the simulator's in simulator mode). */
  merchantAccount: string
  /** PEM of the key that signs callbacks and webhooks. */
  gatewayPublicKey: string
  clock: () => number
  log: Logger
  /** Runs work after the response where the runtime allows (Workers' ctx.waitUntil). */
  waitUntil?: (promise: Promise<unknown>) => void
}

export type AppVariables = Omit<AppDeps, 'waitUntil'> & {
  waitUntil: (promise: Promise<unknown>) => void
  requestId: string
  secureHeadersNonce?: string
  lang: Language
  t: Translate
}

export interface AppEnv {
  Variables: AppVariables
}
