/**
 * Assembles `AppDeps` from the configuration, the same way on Node and on Workers: the gateway
 * client, the built-in simulator in simulator mode, the generated secrets. The simulator is never
 * imported here: the runtime hands over a loader, so a build or process without simulator mode
 * never holds its code or its private key.
 */
import type { Context } from 'hono'
import { createBackground } from '../background.js'
import {
  createPaymentGateway,
  GATEWAY_PUBLIC_KEY_PEM,
  type GatewayClientOptions,
  type PaymentGateway,
  verifyGatewaySignature,
} from '../client/index.js'
import { type Config, ConfigError } from '../config.js'
import type { LoadDashboardKit } from '../dashboard/kit.js'
import { createBrandStore } from '../data/brand-store.js'
import type { Db } from '../data/db.js'
import { type RecordDelivery, recordDelivery } from '../data/gateway-inbox.js'
import type { PublicLink } from '../data/links.js'
import { type ChangeStamp, createReadCache } from '../data/read-cache.js'
import { setSettingIfAbsent } from '../data/settings.js'
import type {
  ApiDocs,
  AppDeps,
  AppSecrets,
  EncodePage,
  Gzip,
  MailTransport,
  Outbound,
  PaymentChanges,
  ReceiptPdfMaker,
  SaleEvents,
  SpliceGzip,
  TargetPolicy,
} from '../deps.js'
import type { LoadTermsTexts } from '../i18n/terms.js'
import type { DeclaredBodyLength } from '../lib/bounded-body.js'
import { randomBase62 } from '../lib/bytes.js'
import { sha256Hex } from '../lib/hash.js'
import type { Logger } from '../log.js'
import { type MailChannel, mailOutboxChannel } from '../mail/outbox-channel.js'
import { globalWebhookFetch, type WebhookFetch } from '../outbound-webhooks/post.js'
import { webhookChannel } from '../outbound-webhooks/sender.js'
import { createOutbound } from '../outbox/runner.js'
import { createConfirmQueue } from '../payments/confirm-queue.js'
import { altchaCaptcha } from '../security/captcha.js'
import { OWASP_ITERATIONS } from '../security/passwords.js'
import type { Simulator } from '../simulator/index.js'
import type { Mountable } from './shell.js'

/** What bootstrap uses of the simulator's module (`src/simulator/index.ts`). */
export type SimulatorModule = Pick<
  typeof import('../simulator/index.js'),
  | 'createSimulator'
  | 'SIMULATOR_API_KEY'
  | 'SIMULATOR_MERCHANT_ACCOUNT'
  | 'SIMULATOR_PUBLIC_KEY_PEM'
  | 'SIMULATOR_SECRET_SEED'
>

export interface RuntimeParts {
  db: Db
  config: Config
  log: Logger
  clock?: () => number
  clientIp: (c: Context) => string
  waitUntil?: (promise: Promise<unknown>) => void
  /** Node's body-on-GET sender for the product listing; absent on Workers. */
  getWithBody?: GatewayClientOptions['getWithBody']
  /** Per-call gateway timeout (default 15 s). */
  gatewayTimeoutMs?: number
  /** How the built-in simulator delivers webhooks; defaults to the app itself, in process. */
  deliver?: (request: Request) => Promise<Response>
  /**
   * Loads the simulator's module, in simulator mode only. Node imports it on demand; the Worker
   * that `wrangler deploy` uploads has none, so simulator mode refuses to start there.
   */
  loadSimulator?: () => Promise<SimulatorModule>
  /** The runtime's fastest check of a gateway signature (default: WebCrypto). */
  verifySignature?: (
    message: string,
    signature: string,
    publicKeyPem: string,
  ) => boolean | Promise<boolean>
  /** The runtime's fastest SHA-256, hex (default: WebCrypto). */
  sha256Hex?: (text: string) => string | Promise<string>
  /** How webhook deliveries reach the inbox (default: a lookup and a write each). */
  recordDelivery?: RecordDelivery
  /** A request's declared body length from the server's bindings (Node), before its headers. */
  declaredBodyLength?: DeclaredBodyLength
  /** gzip for prepared pages (Node); without it they are sent uncompressed. */
  gzip?: Gzip
  /** The gzip form of a prepared page with a per-answer slot (Node: raw deflate spliced). */
  spliceGzip?: SpliceGzip
  /** Compresses pages rendered per request (Node: zlib; Workers: workerd, told the coding). */
  encodePage?: EncodePage
  /** A database change stamp; with it, link reads are cached between writes (see data/read-cache). */
  changeStamp?: ChangeStamp
  /** How the start keeps its generated settings (default: drizzle, a write and a read each). */
  keepSettings?: KeepSettings
  /** Makes receipt PDFs (Node); without it the receipt downloads as an HTML file. */
  receiptPdf?: ReceiptPdfMaker
  /** Sends e-mail when SMTP_URL is set (Node: nodemailer; Workers: src/mail/smtp.ts). */
  mailTransport?: MailTransport
  /** A hostname's addresses for the webhook target check (Node: its resolver; Workers: DoH). */
  resolveHost?: (hostname: string) => Promise<string[]>
  /** How outbound webhooks are sent (Node: to the addresses checked; default: the global fetch). */
  webhookFetch?: WebhookFetch
  /** Where the outbox's mail rows go (the mail feature); without it they wait. */
  mail?: MailChannel
  /**
   * The dashboard's words and stylesheet, the /terms page's texts and the API's document: no
   * default, as one here would put the message tables and the OpenAPI generator into the Worker's
   * upload (Workers read them from static assets).
   */
  dashboardKit: LoadDashboardKit
  termsTexts: LoadTermsTexts
  apiDocs: ApiDocs
  /** PBKDF2 iterations for staff passwords (default OWASP's 600,000; Workers cap it at 100,000). */
  passwordIterations?: number
  /** Word of payment changes in this process (Node); Workers have none and the till polls. */
  paymentChanges?: PaymentChanges
  /** The till sale's event stream over that word (Node). */
  saleEvents?: SaleEvents
}

