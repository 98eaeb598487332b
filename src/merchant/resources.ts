/**
 * The merchant API's resources, one class each, with the names of product.md: `links`,
 * `payments`, `checkouts`, `products`, `promoCodes`, `refunds`, `webhookEndpoints`, `apiKeys` and
 * `audit`. Every write takes `{ idempotencyKey }` (default: a fresh UUID per call, the same for
 * its retries); every list answers a ListIterable (`for await`, or `.page()`).
 */
import { ListIterable } from './paging.js'
import type { RequestOptions, Transport } from './transport.js'
import type {
  ApiKey,
  ApiKeyCreateParams,
  ApiKeyWithSecret,
  AuditEntry,
  AuditListParams,
  Checkout,
  CheckoutCreateParams,
  CheckoutListParams,
  Delivery,
  Link,
  LinkCreateParams,
  LinkListParams,
  LinkUpdateParams,
  Page,
  PageParams,
  Payment,
  PaymentCreateParams,
  PaymentListParams,
  Product,
  ProductCreateParams,
  ProductListParams,
  ProductUpdateParams,
  PromoCode,
  PromoCodeCreateParams,
  PromoCodeListParams,
  PromoCodeUpdateParams,
  Refund,
  RefundCreateParams,
  RefundListParams,
  WebhookEndpoint,
  WebhookEndpointCreateParams,
  WebhookEndpointUpdateParams,
  WebhookEndpointWithSecret,
} from './types.js'

/** An id as one path segment: `/links/a%2Fb`, never `/links/a/b`. */
const seg = (id: string) => {
  if (typeof id !== 'string' || id === '') throw new TypeError('Paylinks: an id is required')
  return encodeURIComponent(id)
}

abstract class Resource {
  protected readonly t: Transport
  constructor(transport: Transport) {
    this.t = transport
  }

  /** A paged list at `path`: every page is one GET with the params and the page's cursor. */
  protected paged<T>(path: string, params: object | undefined, options?: RequestOptions) {
    return new ListIterable<T>(
      (query) => this.t.request<Page<T>>({ method: 'GET', path, query }, options),
      { ...params },
    )
  }
}

export class Links extends Resource {
  create(params: LinkCreateParams, options?: RequestOptions): Promise<Link> {
    return this.t.request({ method: 'POST', path: '/links', body: params }, options)
  }
  /** `for await (const link of paylinks.links.list({ active: true }))`, or `.page()`. */
  list(params?: LinkListParams, options?: RequestOptions): ListIterable<Link> {
    return this.paged('/links', params, options)
  }
  retrieve(id: string, options?: RequestOptions): Promise<Link> {
    return this.t.request({ method: 'GET', path: `/links/${seg(id)}` }, options)
  }
  update(id: string, params: LinkUpdateParams, options?: RequestOptions): Promise<Link> {
    return this.t.request({ method: 'PATCH', path: `/links/${seg(id)}`, body: params }, options)
  }
  /** Deletes a link nobody started paying; 409 `link_has_payments` otherwise. */
  async del(id: string, options?: RequestOptions): Promise<void> {
    await this.t.request({ method: 'DELETE', path: `/links/${seg(id)}` }, options)
  }
}

export class Payments extends Resource {
  /** `for await (const p of paylinks.payments.list({ status: 'paid' }))`, or `.page()`. */
  list(params?: PaymentListParams, options?: RequestOptions): ListIterable<Payment> {
    return this.paged('/payments', params, options)
  }
  retrieve(id: string, options?: RequestOptions): Promise<Payment> {
    return this.t.request({ method: 'GET', path: `/payments/${seg(id)}` }, options)
  }
  /** Records a payment not by card (cash, CCP, BaridiMob, …) as paid. */
  create(params: PaymentCreateParams, options?: RequestOptions): Promise<Payment> {
    return this.t.request({ method: 'POST', path: '/payments', body: params }, options)
  }
}

export class Checkouts extends Resource {
  /** A checkout session for one order: send the customer to its `url`. */
  create(params: CheckoutCreateParams, options?: RequestOptions): Promise<Checkout> {
    return this.t.request({ method: 'POST', path: '/checkouts', body: params }, options)
  }
  list(params?: CheckoutListParams, options?: RequestOptions): ListIterable<Checkout> {
    return this.paged('/checkouts', params, options)
  }
  retrieve(id: string, options?: RequestOptions): Promise<Checkout> {
    return this.t.request({ method: 'GET', path: `/checkouts/${seg(id)}` }, options)
  }
  /** Ends an open checkout now; 409 if it is no longer open. */
  expire(id: string, options?: RequestOptions): Promise<Checkout> {
    return this.t.request({ method: 'POST', path: `/checkouts/${seg(id)}/expire` }, options)
  }
}

