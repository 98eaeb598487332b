/**
 * A create-checkout body in, the checkout's column values (centimes, epoch milliseconds) or the
 * problem of each bad field out. The body is read by its schema (schemas.ts), then the rules that
 * span several fields are applied here: exactly one of `amount` and `line_items`, each line a
 * name and a price or a product, the customer's prefill as the checkout form would take it.
 *
 * Two kinds of refusal: a body that breaks a rule (400 `invalid_body`), and a well-formed body
 * asking for what this Paylinks does not offer — a product of the catalogue, promo codes
 * (422 `unprocessable_body`). The first is reported alone when both apply.
 */
import type { CheckoutLineItem, Language } from '../../../db/schema.js'
import type { CheckoutValues } from '../../data/checkouts.js'
import { MAX_AMOUNT, MIN_AMOUNT } from '../../domain/amount-bounds.js'
import { cartLineProblems, cartProductProblems, cartTotal } from '../../domain/cart.js'
import {
  isCustomerEmail,
  isCustomerName,
  normalisePhone,
  westernDigits,
} from '../../domain/checkout-input.js'
import type { FieldProblems, Problem } from '../../domain/problems.js'
import { fieldProblems, PARSE_OPTIONS } from '../zod-problems.js'
import { type CreateCheckoutBody, createCheckoutBody, EXPIRES_IN } from './schemas.js'

export type CheckoutParse =
  | { ok: true; value: CheckoutValues }
  | { ok: false; status: 400 | 422; problems: FieldProblems }

/** The link's title when the shop gave no reference nor named lines: "an order". */
const ORDER: Record<Language, string> = { ar: 'طلب', fr: 'Commande', en: 'Order' }
const TITLE_MAX = 200

/**
 * What the dashboard and the customer's receipt call the checkout: the shop's reference, else
 * its lines' names, else a neutral word in the checkout's language.
 */
function titleOf(reference: string | null, items: CheckoutLineItem[] | null, lang: Language) {
  if (reference) return reference
  const names = items?.map((i) => i.name).join(', ') ?? ''
  if (names === '') return ORDER[lang]
  return names.length <= TITLE_MAX ? names : `${names.slice(0, TITLE_MAX - 1)}…`
}

type Customer = Pick<CheckoutValues, 'customerName' | 'customerPhone' | 'customerEmail'>

/** The prefill, normalised as the form stores it (one-spaced name, 0…/+213… phone, lower-case e-mail). */
function customerOf(c: CreateCheckoutBody['customer'], problems: FieldProblems): Customer {
  const none = (v: string | null | undefined) => (v == null || v === '' ? null : v)
  const name = none(c?.name)?.replace(/\s+/g, ' ') ?? null
  if (name !== null && !isCustomerName(name)) problems['customer.name'] = { code: 'bad_name' }
  const phoneText = none(c?.phone)
  const phone = phoneText === null ? null : normalisePhone(westernDigits(phoneText))
  if (phoneText !== null && phone === null) problems['customer.phone'] = { code: 'bad_phone' }
  const email = none(c?.email)?.toLowerCase() ?? null
  if (email !== null && !isCustomerEmail(email)) problems['customer.email'] = { code: 'bad_email' }
  return { customerName: name, customerPhone: phone, customerEmail: email }
}

/**
 * The lines with a name and a price, or the problem of each line that is neither: a product
 * named beside a name or price, or a line missing one of them. Product lines are left to the
 * catalogue check (`products` gets their indexes).
 */
function linesOf(
  items: NonNullable<CreateCheckoutBody['line_items']>,
  problems: FieldProblems,
  products: number[],
): CheckoutLineItem[] {
  const out: CheckoutLineItem[] = []
  items.forEach((item, i) => {
    const at = `line_items[${i}]`
    if (item.product_id !== undefined) {
      if (item.name !== undefined) problems[`${at}.name`] = { code: 'not_with_product' }
      if (item.unit_price !== undefined) problems[`${at}.unit_price`] = { code: 'not_with_product' }
      products.push(i)
      return
    }
    if (item.name === undefined) problems[`${at}.name`] = { code: 'required' }
    if (item.unit_price === undefined) problems[`${at}.unit_price`] = { code: 'required' }
    if (item.name !== undefined && item.unit_price !== undefined)
      out.push({ name: item.name, quantity: item.quantity, unitPrice: item.unit_price })
  })
  return out
}

