/**
 * The merchant API's objects and parameters, as plain interfaces: the SDK's .d.ts stands alone
 * (no zod, no Paylinks internals). test/merchant/types.test.ts holds each one equal to the zod
 * schema the server answers and parses with (each resource's schemas.ts and object-schemas.ts
 * under src/api/), the same schemas the OpenAPI document is made from; the checkout, product,
 * promo code and refund shapes follow product.md's names until their schemas exist.
 *
 * Amounts are DZD as numbers with at most two decimals; times are ISO 8601 texts (UTC in answers).
 */

export type Language = 'ar' | 'fr' | 'en'
/** Where a link was made; `checkout`: the link a checkout session pays through. */
export type LinkSource = 'dashboard' | 'api' | 'till' | 'checkout'
export type LinkStatus = 'active' | 'inactive' | 'expired' | 'completed'
export type PaymentStatus =
  | 'initiated'
  | 'pending'
  | 'paid'
  | 'failed'
  | 'canceled'
  | 'expired'
  | 'error'
export type FailureCode =
  | 'insufficient_funds'
  | 'expired_card'
  | 'declined'
  | 'authentication_failed'
  | 'canceled_by_customer'
  | 'session_expired'
  | 'gateway_error'
  | 'unknown'

/** Your own keys and texts: at most 20 keys of `[A-Za-z0-9_.-]{1,40}`, texts of ≤ 500 characters. */
export type Metadata = Record<string, string>

/** One page of a list, newest first. */
export interface Page<T> {
  data: T[]
  /** Whether another page follows. */
  has_more: boolean
  /** Pass it as `cursor` to read the next page; null on the last page. */
  next_cursor: string | null
}

/** What every list takes: the page size (1–200, default 50) and where to start. */
export interface PageParams {
  limit?: number
  /** The `next_cursor` of the previous page. */
  cursor?: string
}

// ---------------------------------------------------------------------------------- links

export interface InvoiceItem {
  description: string
  quantity: number
  unit_price: number
}

/** A cart's product line: a product, how many, and the range the customer may choose in. */
export interface CartLineItem {
  product_id: string
  quantity: number
  /** The customer chooses the quantity from min to max; null: fixed. */
  adjustable_quantity: { min: number; max: number } | null
}

export interface Link {
  id: string
  slug: string
  url: string
  qr_svg_url: string
  qr_png_url: string
  poster_url: string
  title: string
  description: string | null
  /** Fixed and invoice links; null for an open amount. */
  amount: number | null
  amount_min: number | null
  amount_max: number | null
  invoice_id: string | null
  invoice_items: InvoiceItem[] | null
  /** A cart: its amount is the products' price × quantity. */
  line_items: CartLineItem[] | null
  max_payments: number | null
  expires_at: string | null
  language: Language
  memo: string | null
  success_message: string | null
  success_url: string | null
  active: boolean
  inactive_message: string | null
  /** Whether the customer may enter a promo code. */
  allow_promo_codes: boolean
  /** Whether the customer pays the fee of the setting customer_fee_percent. */
  customer_fee: boolean
  metadata: Metadata
  /** Deposits: each payment at least min_amount (or the balance), until paid in full. */
  allow_partial: { min_amount: number } | null
  /** The questions the customer answers (`[]` when none); the answers are on each payment. */
  custom_fields: LinkCustomField[]
  status: LinkStatus
  paid_count: number
  /** What was paid toward the link's price (customer fees apart). */
  paid_total: number
  /** The link's amount; null for an open amount. */
  amount_due: number | null
  /** amount_due − paid_total, never below 0; null for an open amount. */
  balance: number | null
  created_at: string
  updated_at: string
}

/** The fields a create and an update share; null clears an optional field. */
interface LinkFields {
  description?: string | null
  amount?: number | null
  amount_min?: number | null
  amount_max?: number | null
  invoice_id?: string | null
  invoice_items?: InvoiceItem[] | null
  /** 1 to 20 products; `amount` is then left out (it is their price × quantity). */
  line_items?:
    | {
        product_id: string
        quantity: number
        adjustable_quantity?: { min: number; max: number } | null
      }[]
    | null
  max_payments?: number | null
  /** ISO 8601 with a time zone. */
  expires_at?: string | null
  language?: Language
  memo?: string | null
  success_message?: string | null
  success_url?: string | null
  active?: boolean
  inactive_message?: string | null
  /** Fixed and invoice links: pay in parts of at least min_amount (or the balance). */
  allow_partial?: { min_amount: number } | null
  /** At most 5; `[]` or null asks nothing. */
  custom_fields?: CustomField[] | null
  allow_promo_codes?: boolean
  customer_fee?: boolean
}

