/**
 * What a payment sells, beyond its amount: the products and quantities of a cart, the answers to a
 * link's custom fields, a promo code's discount and the fee the customer pays. A link (or a
 * checkout's link) says what may be sold; the payment keeps what was sold, with the names and
 * prices of that moment, so a later change of the catalogue never changes a payment.
 *
 * The amount the card pays is `subtotal − discount + fee` (priceOrder), all integer centimes.
 */

/** A product line of a link: which product, how many, and the range the customer may choose. */
export type LinkLineItem = {
  productId: string
  quantity: number
  /** The customer may change the quantity within these bounds (`qty_<product_id>` on the form). */
  adjustable: { min: number; max: number } | null
}

/** A line of a payment, as it was sold: the product's name and unit price (centimes) then. */
export type SoldLineItem = {
  productId: string
  name: string
  sku: string | null
  quantity: number
  unitPrice: number
}

/** The kinds of custom field a link may ask (product.md's names). */
export const CUSTOM_FIELD_TYPES = ['text', 'number', 'select', 'wilaya', 'address'] as const
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number]

/** One question a link asks the customer (`cf_<key>` on the form). */
export type CustomField = {
  key: string
  label: string
  type: CustomFieldType
  /** A select's choices; null for the other types. */
  options: string[] | null
  required: boolean
}

/** A payment's answers to its link's custom fields: key → value as the customer gave it. */
export type CustomFieldValues = Record<string, string>

/** What the INSERT that starts a payment writes besides its amount (src/data/payment-reserve.ts). */
export interface OrderParts {
  /** Centimes before the discount and the fee: the cart's total, or the amount paid on the link. */
  subtotal: number
  discount: number
  fee: number
  /** The promo code as the merchant wrote it, and its row. */
  promoCode: string | null
  promoCodeId: string | null
  lineItems: SoldLineItem[] | null
  customFields: CustomFieldValues | null
}

/** An order with nothing but an amount: a payment as every payment was before carts. */
export function plainOrder(amount: number): OrderParts {
  return {
    subtotal: amount,
    discount: 0,
    fee: 0,
    promoCode: null,
    promoCodeId: null,
    lineItems: null,
    customFields: null,
  }
}

/** The amount the card pays for an order: subtotal less the discount, plus the customer's fee. */
export function orderAmount(order: Pick<OrderParts, 'subtotal' | 'discount' | 'fee'>): number {
  return order.subtotal - order.discount + order.fee
}
