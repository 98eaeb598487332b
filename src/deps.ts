/**
 * The typed Hono environment: everything a handler needs is in the context, put there once per
 * request. Handlers read one value with `c.get('db')`, not `c.var` (docs/decisions/performance.md,
 * "One value from the context").
 */

import type { Context } from 'hono'
import type { Payment } from '../db/schema.js'
import type { Background } from './background.js'
import type { PaymentGateway } from './client/index.js'
import type { Config, Language } from './config.js'
import type { LoadDashboardKit } from './dashboard/kit.js'
import type { BrandStore } from './data/brand-store.js'
import type { Db } from './data/db.js'
import type { RecordDelivery } from './data/gateway-inbox.js'
import type { PublicLink } from './data/links.js'
import type { ReadCache } from './data/read-cache.js'
import type { MailMessage } from './domain/mail-message.js'
import type { PageContext } from './domain/page-context.js'
import type { Principal } from './domain/principal.js'
import type { ReceiptPdfInput } from './domain/receipt-view.js'
import type { SaleView } from './domain/till-sale.js'
import type { Translate } from './i18n/index.js'
import type { LoadTermsTexts } from './i18n/terms.js'
import type { DeclaredBodyLength } from './lib/bounded-body.js'
import type { Lru } from './lib/lru.js'
import type { OpenApiDocument } from './lib/openapi-types.js'
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
  gateway: PaymentGateway
  secrets: AppSecrets
  /** The receiving account payments must reach (the simulator's in simulator mode). */
  merchantAccount: string
  /** PEM of the key that signs callbacks and webhooks. */
  gatewayPublicKey: string
  /** Checks a gateway signature against `gatewayPublicKey`, the runtime's fastest way. */
  verifySignature: (message: string, signature: string) => boolean | Promise<boolean>
  /** SHA-256 of UTF-8 text, lower-case hex, the runtime's fastest way. */
  sha256Hex: (text: string) => string | Promise<string>
  /** Writes a webhook delivery to the inbox (grouped commits on Node). */
  recordDelivery: RecordDelivery
  /**
   * The body length a request's framing states (`framedLength`), from the runtime's own parse of
   * its headers in the server's bindings (Node); undefined where the request's headers must tell.
   */
  declaredBodyLength?: DeclaredBodyLength | undefined
  /** Webhook-triggered checks, coalesced per payment and limited in number. */
  confirmations: ConfirmQueue
  /** gzip, where the runtime does it better than the platform (Node); prepared pages keep both forms. */
  gzip?: Gzip | undefined
  /** The gzip form of a prepared page whose slot each answer fills (Node). */
  spliceGzip?: SpliceGzip | undefined
  /** Compresses pages rendered per request, for browsers that ask (see http/compress-pages). */
  encodePage?: EncodePage | undefined
  /** Link reads by slug, cached between database writes (Node; absent on Workers). */
  linkCache?: ReadCache<PublicLink | null> | undefined
  /** The merchant's branding from the settings page over the environment's (brand-store.ts). */
  brand: BrandStore
  clock: () => number
  log: Logger
  /** Tracks work that runs after the response (webhook confirmation). */
  background: Background
  /** The client's address, as the runtime knows it, for rate limits. */
  clientIp: (c: Context) => string
  /** The checkout captcha, when it is on. */
  captcha?: Captcha | undefined
  /** Makes receipt PDFs (Node); without it the receipt downloads as an HTML file. */
  receiptPdf?: ReceiptPdfMaker | undefined
  /** Sends e-mail (with SMTP_URL, on Node and Workers); `deliverPaymentMails` in src/mail takes it. */
  mailTransport?: MailTransport | undefined
  /** The outbound webhook sender (outbox in the database; kick it after a change). */
  outbound: Outbound
  /** Where webhook endpoints may point (checked at registration and before each attempt). */
  webhookTargets: TargetPolicy
  /** The dashboard's words and stylesheet (Node: in the code; Workers: from static assets). */
  dashboardKit: LoadDashboardKit
  /** The /terms page's texts (Node: in the code; Workers: from static assets). */
  termsTexts: LoadTermsTexts
  /** The merchant API's OpenAPI document and docs page (Node: generated; Workers: static assets). */
  apiDocs: ApiDocs
  /** PBKDF2 iterations for staff passwords: the most the runtime allows (docs/decisions/passwords.md). */
  passwordIterations: number
  /** Word of payment changes inside this process (Node: the till's live stream); absent on Workers. */
  paymentChanges?: PaymentChanges | undefined
  /** The till sale's event stream over that word (Node); absent on Workers. */
  saleEvents?: SaleEvents | undefined
}