/** A link's question as the API returns it. */
export interface LinkCustomField {
  /** `[a-z0-9_]{1,40}`: the answer's key, and the form's `cf_<key>`. */
  key: string
  label: string
  type: CustomFieldType
  /** A select's choices; null for the other types. */
  options: string[] | null
  required: boolean
}

/** `POST /api/v1/links`. */
export interface LinkCreateParams extends LinkFields {
  title: string
  /** A key set to "" is left out. */
  metadata?: Metadata | null
}

/** `PATCH /api/v1/links/:id`: `metadata` is merged ("" removes a key, null removes them all). */
export interface LinkUpdateParams extends LinkFields {
  title?: string
  metadata?: Metadata | null
}

/** `GET /api/v1/links`. */
export interface LinkListParams extends PageParams {
  active?: boolean
  source?: LinkSource
  /** Links whose title contains this text (3 to 100 characters). */
  q?: string
}

// ------------------------------------------------------------------------------- payments

/** A line of a payment: the product as it was sold. */
export interface SoldLineItem {
  product_id: string
  name: string
  sku: string | null
  quantity: number
  unit_price: number
  /** unit_price × quantity */
  amount: number
}

export interface Payment {
  id: string
  link_id: string
  status: PaymentStatus
  amount: number
  currency: 'DZD'
  customer: { name: string; phone: string; email: string }
  ref: string | null
  /** The checkout session the payment was made in; null for a payment on a link. */
  checkout_id: string | null
  metadata: Metadata
  /** Before the discount and the fee (amount = subtotal − discount + fee). */
  subtotal: number
  /** Taken off by the promo code (0 when none). */
  discount: number
  promo_code: string | null
  /** The gateway's fee paid by the customer on top (0 when the merchant pays it). */
  fee: number
  /** The products sold, with their names and prices of that moment (empty when none). */
  line_items: SoldLineItem[]
  /** The customer's answers to the link's custom fields, key → value. */
  custom_fields: Record<string, string>
  language: Language
  order_id: string | null
  order_number: string | null
  transaction_id: string | null
  cib_transaction_id: string | null
  approval_code: string | null
  message: string | null
  failure_code: FailureCode | null
  failure_message: string | null
  receipt_url: string
  created_at: string
  updated_at: string
  paid_at: string | null
  beyond_max_payments: boolean
  source: LinkSource
}

/** `GET /api/v1/payments`. */
export interface PaymentListParams extends PageParams {
  /** One status or several. */
  status?: PaymentStatus | PaymentStatus[]
  link_id?: string
  /** The same as `link_id`. */
  link?: string
  /** A date (Algiers time) or an instant with a time zone. */
  from?: string
  /** A date (the whole day, Algiers time) or an instant with a time zone. */
  to?: string
  source?: LinkSource
  /** Customer name, phone, e-mail, order number, transaction id, `ref`, id or receipt id. */
  q?: string
}

/** How a payment not by card was made (`POST /api/v1/payments`). */
export type PaymentMethod = 'cash' | 'ccp' | 'baridimob' | 'bank_transfer' | 'cheque' | 'other'

/** `POST /api/v1/payments`: a payment not by card, recorded paid. */
export interface PaymentCreateParams {
  method: PaymentMethod
  amount: number
  link_id?: string
  customer?: { name?: string; phone?: string; email?: string }
  ref?: string
  note?: string
}

// ------------------------------------------------------------------------------ checkouts

export type CheckoutStatus = 'open' | 'completed' | 'expired' | 'canceled'

/** A line of a checkout: a named line with its own price, or a product of the catalogue. */
export type CheckoutLineItemParams =
  | { name: string; quantity: number; unit_price: number }
  | { product_id: string; quantity: number }

export interface CheckoutLineItem {
  /** A product of the catalogue (its name and price when the checkout was made); null for a named line. */
  product_id: string | null
  name: string
  quantity: number
  unit_price: number
  /** quantity × unit_price */
  amount: number
}

export type CustomFieldType = 'text' | 'number' | 'select' | 'wilaya' | 'address'

