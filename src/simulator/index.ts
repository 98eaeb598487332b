/**
 * A local gateway simulator: both interfaces, the hosted card page with 3-D Secure, signed return
 * redirects and webhooks, fault injection and an inspector — one Hono app on Web APIs only, with
 * in-memory state per instance.
 */
import { Hono } from 'hono'
import { holdSimulatorBody } from './body-limit.js'
import { finishTransaction, refreshSession } from './card/finish.js'
import {
  SIMULATOR_API_KEY,
  SIMULATOR_MERCHANT_ACCOUNT,
  SIMULATOR_SECRET_SEED,
} from './constants.js'
import type { MessageFormat, SimConfig, SimContext } from './context.js'
import { createFaults, type Faults } from './faults.js'
import { createIds } from './ids.js'
import { type InspectSnapshot, inspectState } from './inspect.js'
import { SIMULATOR_PRIVATE_KEY_PEM, SIMULATOR_PUBLIC_KEY_PEM } from './keys.js'
import { registerDefaultMerchant } from './merchants.js'
import { apiKeyRoutes } from './routes/api-key.js'
import { cardRoutes } from './routes/card.js'
import { cardPageRoutes } from './routes/card-page.js'
import { directRoutes } from './routes/direct.js'
import { invoiceRoutes } from './routes/invoices.js'
import { toolRoutes } from './routes/tools.js'
import { type CardOutcome, type CardTransaction, createState, type SimState } from './state.js'
import { createWebhookDispatcher } from './webhooks.js'

export * from './constants.js'
export type { MessageFormat, MessageParts } from './context.js'
export type { EndpointFault, FaultSettings, Faults, WebhookFault } from './faults.js'
export type { InspectSnapshot } from './inspect.js'
export { SIMULATOR_PRIVATE_KEY_PEM, SIMULATOR_PUBLIC_KEY_PEM } from './keys.js'
export type * from './state.js'

export interface SimulatorOptions {
  /** Absolute URL of the simulator's root as a browser reaches it (`http://127.0.0.1:9090`, `http://localhost:8787/_sim`). */
  publicUrl: string
  /** Makes every id reproducible. */
  seed?: string
  /** Milliseconds since the epoch; default `Date.now`. */
  clock?: () => number
  /** How webhooks are sent; default the global `fetch` (Paylinks in-process passes its `app.fetch`). */
  deliver?: (request: Request) => Promise<Response>
  /** Runs a task later (webhook retries, late deliveries); default `setTimeout`. */
  schedule?: (delayMs: number, task: () => Promise<void>) => void
  /** Keeps background deliveries alive on Workers (`ctx.waitUntil`). */
  waitUntil?: (promise: Promise<unknown>) => void
  /** Waits (the `latencyMs` and `hang` faults); default `setTimeout`, abortable. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
  /** The accepted `X-API-Key`; default `SIMULATOR_API_KEY`. */
  apiKey?: string
  /** Accepted secret seeds, the first being the default merchant; default any checksum-valid seed. */
  secretSeeds?: readonly string[]
  /** The default merchant's receiving account; default `SIMULATOR_MERCHANT_ACCOUNT`. */
  merchantAccount?: string
  /** PKCS#8 PEM that signs callbacks and webhooks; default the simulator's key. Pass `publicKeyPem` with it. */
  signingKeyPem?: string
  publicKeyPem?: string
  /** How long a card-page session lasts; default 10 minutes. */
  sessionTtlMs?: number
  /** Waits before each webhook retry; default [1000, 5000, 30000] (so 4 attempts). */
  webhookRetryDelaysMs?: readonly number[]
  /** Per-attempt time-out of a webhook delivery; default 10 s. */
  webhookTimeoutMs?: number
  /** How the signed `message` is built; default `'inferred'`. */
  messageFormat?: MessageFormat
  /** `status` of a newly created card transaction; default `pending_user_transfer_start`. */
  creationStatus?: string
  /** The longest a `hang` fault holds a request nobody aborts; default 60 s. */
  hangCapMs?: number
  /** Time after which an operation shows `completed` instead of `processing`; default 30 s. */
  operationProcessingMs?: number
}

