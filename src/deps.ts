/**
 * The typed Hono environment: everything a handler needs is in the context, put there once per
 * request. Handlers read one value with `c.get('db')`, not `c.var` (docs/decisions/performance.md,
 * "One value from the context").
 */

import type { Context } from 'hono'
import type { PageContext } from '../views/layout.js'
import type { ApiDocs } from './api/api-docs-source.js'
import type { Principal } from './auth/principal.js'
import type { Background } from './background.js'
import type { PaymentGateway } from './client/index.js'
import type { Config, Language } from './config.js'
import type { LoadDashboardKit } from './dashboard/kit.js'
import type { SaleEvents } from './dashboard/till-events.js'
import type { BrandStore } from './data/brand-store.js'
import type { Db } from './data/db.js'
import type { RecordDelivery } from './data/gateway-inbox.js'
import type { PublicLink } from './data/links.js'
import type { ReadCache } from './data/read-cache.js'
import type { EncodePage } from './http/compress-pages.js'
import type { SecurityPolicy } from './http/security-headers.js'
import type { Translate } from './i18n/index.js'
import type { LoadTermsTexts } from './i18n/terms.js'
import type { DeclaredBodyLength } from './lib/bounded-body.js'
import type { Lru } from './lib/lru.js'
import type { Logger } from './log.js'
import type { MailTransport } from './mail/types.js'
import type { TargetPolicy } from './outbound-webhooks/target-check.js'
import type { Outbound } from './outbox/runner.js'
import type { PaymentChanges } from './payments/changes.js'
import type { ConfirmQueue } from './payments/confirm-queue.js'
import type { ReceiptPdfMaker } from './pdf/receipt-input.js'
import type { Gzip, SpliceGzip, StaticPage } from './routes/static-page.js'

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