/**
 * A question for the customer, as a link or checkout body gives it: `text` (≤ 200 characters),
 * `number`, `select` (1 to 20 `options`), `wilaya` (answered by its code, `16`) or `address`.
 */
export interface CustomField {
  key: string
  /** 1 to 80 characters. */
  label: string
  type: CustomFieldType
  /** Only for `select`: 1 to 20 distinct texts of at most 80 characters. */
  options?: string[] | null
  /** Default false. */
  required?: boolean
}

export interface Checkout {
  /** `chk_…` */
  id: string
  /** Where to send the customer. */
  url: string
  status: CheckoutStatus
  amount: number
  currency: 'DZD'
  /** Null for a checkout made with an amount. */
  line_items: CheckoutLineItem[] | null
  /** Your order's id; its payments carry it as `ref`. */
  reference: string | null
  metadata: Metadata
  /** What the checkout form is filled with (null: left for the customer). */
  customer: { name: string | null; phone: string | null; email: string | null }
  success_url: string
  cancel_url: string | null
  language: Language
  expires_at: string
  /** The paid payment; null until paid. */
  payment_id: string | null
  created_at: string
  completed_at: string | null
}

/** `POST /api/v1/checkouts`: `success_url`, and `amount` or `line_items`. */
export interface CheckoutCreateParams {
  /** DZD, at least 50. */
  amount?: number | null
  /** 1 to 20 lines; the amount is their total. */
  line_items?: CheckoutLineItemParams[] | null
  /** Your order's id, at most 100 characters. */
  reference?: string | null
  metadata?: Metadata | null
  /** Prefills the checkout form; the customer may change it. */
  customer?: { name?: string | null; phone?: string | null; email?: string | null } | null
  /** Where the paid customer goes, with `checkout_id=chk_…` added to its query. */
  success_url: string
  /** Where "back to the shop" goes. */
  cancel_url?: string | null
  language?: Language
  /** At most 5 questions for the customer, kept on the checkout's link. */
  custom_fields?: CustomField[] | null
  allow_promo_codes?: boolean
  /** Seconds, 300 to 86,400; default 1,800. */
  expires_in?: number
}

/** `GET /api/v1/checkouts`. */
export interface CheckoutListParams extends PageParams {
  status?: CheckoutStatus
  reference?: string
}

// -------------------------------------------------------------------- webhook endpoints

export type EventType =
  | 'payment.paid'
  | 'payment.failed'
  | 'payment.canceled'
  | 'payment.expired'
  | 'link.completed'
  | 'checkout.completed'
  | 'checkout.expired'
  | 'payment.refunded'

/** The event types an endpoint subscribes to today (`payment.refunded` comes with refunds). */
export type EndpointEventType = Exclude<EventType, 'payment.refunded'>

export interface WebhookEndpoint {
  id: string
  url: string
  description: string | null
  event_types: EndpointEventType[]
  enabled: boolean
  /** Five or more failed attempts in a row; a delivered one clears it. */
  failing: boolean
  failing_since: string | null
  consecutive_failures: number
  /** After a rotation, until when the previous secret still signs. */
  previous_secret_expires_at: string | null
  created_at: string
  updated_at: string
}

/** The answer of a create or a rotation: the only time the `whsec_…` secret is shown. */
export interface WebhookEndpointWithSecret extends WebhookEndpoint {
  secret: string
}

export interface WebhookEndpointCreateParams {
  url: string
  description?: string | null
  /** Default: every event type. */
  event_types?: EndpointEventType[]
  enabled?: boolean
}

export interface WebhookEndpointUpdateParams {
  url?: string
  description?: string | null
  event_types?: EndpointEventType[]
  enabled?: boolean
}

export interface Delivery {
  /** The event id, sent as `webhook-id` on every attempt. */
  id: string
  type: EndpointEventType
  payment_id: string | null
  link_id: string
  state: 'pending' | 'delivered' | 'failed'
  attempts: number
  next_attempt_at: string | null
  last_attempt_at: string | null
  last_status: number | null
  last_response: string | null
  last_duration_ms: number | null
  last_error: string | null
  delivered_at: string | null
  created_at: string
}

// ------------------------------------------------------------------------------- products

export interface Product {
  id: string
  name: string
  description: string | null
  price: number
  /** Null for unlimited. */
  stock: number | null
  sku: string | null
  active: boolean
  /** Uploaded in the dashboard. */
  image_url: string | null
  created_at: string
  updated_at: string
}

