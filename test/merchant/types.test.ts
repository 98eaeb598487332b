/**
 * The SDK's hand-written types (src/merchant/types.ts, plain so its .d.ts stands alone) equal the
 * zod schemas the server parses and answers with, the ones the OpenAPI document is made from:
 * objects as `z.output` of each resource's object-schemas.ts under src/api/, bodies as `z.input`
 * of its schemas.ts, queries by their names. `tsc --noEmit` (npm run check) fails when one drifts; the
 * run only counts them. Products and refunds are not held here yet.
 */
import { describe, expectTypeOf, it } from 'vitest'
import type * as z from 'zod'
import type { apiKeyObject, apiKeyWithSecret } from '../../src/api/api-keys/object-schemas.js'
import type { createApiKeyBody } from '../../src/api/api-keys/schemas.js'
import type { auditEntryObject } from '../../src/api/audit/object-schemas.js'
import type { listAuditQuery } from '../../src/api/audit/schemas.js'
import type { checkoutList, checkoutObject } from '../../src/api/checkouts/object-schemas.js'
import type { createCheckoutBody, listCheckoutsQuery } from '../../src/api/checkouts/schemas.js'
import type { apiErrorObject } from '../../src/api/error-object.js'
import type { linkList, linkObject } from '../../src/api/links/object-schemas.js'
import type { createLinkBody, listLinksQuery, updateLinkBody } from '../../src/api/links/schemas.js'
import type { paymentList, paymentObject } from '../../src/api/payments/object-schemas.js'
import type { listPaymentsQuery } from '../../src/api/payments/schemas.js'
import type { promoCodeList, promoCodeObject } from '../../src/api/promo-codes/object-schemas.js'
import type {
  createPromoCodeBody,
  listPromoCodesQuery,
  updatePromoCodeBody,
} from '../../src/api/promo-codes/schemas.js'
import type {
  deliveryObject,
  webhookEndpointList,
  webhookEndpointObject,
  webhookEndpointWithSecret,
} from '../../src/api/webhook-endpoints/object-schemas.js'
import type {
  createEndpointBody,
  updateEndpointBody,
} from '../../src/api/webhook-endpoints/schemas.js'
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
  PaylinksError,
  Payment,
  PaymentListParams,
  PromoCode,
  PromoCodeCreateParams,
  PromoCodeListParams,
  PromoCodeUpdateParams,
  WebhookEndpoint,
  WebhookEndpointCreateParams,
  WebhookEndpointUpdateParams,
  WebhookEndpointWithSecret,
} from '../../src/merchant/index.js'

/** A plain copy of a type (interfaces and intersections compared by their members). */
type Plain<T> = T extends object ? { [K in keyof T]: T[K] } : T