/** Stores each value unless its key has one; returns the values stored, in the same order. */
export type KeepSettings = (
  entries: ReadonlyArray<readonly [key: string, value: string]>,
  now: number,
) => Promise<string[]>

/** `KeepSettings` through drizzle, one setting after the other. */
function keepEach(db: Db): KeepSettings {
  return async (entries, now) => {
    const stored: string[] = []
    for (const [key, value] of entries) stored.push(await setSettingIfAbsent(db, key, value, now))
    return stored
  }
}

export interface Assembled {
  deps: AppDeps
  /** The built-in simulator, when this configuration uses it (mount it at `/_sim`). */
  simulator: Simulator | undefined
  /** Set once, on the start that generated the admin token: print it, it is not kept. */
  newAdminToken: string | undefined
  /** Lets the built-in simulator reach the app once it exists. */
  bindApp(app: { fetch(request: Request): Response | Promise<Response> }): void
}

/**
 * The app over the assembled dependencies (`createApp` or one of its halves), with the built-in
 * simulator mounted when this configuration has one, and the simulator told where the app is.
 * The same step on both runtimes.
 */
export function buildApp<App extends { fetch(request: Request): Response | Promise<Response> }>(
  assembled: Assembled,
  create: (deps: AppDeps, options: { simulator?: Mountable }) => App,
): App {
  const app = create(
    assembled.deps,
    assembled.simulator ? { simulator: assembled.simulator.app } : {},
  )
  assembled.bindApp(app)
  return app
}

/** Builds the dependencies of `createApp` for this configuration. */
export async function assemble(parts: RuntimeParts): Promise<Assembled> {
  const simulatorMode = parts.config.gatewayMode === 'simulator'
  const assembled = assembleStart(parts, simulatorMode ? await loadSimulator(parts) : undefined)
  await assembled.resolveSecrets()
  return assembled
}

/** What `assembleStart` returns: `deps.secrets` holds nothing until `resolveSecrets` is done. */
export interface AssembledStart extends Assembled {
  /** Reads or creates the secrets in the database and fills `deps.secrets` (and `newAdminToken`). */
  resolveSecrets(): Promise<void>
}

/**
 * `assemble` without its database reads, synchronous: a Worker does this while its isolate starts,
 * so its first request only reads the secrets. No request may reach the app before
 * `resolveSecrets` has finished.
 */
export function assembleStart(parts: RuntimeParts, sim?: SimulatorModule): AssembledStart {
  const { config, db } = parts
  const clock = parts.clock ?? Date.now
  const builtIn = builtInGateway(parts, sim, clock)
  const deps = createDeps(parts, sim, createGateway(parts, sim, builtIn), clock)
  const assembled: AssembledStart = {
    deps,
    simulator: builtIn.simulator,
    newAdminToken: undefined,
    bindApp: builtIn.bindApp,
    async resolveSecrets() {
      const resolved = await resolveSecrets(db, config, clock(), parts.keepSettings, deps.sha256Hex)
      deps.secrets = resolved.secrets
      assembled.newAdminToken = resolved.newAdminToken
    },
  }
  return assembled
}

