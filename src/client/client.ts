/**
 * `createGatewayClient`: one object for both gateway interfaces and card payments, over one
 * transport. It holds the credentials in a closure and never shows them: `toString`, `toJSON`
 * and Node's inspector print `[redacted]`.
 */

import { REDACTED } from '../lib/redact.js'
import { createV1, type V1Interface } from './api-key/index.js'
import { type CardPayments, createCard } from './card/index.js'
import type { ClientContext } from './core/context.js'
import { GatewayConfigurationError } from './core/errors.js'
import type { FetchLike, GetWithBody } from './core/transport.js'
import { createDirect, type DirectInterface } from './direct/index.js'
import { directInvoices } from './direct/invoices.js'

/** The production site of the gateway (`{site_url}`). */
export const DEFAULT_SITE_URL = 'https://www.sofizpay.com'

export interface GatewayClientOptions {
  /** Base of the direct interface and card payments; may carry a path (`http://host/_sim`). */
  siteUrl?: string
  /** Base of the API-key interface, ending with `/v1`; no public default is known. */
  apiUrl?: string
  /** `X-API-Key` of the API-key interface. */
  apiKey?: string
  /** `encrypted_sk` of the direct interface: a plain seed (`S…`) or its RSA-encrypted base64. */
  secretKey?: string
  /** Card creation and check go to `{siteUrl}/sandbox/…`. */
  sandbox?: boolean
  /** The fetch to use (default: the global one). */
  fetch?: FetchLike
  /** Time allowed for each attempt, in milliseconds (default 30 000). */
  timeoutMs?: number
  /** Retries of a read after the first attempt (default 2). Creations are never retried. */
  maxRetries?: number
  /** Sends the product listing's GET with a JSON body (on Node: src/runtime/node/get-with-body.ts). */
  getWithBody?: GetWithBody
  /** Path of the operation detail; some documents use the plural. */
  operationDetailPath?: 'operation-detail' | 'operation-details'
  /** Unit of `Amount` in the card check answer (default centimes, as the card network sends). */
  checkAmountUnit?: 'centimes' | 'dzd'
  /** Waits between retries (tests inject one that does not wait). */
  sleep?: (ms: number) => Promise<void>
  /** Source of retry jitter in [0, 1). */
  random?: () => number
  /** Clock for `Retry-After` dates, in milliseconds. */
  now?: () => number
}

export interface GatewayClient {
  /** The API-key interface. */
  readonly v1: V1Interface
  /** The direct (secret-key) interface. */
  readonly direct: DirectInterface
  /** Card payments on the direct interface's site. */
  readonly card: CardPayments
  readonly siteUrl: string
  readonly apiUrl: string | undefined
  readonly sandbox: boolean
  toString(): string
  toJSON(): Record<string, unknown>
}

/**
 * What a payment site uses of the gateway: card payments, and the direct interface's invoices.
 * A `GatewayClient` is one; `createPaymentGateway` makes one without the rest.
 */
export interface PaymentGateway
  extends Pick<GatewayClient, 'card' | 'siteUrl' | 'apiUrl' | 'sandbox' | 'toString' | 'toJSON'> {
  readonly direct: Pick<DirectInterface, 'invoices'>
}

function baseUrl(name: string, value: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new GatewayConfigurationError(`${name} must be an absolute http(s) URL.`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new GatewayConfigurationError(`${name} must be an http or https URL.`)
  if (url.search || url.hash || url.username || url.password)
    throw new GatewayConfigurationError(
      `${name} must not carry a query, a fragment or credentials.`,
    )
  return url.href.replace(/\/+$/, '')
}

function positive(name: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback
  if (!Number.isFinite(value) || value < min)
    throw new GatewayConfigurationError(`${name} must be a number of at least ${min}.`)
  return value
}

/** Creates a client for both gateway interfaces. Bad options throw GatewayConfigurationError. */
export function createGatewayClient(options: GatewayClientOptions = {}): GatewayClient {
  return clientOf(options, (ctx) => ({
    v1: createV1(ctx),
    direct: createDirect(ctx),
    card: createCard(ctx),
  }))
}

/**
 * Creates the part of the client a payment site uses (card payments, invoices), with the same
 * options, checks and redaction as `createGatewayClient`; the Worker's upload then carries nothing
 * of the rest. Bad options throw GatewayConfigurationError.
 */
export function createPaymentGateway(options: GatewayClientOptions = {}): PaymentGateway {
  return clientOf(options, (ctx) => ({
    direct: { invoices: directInvoices(ctx) },
    card: createCard(ctx),
  }))
}

/** The client's context from `options`, and the client made of `parts` over it. */
function clientOf<T extends object>(
  options: GatewayClientOptions,
  parts: (ctx: ClientContext) => T,
): T & Omit<PaymentGateway, 'card' | 'direct'> {
  const fetchImpl = options.fetch ?? (typeof fetch === 'function' ? fetch : undefined)
  if (!fetchImpl)
    throw new GatewayConfigurationError('No fetch is available: pass one as options.fetch.')
  const ctx: ClientContext = {
    settings: {
      // Called unbound, a platform fetch throws "Illegal invocation" on some runtimes.
      fetch: (input, init) => fetchImpl(input, init),
      timeoutMs: positive('timeoutMs', options.timeoutMs, 30_000, 1),
      maxRetries: Math.floor(positive('maxRetries', options.maxRetries, 2, 0)),
      sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
      random: options.random ?? Math.random,
      now: options.now ?? Date.now,
      getWithBody: options.getWithBody,
      secrets: [options.apiKey, options.secretKey].filter((s): s is string => !!s),
    },
    siteUrl: baseUrl('siteUrl', options.siteUrl || DEFAULT_SITE_URL),
    apiUrl: options.apiUrl ? baseUrl('apiUrl', options.apiUrl) : undefined,
    apiKey: options.apiKey || undefined,
    secretKey: options.secretKey || undefined,
    sandbox: options.sandbox === true,
    operationDetailPath: options.operationDetailPath ?? 'operation-detail',
    checkAmountUnit: options.checkAmountUnit ?? 'centimes',
    getWithBody: options.getWithBody,
  }
  const shown = () => ({
    siteUrl: ctx.siteUrl,
    apiUrl: ctx.apiUrl ?? null,
    sandbox: ctx.sandbox,
    apiKey: ctx.apiKey ? REDACTED : null,
    secretKey: ctx.secretKey ? REDACTED : null,
  })
  const client = {
    ...parts(ctx),
    siteUrl: ctx.siteUrl,
    apiUrl: ctx.apiUrl,
    sandbox: ctx.sandbox,
    toString: () =>
      `GatewayClient(${Object.entries(shown())
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')})`,
    toJSON: shown,
  }
  // Node's util.inspect (console.log) would otherwise list the methods; show the safe summary.
  Object.defineProperty(client, Symbol.for('nodejs.util.inspect.custom'), {
    value: () => client.toString(),
    enumerable: false,
  })
  return Object.freeze(client)
}