/** Parses a create-checkout body; `language` falls back to the store's default. */
export function parseCreateCheckout(
  body: unknown,
  opts: { now: number; defaultLanguage: Language },
): CheckoutParse {
  const parsed = createCheckoutBody.safeParse(body, PARSE_OPTIONS)
  if (!parsed.success) return { ok: false, status: 400, problems: fieldProblems(parsed.error) }
  const v = parsed.data
  const problems: FieldProblems = {}
  const products: number[] = []
  const items = v.line_items ? linesOf(v.line_items, problems, products) : null
  let amount = v.amount ?? null
  if (v.line_items) {
    if (amount !== null) problems.amount = { code: 'amount_with_line_items' }
    // Exact: integer centimes, at most 20 × 999 × MAX_AMOUNT, far inside a safe integer.
    amount = (items ?? []).reduce((sum, i) => sum + i.quantity * i.unitPrice, 0)
    // The total is told only of complete lines (a product's price is the catalogue's).
    const complete = items?.length === v.line_items.length
    if (complete && amount < MIN_AMOUNT)
      problems.line_items = { code: 'items_total_too_low', params: { min: MIN_AMOUNT } }
    if (amount > MAX_AMOUNT)
      problems.line_items = { code: 'items_total_too_high', params: { max: MAX_AMOUNT } }
  } else if (amount === null) problems.amount = { code: 'checkout_pricing_required' }
  else if (amount < MIN_AMOUNT)
    problems.amount = { code: 'amount_too_low', params: { min: MIN_AMOUNT } }
  // A checkout's lines are all named or all products: a cart is priced from the catalogue when
  // paid, and a named line has no product to price it from.
  if (products.length > 0 && items && items.length > 0) {
    const first = v.line_items?.findIndex((l) => l.product_id !== undefined) ?? 0
    problems[`line_items[${first}].product_id`] = { code: 'mixed_line_items' }
  }
  const cartLines =
    products.length > 0
      ? products.map((i) => ({
          productId: v.line_items![i]!.product_id!,
          quantity: v.line_items![i]!.quantity,
          adjustable: null,
        }))
      : null
  if (cartLines) Object.assign(problems, cartLineProblems(cartLines))
  const customer = customerOf(v.customer, problems)
  if (Object.keys(problems).length > 0) return { ok: false, status: 400, problems }
  // Well formed: its products are checked against the catalogue by priceCheckoutCart (422).

  const language = v.language ?? opts.defaultLanguage
  const reference = v.reference ?? null
  return {
    ok: true,
    value: {
      // A cart's amount and lines are priced from the catalogue by the caller (priceCheckoutCart).
      amount: amount!,
      lineItems: cartLines ? null : items,
      cartLines,
      reference,
      metadata: v.metadata ?? {},
      allowPromoCodes: v.allow_promo_codes ?? false,
      ...customer,
      successUrl: v.success_url,
      cancelUrl: v.cancel_url ?? null,
      language,
      expiresAt: opts.now + (v.expires_in ?? EXPIRES_IN.default) * 1000,
      title: titleOf(reference, items, language),
      customFields: v.custom_fields ?? null,
    },
  }
}

/**
 * A checkout of products priced from the catalogue: each product known and on sale (else 422
 * naming the line: well formed, but asking for what the catalogue has not), the amount their
 * price × quantity (400 outside the card's limits), its lines named and priced as of now.
 */
export function priceCheckoutCart(
  value: CheckoutValues,
  found: ReadonlyMap<string, { name: string; price: number; active: boolean }>,
): CheckoutParse {
  const lines = value.cartLines
  if (!lines) return { ok: true, value }
  const missing = cartProductProblems(lines, found)
  if (Object.keys(missing).length > 0) return { ok: false, status: 422, problems: missing }
  const amount = cartTotal(lines, found)
  if (amount < MIN_AMOUNT || amount > MAX_AMOUNT) {
    const problem: Problem =
      amount < MIN_AMOUNT
        ? { code: 'items_total_too_low', params: { min: MIN_AMOUNT } }
        : { code: 'items_total_too_high', params: { max: MAX_AMOUNT } }
    return { ok: false, status: 400, problems: { line_items: problem } }
  }
  const lineItems = lines.map((l) => {
    const p = found.get(l.productId)!
    return { name: p.name, quantity: l.quantity, unitPrice: p.price, productId: l.productId }
  })
  const title =
    value.reference ??
    (() => {
      const names = lineItems.map((i) => i.name).join(', ')
      return names.length <= TITLE_MAX ? names : `${names.slice(0, TITLE_MAX - 1)}…`
    })()
  return { ok: true, value: { ...value, amount, lineItems, title } }
}