/** The built-in simulator of this configuration (if any), and the way to the app for it. */
interface BuiltInGateway {
  simulator: Simulator | undefined
  /** The site the built-in simulator answers at (`PUBLIC_URL/_sim`). */
  site: string
  /** A request handed to the app in process (503 until `bindApp`). */
  toApp: (request: Request) => Promise<Response>
  bindApp: Assembled['bindApp']
}

/**
 * The built-in simulator, when simulator mode points the gateway at `PUBLIC_URL/_sim`: it
 * delivers its webhooks to the app in process, and its timers are kept alive by `waitUntil` where
 * the runtime has it.
 */
function builtInGateway(
  parts: RuntimeParts,
  sim: SimulatorModule | undefined,
  clock: () => number,
): BuiltInGateway {
  const site = `${parts.config.publicUrl}/_sim`
  let appRef: { fetch(request: Request): Response | Promise<Response> } | undefined
  const toApp = (request: Request) => {
    if (!appRef) return Promise.resolve(new Response('Paylinks is starting', { status: 503 }))
    return Promise.resolve(appRef.fetch(request))
  }
  const simulator =
    sim && parts.config.gatewaySiteUrl === site
      ? sim.createSimulator({
          publicUrl: site,
          clock,
          deliver: parts.deliver ?? toApp,
          ...(parts.waitUntil
            ? { waitUntil: parts.waitUntil, schedule: keptAliveTimer(parts.waitUntil) }
            : {}),
        })
      : undefined
  return {
    simulator,
    site,
    toApp,
    bindApp(app) {
      appRef = app
    },
  }
}

/** The gateway client of this configuration (the built-in simulator's keys in simulator mode). */
function createGateway(
  parts: RuntimeParts,
  sim: SimulatorModule | undefined,
  builtIn: BuiltInGateway,
): PaymentGateway {
  const { config } = parts
  // The built-in simulator is called in process: the public URL may not be reachable from here
  // (a tunnel, a proxy, or a Worker, which cannot fetch its own hostname).
  const gatewayFetch: typeof fetch = builtIn.simulator
    ? (input, init) => {
        const request = new Request(input, init)
        if (request.url.startsWith(`${builtIn.site}/`)) return builtIn.toApp(request)
        return fetch(request)
      }
    : fetch
  return createPaymentGateway({
    siteUrl: config.gatewaySiteUrl,
    ...(config.gatewayApiUrl ? { apiUrl: config.gatewayApiUrl } : {}),
    ...optional('apiKey', config.gatewayApiKey ?? sim?.SIMULATOR_API_KEY),
    ...optional('secretKey', config.gatewaySecretKey ?? sim?.SIMULATOR_SECRET_SEED),
    sandbox: config.gatewayMode === 'sandbox',
    fetch: gatewayFetch,
    timeoutMs: parts.gatewayTimeoutMs ?? 15_000,
    checkAmountUnit: config.checkAmountUnit,
    ...(parts.getWithBody ? { getWithBody: parts.getWithBody } : {}),
  })
}