/** A self-hosted captcha on the checkout form. */
export interface Captcha {
  /** A fresh challenge signed with `key`, as JSON text, made without a promise. */
  challenge(key: string, now: number): string
  /**
   * Head elements and the form field carrying `challenge` ('' leaves the slot a prepared page
   * fills per answer); the script fetches one from `challengeUrl` when the page's has expired.
   */
  widget(
    ctx: PageContext,
    challengeUrl: string,
    challenge: string,
  ): { head: unknown; field: unknown }
  /** True when the posted form carries a valid, unused solution. */
  verify(c: Context<AppEnv>, form: Record<string, unknown>): Promise<boolean>
}

/** Rendered QR codes by link URL and format; links' URLs never change, so entries never go stale. */
export type QrCache = Lru<{ body: string | Uint8Array; etag: string }>

export type AppVariables = AppDeps & {
  qrCache: QrCache
  /** Prepared checkout pages, by link version, language and form token (see routes/checkout). */
  pageCache: Lru<StaticPage>
  /** What the security headers depend on: form targets, HTTPS. */
  security: SecurityPolicy
  requestId: string
  /** Who is behind the request (signed-in dashboard requests and authenticated API calls). */
  principal?: Principal
  secureHeadersNonce?: string
  lang: Language
  t: Translate
}

export interface AppEnv {
  Variables: AppVariables
}

/** gzip as the runtime offers it (Node's zlib); prepared pages keep both forms. */
export type Gzip = (bytes: Uint8Array) => Uint8Array | Promise<Uint8Array>

/**
 * The gzip form of `before + middle + after` for any `middle`, prepared once (Node: src/lib/gzip-splice.ts
 * over zlib's raw deflate; the Worker has none, and its upload does not carry the splicer).
 */
export type SpliceGzip = (
  before: Uint8Array,
  after: Uint8Array,
) => (middle: Uint8Array) => Uint8Array

/** A page prepared once (src/routes/static-page.ts): its bytes, gzip form and headers. */
export interface StaticPage {
  headers: Readonly<Record<string, string>>
  body: Uint8Array
  /** The gzip form, when the runtime compresses (Node; Workers' edge compresses by itself). */
  gzip?: { headers: Readonly<Record<string, string>>; body: Uint8Array } | undefined
  /** The bytes around the page's slot, and its gzip form's builder, when it has one. */
  slot?:
    | {
        before: Uint8Array
        after: Uint8Array
        gzip?: ((middle: Uint8Array) => Uint8Array) | undefined
      }
    | undefined
}

/** A content coding a page may be sent in (src/http/compress-pages.ts). */
export type Coding = 'br' | 'gzip'

/** How a runtime encodes a page: the codings it offers, best first, and the encoding itself. */
export interface EncodePage {
  codings: readonly Coding[]
  /** The response with its body encoded in `coding` and the header saying so. */
  encode(response: Response, coding: Coding): Response | Promise<Response>
}

/**
 * Where the security headers depend on the deployment: the origins a form may end up at (the
 * policy's `form-action`), and whether Paylinks is reached over HTTPS (its `PUBLIC_URL`).
 */
export interface SecurityPolicy {
  formTargets: string[]
  https: boolean
}