describe('the SDK types equal the API schemas', () => {
  it('objects are the z.output of object-schemas.ts', () => {
    expectTypeOf<Plain<Link>>().toEqualTypeOf<z.output<typeof linkObject>>()
    expectTypeOf<Page<Link>>().toEqualTypeOf<z.output<typeof linkList>>()
    expectTypeOf<Plain<Payment>>().toEqualTypeOf<z.output<typeof paymentObject>>()
    expectTypeOf<Page<Payment>>().toEqualTypeOf<z.output<typeof paymentList>>()
    expectTypeOf<Plain<Checkout>>().toEqualTypeOf<z.output<typeof checkoutObject>>()
    expectTypeOf<Page<Checkout>>().toEqualTypeOf<z.output<typeof checkoutList>>()
    expectTypeOf<Plain<PromoCode>>().toEqualTypeOf<z.output<typeof promoCodeObject>>()
    expectTypeOf<Page<PromoCode>>().toEqualTypeOf<z.output<typeof promoCodeList>>()
    expectTypeOf<Plain<WebhookEndpoint>>().toEqualTypeOf<z.output<typeof webhookEndpointObject>>()
    expectTypeOf<Plain<WebhookEndpointWithSecret>>().toEqualTypeOf<
      z.output<typeof webhookEndpointWithSecret>
    >()
    expectTypeOf<{ data: WebhookEndpoint[] }>().toEqualTypeOf<
      z.output<typeof webhookEndpointList>
    >()
    expectTypeOf<Plain<Delivery>>().toEqualTypeOf<z.output<typeof deliveryObject>>()
    expectTypeOf<Plain<ApiKey>>().toEqualTypeOf<z.output<typeof apiKeyObject>>()
    expectTypeOf<Plain<ApiKeyWithSecret>>().toEqualTypeOf<z.output<typeof apiKeyWithSecret>>()
    // The log's action and group are the server's long lists, read as text by the SDK.
    expectTypeOf<z.output<typeof auditEntryObject>>().toExtend<AuditEntry>()
    expectTypeOf<keyof AuditEntry>().toEqualTypeOf<keyof z.output<typeof auditEntryObject>>()
  })

  it('bodies are the z.input of schemas.ts', () => {
    expectTypeOf<Plain<LinkCreateParams>>().toEqualTypeOf<z.input<typeof createLinkBody>>()
    expectTypeOf<Plain<LinkUpdateParams>>().toEqualTypeOf<z.input<typeof updateLinkBody>>()
    expectTypeOf<Plain<WebhookEndpointCreateParams>>().toEqualTypeOf<
      z.input<typeof createEndpointBody>
    >()
    expectTypeOf<Plain<WebhookEndpointUpdateParams>>().toEqualTypeOf<
      z.input<typeof updateEndpointBody>
    >()
    expectTypeOf<Plain<ApiKeyCreateParams>>().toEqualTypeOf<z.input<typeof createApiKeyBody>>()
    expectTypeOf<Plain<PromoCodeCreateParams>>().toEqualTypeOf<
      z.input<typeof createPromoCodeBody>
    >()
    expectTypeOf<Plain<PromoCodeUpdateParams>>().toEqualTypeOf<
      z.input<typeof updatePromoCodeBody>
    >()
    // The server reads a line item's two shapes (a product, or a name and a unit price) with one
    // looser object, and the catalogue's fields as anything (to refuse them by name): the SDK's
    // body is one the schema takes, with the same fields.
    expectTypeOf<CheckoutCreateParams>().toExtend<z.input<typeof createCheckoutBody>>()
    expectTypeOf<keyof CheckoutCreateParams>().toEqualTypeOf<
      keyof z.input<typeof createCheckoutBody>
    >()
  })

  it('queries take the names of the list schemas, and the values they parse', () => {
    expectTypeOf<keyof LinkListParams>().toEqualTypeOf<keyof z.input<typeof listLinksQuery>>()
    expectTypeOf<keyof PaymentListParams>().toEqualTypeOf<keyof z.input<typeof listPaymentsQuery>>()
    expectTypeOf<keyof CheckoutListParams>().toEqualTypeOf<
      keyof z.input<typeof listCheckoutsQuery>
    >()
    expectTypeOf<keyof PromoCodeListParams>().toEqualTypeOf<
      keyof z.input<typeof listPromoCodesQuery>
    >()
    expectTypeOf<keyof AuditListParams>().toEqualTypeOf<keyof z.input<typeof listAuditQuery>>()
    expectTypeOf<NonNullable<LinkListParams['source']>>().toEqualTypeOf<
      NonNullable<z.output<typeof listLinksQuery>['source']>
    >()
    expectTypeOf<NonNullable<PaymentListParams['status']>>().toExtend<string | string[]>()
    expectTypeOf<NonNullable<z.output<typeof listPaymentsQuery>['status']>[number]>().toEqualTypeOf<
      Extract<NonNullable<PaymentListParams['status']>, string>
    >()
  })

  it('an error carries the code and fields of the error object', () => {
    type Problem = z.output<typeof apiErrorObject>['error']
    expectTypeOf<Problem['code']>().toExtend<PaylinksError['code']>()
    expectTypeOf<NonNullable<Problem['fields']>>().toEqualTypeOf<PaylinksError['fields']>()
  })
})
