/** `new Paylinks({ url, apiKey })`: the merchant API's resources on one client. */
import {
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
import { type PaylinksOptions, Transport } from './transport.js'
import { webhooks } from './webhooks.js'

export class Paylinks {
  /** Verifies Paylinks' outbound events: `await Paylinks.webhooks.verify(body, headers, secret)`. */
  static readonly webhooks = webhooks
  /** The same as `Paylinks.webhooks`. */
  readonly webhooks = webhooks

  readonly links: Links
  readonly payments: Payments
  readonly checkouts: Checkouts
  readonly products: Products
  readonly promoCodes: PromoCodes
  readonly refunds: Refunds
  readonly webhookEndpoints: WebhookEndpoints
  readonly apiKeys: ApiKeys
  readonly audit: Audit

  constructor(options: PaylinksOptions) {
    const transport = new Transport(options)
    this.links = new Links(transport)
    this.payments = new Payments(transport)
    this.checkouts = new Checkouts(transport)
    this.products = new Products(transport)
    this.promoCodes = new PromoCodes(transport)
    this.refunds = new Refunds(transport)
    this.webhookEndpoints = new WebhookEndpoints(transport)
    this.apiKeys = new ApiKeys(transport)
    this.audit = new Audit(transport)
  }
}