export interface ProductCreateParams {
  name: string
  description?: string | null
  price: number
  stock?: number | null
  sku?: string | null
  active?: boolean
}

export type ProductUpdateParams = Partial<ProductCreateParams>

export interface ProductListParams extends PageParams {
  active?: boolean
}

// ---------------------------------------------------------------------------- promo codes

export interface PromoCode {
  /** `promo_…` */
  id: string
  /** As written; the customer may type it in any case. */
  code: string
  /** Whole percent off; null with amount_off. */
  percent_off: number | null
  /** DZD off; null with percent_off. */
  amount_off: number | null
  /** The least order (DZD, before the discount) it applies to. */
  min_amount: number | null
  max_redemptions: number | null
  expires_at: string | null
  active: boolean
  /** Paid payments that used it. */
  times_redeemed: number
  created_at: string
  updated_at: string
}

/** Exactly one of `percent_off` and `amount_off`. */
export interface PromoCodeCreateParams {
  /** 3 to 40 letters, digits, `_` or `-`; unique whatever its case. */
  code: string
  percent_off?: number | null
  amount_off?: number | null
  min_amount?: number | null
  max_redemptions?: number | null
  /** ISO 8601 with a time zone. */
  expires_at?: string | null
  active?: boolean
}

export type PromoCodeUpdateParams = Partial<PromoCodeCreateParams>

export interface PromoCodeListParams extends PageParams {
  active?: boolean
}

// -------------------------------------------------------------------------------- refunds

export type RefundMethod = 'card_reversal' | 'bank_transfer' | 'cash' | 'other'

/** A refund the merchant made (through the bank or in cash) and records here. */
export interface Refund {
  /** `re_…` */
  id: string
  payment_id: string
  amount: number
  reason: string | null
  method: RefundMethod
  note: string | null
  created_at: string
}

/** `POST /api/v1/payments/:id/refunds`. */
export interface RefundCreateParams {
  amount: number
  reason?: string
  method: RefundMethod
  note?: string
}

export interface RefundListParams extends PageParams {
  payment_id?: string
}

// ------------------------------------------------------------------------- API keys, audit

export interface ApiKey {
  id: string
  name: string
  /** The start of the key, to tell keys apart. */
  prefix: string
  scope: 'read' | 'write'
  /** The person it acts for; null: the store's key. */
  user_id: string | null
  created_by: string | null
  created_at: string
  last_used_at: string | null
  revoked_at: string | null
}

/** The answer of a create: the only time the `pl_live_…` key is shown. */
export interface ApiKeyWithSecret extends ApiKey {
  key: string
}

export interface ApiKeyCreateParams {
  name: string
  scope: 'read' | 'write'
  /** `store` (default): the owner's role; `me`: the person behind this request. */
  owner?: 'store' | 'me'
}

export interface AuditEntry {
  id: number
  at: string
  actor: { kind: string; id: string | null; label: string | null }
  action: string
  group: string | null
  target: { kind: string; id: string } | null
  detail: Record<string, unknown> | null
  address: string | null
}

export interface AuditListParams extends PageParams {
  group?: string
  actor?: string
  /** YYYY-MM-DD, Algiers time, inclusive. */
  from?: string
  to?: string
}

// --------------------------------------------------------------------------------- events

/** What a payment event's payment tells of its link. */
export interface EventLinkSummary {
  id: string
  slug: string
  title: string
  invoice_id: string | null
  memo: string | null
}

/**
 * An outbound event, as `Paylinks.webhooks.verify` returns it. `data.status` of a `payment.*`
 * event is the status it announces; read the payment for its present state.
 */
export type WebhookEvent =
  | {
      type: 'payment.paid' | 'payment.failed' | 'payment.canceled' | 'payment.expired'
      timestamp: string
      data: Payment & { link: EventLinkSummary }
    }
  | {
      type: 'link.completed'
      timestamp: string
      data: Link & { completed_by_payment_id: string | null }
    }
  | {
      type: 'checkout.completed' | 'checkout.expired'
      timestamp: string
      /** The checkout, with the payment that paid it (`checkout.completed`). */
      data: Checkout & { payment?: Payment | null }
    }
  | { type: 'payment.refunded'; timestamp: string; data: Payment }
