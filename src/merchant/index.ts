/**
 * `paylinks/merchant`: the merchant API of Paylinks for a shop's code, in plain JavaScript with
 * type declarations and no dependency (fetch and Web Crypto: Node ≥ 20, Workers, Deno, browsers).
 *
 *   import { Paylinks } from 'paylinks/merchant'
 *   const paylinks = new Paylinks({ url: 'https://pay.example.dz', apiKey: process.env.PAYLINKS_KEY })
 *   const link = await paylinks.links.create({ title: 'Commande 1042', amount: 2500 })
 *
 * It imports nothing outside src/merchant/ (test/structure.test.ts): scripts/build.mjs compiles
 * this folder alone into dist/merchant/.
 */
export {
  PaylinksAuthError,
  PaylinksConflictError,
  PaylinksConnectionError,
  PaylinksError,
  type PaylinksErrorKind,
  PaylinksNotFoundError,
  PaylinksRateLimitError,
  PaylinksTimeoutError,
  PaylinksValidationError,
  PaylinksWebhookError,
} from './errors.js'
export { ListIterable } from './paging.js'
export { Paylinks } from './paylinks.js'
export type {
  ApiKeys,
  Audit,
  Checkouts,
  Links,
  Payments,
  Products,
  PromoCodes,
  Refunds,
  WebhookEndpoints,
} from './resources.js'
export {
  defaultRetryDelay,
  type FetchFunction,
  type PaylinksOptions,
  type RequestOptions,
} from './transport.js'
export type * from './types.js'
export { type VerifyOptions, verify as verifyWebhook, type WebhookHeaders } from './webhooks.js'