/** A running simulator instance. */
export interface Simulator {
  /** The Hono app: serve it, or mount it (`app.route('/_sim', sim.app)`). */
  app: Hono
  /** The in-memory state (read it in tests; prefer `inspect()` for JSON). */
  state: SimState
  /** Fault switches: `faults.set({ endpoints: { 'operation_post': { status5xx: 503 } } })`. */
  faults: Faults
  /** The signing key pair in use. */
  keys: { privateKeyPem: string; publicKeyPem: string }
  /** The simulator's addresses: `siteUrl` (`{site_url}`), `apiUrl` (`{base_url}`), `publicKeyUrl`, `inspectorUrl`. */
  urls: { siteUrl: string; apiUrl: string; publicKeyUrl: string; inspectorUrl: string }
  config: Readonly<SimConfig>
  /** Releases held webhooks and waits for every delivery attempt in flight. */
  flush(): Promise<void>
  /** The state as the inspector shows it. */
  inspect(): Promise<InspectSnapshot>
  /**
   * Ends a payment without the card page, as if the customer had done it (for scripted tests).
   * `id` is the order id or the card-network transaction id. Returns the transaction, or null.
   */
  completePayment(id: string, outcome: CardOutcome): Promise<CardTransaction | null>
}

const defaultSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })

/** Creates a simulator instance (see `SimulatorOptions`). */
export function createSimulator(options: SimulatorOptions): Simulator {
  const publicUrl = options.publicUrl.replace(/\/+$/, '')
  if (!URL.canParse(publicUrl))
    throw new TypeError(`publicUrl must be an absolute URL: ${publicUrl}`)
  const signingKeyPem = options.signingKeyPem ?? SIMULATOR_PRIVATE_KEY_PEM
  const config: SimConfig = {
    publicUrl,
    basePath: new URL(publicUrl).pathname.replace(/\/+$/, ''),
    apiKey: options.apiKey ?? SIMULATOR_API_KEY,
    secretSeeds: options.secretSeeds ?? null,
    merchantAccount: options.merchantAccount ?? SIMULATOR_MERCHANT_ACCOUNT,
    signingKeyPem,
    publicKeyPem: options.publicKeyPem ?? SIMULATOR_PUBLIC_KEY_PEM,
    sessionTtlMs: options.sessionTtlMs ?? 10 * 60_000,
    webhookRetryDelaysMs: options.webhookRetryDelaysMs ?? [1000, 5000, 30_000],
    webhookTimeoutMs: options.webhookTimeoutMs ?? 10_000,
    messageFormat: options.messageFormat ?? 'inferred',
    creationStatus: options.creationStatus ?? 'pending_user_transfer_start',
    hangCapMs: options.hangCapMs ?? 60_000,
    operationProcessingMs: options.operationProcessingMs ?? 30_000,
  }
  const state = createState()
  const faults = createFaults()
  const ids = createIds(options.seed)
  const clock = options.clock ?? Date.now
  const webhooks = createWebhookDispatcher({
    state,
    faults,
    ids,
    clock,
    deliver: options.deliver ?? ((request) => fetch(request)),
    schedule: options.schedule ?? ((delay, task) => void setTimeout(() => void task(), delay)),
    waitUntil: options.waitUntil,
    retryDelaysMs: config.webhookRetryDelaysMs,
    timeoutMs: config.webhookTimeoutMs,
  })
  const ctx: SimContext = {
    config,
    state,
    faults,
    ids,
    clock,
    sleep: options.sleep ?? defaultSleep,
    webhooks,
  }
  registerDefaultMerchant(state, config, config.secretSeeds?.[0] ?? SIMULATOR_SECRET_SEED)

  const app = new Hono()
  // Every body is held to its limit before a route reads it: the card page's forms, the JSON of
  // both interfaces, the fault switches (a standalone simulator is as public as its port).
  app.use(holdSimulatorBody())
  app.route('/', cardRoutes(ctx))
  app.route('/', cardPageRoutes(ctx))
  app.route('/', directRoutes(ctx))
  app.route('/', invoiceRoutes(ctx))
  app.route('/api/v1', apiKeyRoutes(ctx))
  app.route('/', toolRoutes(ctx))
  app.notFound((c) => c.json({ detail: 'Not found.' }, 404))
  app.onError((error, c) =>
    c.json({ status: 'error', message: `Simulator error: ${error.message}` }, 500),
  )

  return {
    app,
    state,
    faults,
    keys: { privateKeyPem: signingKeyPem, publicKeyPem: config.publicKeyPem },
    urls: {
      siteUrl: publicUrl,
      apiUrl: `${publicUrl}/api/v1`,
      publicKeyUrl: `${publicUrl}/gateway-public-key.pem`,
      inspectorUrl: `${publicUrl}/_inspect`,
    },
    config,
    flush: () => webhooks.flush(),
    inspect: () => inspectState(ctx),
    async completePayment(id, outcome) {
      const orderId = state.transactions.has(id) ? id : state.byCibId.get(id)
      const tx = orderId ? state.transactions.get(orderId) : undefined
      if (!tx) return null
      await refreshSession(ctx, tx)
      await finishTransaction(ctx, tx, outcome)
      return tx
    },
  }
}