/** `AppDeps` over the runtime's parts and the gateway; the secrets are filled in later. */
function createDeps(
  parts: RuntimeParts,
  sim: SimulatorModule | undefined,
  gateway: PaymentGateway,
  clock: () => number,
): AppDeps {
  const { config, db, log } = parts
  const gatewayPublicKey =
    config.gatewayPublicKey ?? sim?.SIMULATOR_PUBLIC_KEY_PEM ?? GATEWAY_PUBLIC_KEY_PEM
  // parseConfig refuses sandbox and live modes without an account: no default to pay into.
  const merchantAccount = config.merchantAccount ?? sim?.SIMULATOR_MERCHANT_ACCOUNT
  if (!merchantAccount) throw new ConfigError(['MERCHANT_ACCOUNT: required outside simulator mode'])
  const verify = parts.verifySignature ?? verifyGatewaySignature
  const deps: AppDeps = {
    db,
    config,
    gateway,
    // Filled by resolveSecrets (assembleStart), before any request.
    secrets: { adminTokenHash: '', sessionSecret: '' },
    merchantAccount,
    gatewayPublicKey,
    verifySignature: (message, signature) => verify(message, signature, gatewayPublicKey),
    sha256Hex: parts.sha256Hex ?? sha256Hex,
    recordDelivery: parts.recordDelivery ?? recordDelivery(db),
    declaredBodyLength: parts.declaredBodyLength,
    confirmations: createConfirmQueue(),
    gzip: parts.gzip,
    spliceGzip: parts.spliceGzip,
    encodePage: parts.encodePage,
    linkCache: parts.changeStamp
      ? createReadCache<PublicLink | null>(parts.changeStamp)
      : undefined,
    brand: createBrandStore(config, parts.changeStamp),
    clock,
    log,
    background: createBackground(log, parts.waitUntil),
    clientIp: parts.clientIp,
    captcha: config.captcha === 'altcha' ? altchaCaptcha() : undefined,
    receiptPdf: parts.receiptPdf,
    mailTransport: parts.mailTransport,
    // Set just below: the sender reads the dependencies it lives in.
    outbound: undefined as unknown as Outbound,
    webhookTargets: {
      simulator: config.gatewayMode === 'simulator',
      allowPrivate: config.webhookAllowPrivateTargets,
      resolve: parts.resolveHost,
    },
    dashboardKit: parts.dashboardKit,
    termsTexts: parts.termsTexts,
    apiDocs: parts.apiDocs,
    passwordIterations: parts.passwordIterations ?? OWASP_ITERATIONS,
    paymentChanges: parts.paymentChanges,
    saleEvents: parts.saleEvents,
  }
  deps.outbound = outboundOf(deps, parts)
  return deps
}

/**
 * The outbox's sender over the app's dependencies: the webhook channel, and the mail channel where
 * this process sends mail (the background tracker read at each kick).
 */
function outboundOf(
  deps: Pick<AppDeps, 'db' | 'clock' | 'log' | 'config' | 'webhookTargets' | 'background'>,
  parts: RuntimeParts,
): Outbound {
  const targets: TargetPolicy = deps.webhookTargets
  const webhooks = webhookChannel({
    db: deps.db,
    clock: deps.clock,
    log: deps.log,
    publicUrl: deps.config.publicUrl,
    targets,
    fetch: parts.webhookFetch ?? globalWebhookFetch,
  })
  const mail = parts.mail ? [mailOutboxChannel(parts.mail, deps)] : []
  return createOutbound(deps, [webhooks, ...mail], () => deps.background)
}

function loadSimulator(parts: RuntimeParts): Promise<SimulatorModule> {
  if (parts.loadSimulator) return parts.loadSimulator()
  throw new ConfigError([
    'GATEWAY_MODE: simulator mode is not part of this build (the deployed Worker holds no simulator) — use sandbox or live, or `npm run dev:worker` to try it locally',
  ])
}

/**
 * The simulator's timer (webhook retries, late deliveries) where the runtime has `waitUntil`: on
 * Workers a bare setTimeout never fires once the request that set it has answered.
 */
function keptAliveTimer(waitUntil: (promise: Promise<unknown>) => void) {
  return (delayMs: number, task: () => Promise<void>) =>
    waitUntil(new Promise((resolve) => setTimeout(resolve, delayMs)).then(task))
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V }
}

/**
 * The admin token's hash and the session secret. A configured ADMIN_TOKEN is used as is; without
 * one, a token is generated on the first start, only its hash is stored, and it is returned once.
 * `hash` is the runtime's SHA-256: on Node the synchronous one, as WebCrypto's first digest costs
 * a start several milliseconds of setting up.
 */
export async function resolveSecrets(
  db: Db,
  config: Config,
  now: number,
  keep: KeepSettings = keepEach(db),
  hash: AppDeps['sha256Hex'] = sha256Hex,
): Promise<{ secrets: AppSecrets; newAdminToken: string | undefined }> {
  const session = ['session_secret', randomBase62(43)] as const
  if (config.adminToken) {
    const [[sessionSecret], adminTokenHash] = await Promise.all([
      keep([session], now),
      hash(config.adminToken),
    ])
    return {
      secrets: { adminTokenHash, sessionSecret: stored(sessionSecret) },
      newAdminToken: undefined,
    }
  }
  const candidate = `plk_${randomBase62(32)}`
  const candidateHash = await hash(candidate)
  const [sessionSecret, storedHash] = await keep(
    [session, ['admin_token_sha256', candidateHash]],
    now,
  )
  return {
    secrets: { adminTokenHash: stored(storedHash), sessionSecret: stored(sessionSecret) },
    newAdminToken: storedHash === candidateHash ? candidate : undefined,
  }
}

function stored(value: string | undefined): string {
  if (value === undefined) throw new Error('A setting was not returned')
  return value
}