export class Products extends Resource {
  create(params: ProductCreateParams, options?: RequestOptions): Promise<Product> {
    return this.t.request({ method: 'POST', path: '/products', body: params }, options)
  }
  list(params?: ProductListParams, options?: RequestOptions): ListIterable<Product> {
    return this.paged('/products', params, options)
  }
  retrieve(id: string, options?: RequestOptions): Promise<Product> {
    return this.t.request({ method: 'GET', path: `/products/${seg(id)}` }, options)
  }
  update(id: string, params: ProductUpdateParams, options?: RequestOptions): Promise<Product> {
    return this.t.request({ method: 'PATCH', path: `/products/${seg(id)}`, body: params }, options)
  }
  /** Deletes a product never sold. */
  async del(id: string, options?: RequestOptions): Promise<void> {
    await this.t.request({ method: 'DELETE', path: `/products/${seg(id)}` }, options)
  }
}

export class PromoCodes extends Resource {
  create(params: PromoCodeCreateParams, options?: RequestOptions): Promise<PromoCode> {
    return this.t.request({ method: 'POST', path: '/promo-codes', body: params }, options)
  }
  list(params?: PromoCodeListParams, options?: RequestOptions): ListIterable<PromoCode> {
    return this.paged('/promo-codes', params, options)
  }
  retrieve(id: string, options?: RequestOptions): Promise<PromoCode> {
    return this.t.request({ method: 'GET', path: `/promo-codes/${seg(id)}` }, options)
  }
  update(id: string, params: PromoCodeUpdateParams, options?: RequestOptions): Promise<PromoCode> {
    return this.t.request(
      { method: 'PATCH', path: `/promo-codes/${seg(id)}`, body: params },
      options,
    )
  }
}

export class Refunds extends Resource {
  /** Records a refund made through the bank or in cash (Paylinks moves no money back). */
  create(paymentId: string, params: RefundCreateParams, options?: RequestOptions): Promise<Refund> {
    return this.t.request(
      { method: 'POST', path: `/payments/${seg(paymentId)}/refunds`, body: params },
      options,
    )
  }
  list(params?: RefundListParams, options?: RequestOptions): ListIterable<Refund> {
    return this.paged('/refunds', params, options)
  }
}

export class WebhookEndpoints extends Resource {
  /** The answer holds the `whsec_…` secret, shown this once: keep it to verify events. */
  create(
    params: WebhookEndpointCreateParams,
    options?: RequestOptions,
  ): Promise<WebhookEndpointWithSecret> {
    return this.t.request({ method: 'POST', path: '/webhook-endpoints', body: params }, options)
  }
  /** Every endpoint (at most 20: one answer, no pages). */
  list(options?: RequestOptions): Promise<{ data: WebhookEndpoint[] }> {
    return this.t.request({ method: 'GET', path: '/webhook-endpoints' }, options)
  }
  retrieve(id: string, options?: RequestOptions): Promise<WebhookEndpoint> {
    return this.t.request({ method: 'GET', path: `/webhook-endpoints/${seg(id)}` }, options)
  }
  update(
    id: string,
    params: WebhookEndpointUpdateParams,
    options?: RequestOptions,
  ): Promise<WebhookEndpoint> {
    return this.t.request(
      { method: 'PATCH', path: `/webhook-endpoints/${seg(id)}`, body: params },
      options,
    )
  }
  async del(id: string, options?: RequestOptions): Promise<void> {
    await this.t.request({ method: 'DELETE', path: `/webhook-endpoints/${seg(id)}` }, options)
  }
  /** A new secret; the previous one still signs beside it for a day. */
  rotateSecret(id: string, options?: RequestOptions): Promise<WebhookEndpointWithSecret> {
    return this.t.request(
      { method: 'POST', path: `/webhook-endpoints/${seg(id)}/rotate-secret` },
      options,
    )
  }
  /** The endpoint's deliveries, newest first. */
  listDeliveries(id: string, params?: PageParams, options?: RequestOptions) {
    return this.paged<Delivery>(`/webhook-endpoints/${seg(id)}/deliveries`, params, options)
  }
  /** Sends a delivery again, now. */
  redeliver(id: string, eventId: string, options?: RequestOptions): Promise<Delivery> {
    return this.t.request(
      {
        method: 'POST',
        path: `/webhook-endpoints/${seg(id)}/deliveries/${seg(eventId)}/redeliver`,
      },
      options,
    )
  }
}

export class ApiKeys extends Resource {
  /** The answer holds the key, shown this once. */
  create(params: ApiKeyCreateParams, options?: RequestOptions): Promise<ApiKeyWithSecret> {
    return this.t.request({ method: 'POST', path: '/api-keys', body: params }, options)
  }
  list(options?: RequestOptions): Promise<{ data: ApiKey[] }> {
    return this.t.request({ method: 'GET', path: '/api-keys' }, options)
  }
  /** Revokes a key: it answers 401 from the next request on. */
  revoke(id: string, options?: RequestOptions): Promise<ApiKey> {
    return this.t.request({ method: 'DELETE', path: `/api-keys/${seg(id)}` }, options)
  }
}

export class Audit extends Resource {
  list(params?: AuditListParams, options?: RequestOptions): ListIterable<AuditEntry> {
    return this.paged('/audit', params, options)
  }
}