/** How the app checks webhook targets (src/outbound-webhooks/target-check.ts); without `resolve`, names are checked as written only. */
export interface TargetPolicy {
  /** Simulator mode: any http(s) URL (the tests' receivers listen on loopback). */
  simulator: boolean
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS=true: private addresses allowed (an intranet receiver). */
  allowPrivate: boolean
  resolve?: ((hostname: string) => Promise<string[]>) | undefined
}

/** What one run of the outbox sender did. */
export interface SendReport {
  attempted: number
  delivered: number
}

/** The outbox sender's runner (src/outbox/runner.ts). */
export interface Outbound {
  /**
   * Starts a run in the background now (or right after the one going on), on `background` when
   * given: the tracker of the request that made the change (on Workers, its own waitUntil).
   */
  kick(background?: Background): void
  /** Runs until nothing more is due now; resolves with what it did. */
  run(): Promise<SendReport>
}

/**
 * Word that a payment changed state, inside one process (src/payments/changes.ts): whoever
 * watches a payment (the till's live stream) reads it again at once.
 */
export interface PaymentChanges {
  /** Tells the watchers of `linkId` that one of its payments changed. */
  emit(linkId: string): void
  /** Calls `listener` on each change of a payment of `linkId`; returns the way to stop. */
  watch(linkId: string, listener: () => void): () => void
  /** Calls `listener` when the process stops (a stream ends so the server can close); returns the way to stop. */
  onClose(listener: () => void): () => void
  /** Tells every `onClose` listener, once: the process is stopping. */
  close(): void
}

/** What confirming a payment needs (src/payments/confirm.ts). */
export interface ConfirmDeps {
  db: Db
  gateway: PaymentGateway
  merchantAccount: string
  clock: () => number
  log: Logger
  /** Told after a change, so the outbox's new deliveries go out at once, on `background`. */
  outbound?: { kick(background?: Background): void }
  background?: Background
  /** Told after a change, so a till watching the payment's link sees it at once (Node). */
  paymentChanges?: { emit(linkId: string): void } | undefined
}

export interface ConfirmResult {
  payment: Payment
  /** True when this call moved the payment to another state. */
  changed: boolean
  /** False when the gateway could not be asked; the payment is scheduled for another check. */
  checked: boolean
}

/** Confirmations asked for by webhooks, shared and limited (src/payments/confirm-queue.ts). */
export interface ConfirmQueue {
  /** Confirms the payment through the check endpoint, sharing work with requests in flight. */
  confirm(deps: ConfirmDeps, paymentId: string): Promise<ConfirmResult>
  /**
   * Confirms like `confirm`, unless a check of the payment was asked for less than the minimum
   * interval ago (by `deps.clock`): then null, and that check stands for this one.
   */
  confirmIfDue(deps: ConfirmDeps, paymentId: string): Promise<ConfirmResult | null>
  /**
   * Checks the payment again after each of the short delays while it stays pending, in
   * `background`. One schedule per payment at a time: asking again while one runs does nothing.
   */
  recheckSoon(deps: ConfirmDeps, background: Background, paymentId: string): void
}

/**
 * Sends messages. `send` resolves once the server accepted the message and throws otherwise,
 * so the caller (the outbox) tries again later. The From address is the transport's.
 */
export interface MailTransport {
  send(message: MailMessage): Promise<void>
}

/** Makes a receipt's PDF file (Node); absent where the runtime offers the HTML download instead. */
export type ReceiptPdfMaker = (input: ReceiptPdfInput) => Promise<Uint8Array>

/** The stream of sale `id`'s views: `first` now, then what `read` gives at each change (src/dashboard/till-events.ts). */
export type SaleEvents = (
  changes: PaymentChanges,
  id: string,
  read: () => Promise<SaleView | null>,
  first: SaleView,
) => ReadableStream<Uint8Array>

/** The merchant API's document and docs page of this Paylinks (src/api/api-docs-source.ts). */
export interface ApiDocs {
  document(publicUrl: string): Promise<OpenApiDocument>
  page(publicUrl: string, nonce: string): Promise<string>
}
