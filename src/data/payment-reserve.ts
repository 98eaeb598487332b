/**
 * Starting a payment on a link. The place is taken by one conditional INSERT … SELECT, so reading
 * the link's counters (paid and in-flight payments, kept by the triggers of
 * 0006_link_counter_triggers, which run inside this same INSERT) and the insert are one atomic
 * statement on SQLite and on D1: a link never holds more initiated, pending and paid payments
 * together than `max_payments`, and a deposit link (partial_min_amount set) never holds more
 * initiated, pending and paid parts together than its amount: a payment's part is
 * `subtotal − discount` (its amount less the customer's fee, see 0028_deposit_balance), summed in
 * `paid_total` and `in_flight_total`.
 */
import { eq, getTableColumns, type SQL, sql } from 'drizzle-orm'
import {
  checkouts,
  type Language,
  links,
  type Payment,
  payments,
  products,
  promoCodes,
} from '../../db/schema.js'
import { DEFAULT_SESSION_MS, MIN_RETRY_AFTER_MS, retryAfterMs } from '../domain/check-schedule.js'
import { newPaymentId, newReceiptId } from '../domain/ids.js'
import { type OrderParts, plainOrder, type SoldLineItem } from '../domain/order.js'
import { IN_FLIGHT_STATUSES } from '../domain/payment-state.js'
import { cartProducts } from './cart-products.js'
import type { Db } from './db.js'
import { col, colIn } from './sql.js'

export type PaymentRequest = {
  linkId: string
  /** Centimes, already checked against the link (see amountForPayment). */
  amount: number
  customerName: string
  customerPhone: string
  customerEmail: string
  ref?: string | null
  language: Language
  invoiceId?: string | null
  /** What is sold (a cart, answers, a discount, a fee); by default the amount alone. */
  order?: OrderParts
}

export type ReserveRefusal =
  | { ok: false; reason: 'not_found' | 'inactive' | 'expired' | 'completed' }
  /** The order's promo code is no longer active, has expired or has no redemption left. */
  | { ok: false; reason: 'promo_unavailable' }
  /** Pending payments hold every remaining place; try again after `retryAfterMs`. */
  | { ok: false; reason: 'in_progress'; retryAfterMs: number; retryAt: number }
  /** A deposit link's balance is now less than this payment's part (another part was paid). */
  | { ok: false; reason: 'balance_changed'; balance: number }
  /** A cart's product has fewer units left than asked (0: sold out, or no longer sold). */
  | { ok: false; reason: 'sold_out'; lines: SoldOutLine[] }
  /** A cart's product changed price since it was priced: price the order again. */
  | { ok: false; reason: 'price_changed' }

/** A cart line the stock cannot serve: its product, and the units still for sale. */
export type SoldOutLine = { productId: string; left: number }

export type ReserveResult = { ok: true; payment: Payment } | ReserveRefusal

/** The columns a payment copies from its link, read by the INSERT … SELECT that starts it. */
type FromLink = 'source' | 'metadata' | 'checkoutId'

/** The link's checkout session (none for other links), as the INSERT reads it. */
const checkoutOfLink = (column: 'id' | 'reference') =>
  sql`(SELECT ${sql.identifier(column)} FROM ${checkouts} WHERE ${col(checkouts.linkId)} = ${col(links.id)})`

/**
 * The new row's values as a SELECT list, in the table's column order as INSERT … SELECT needs; its
 * source (a link made before links.source: `dashboard`) and metadata are the link's as this same
 * statement reads them, so the payment keeps the metadata it was sold with. A checkout's payment
 * names its checkout and carries the shop's reference as its `ref`.
 */
function selectList(row: Omit<Payment, FromLink>): SQL {
  const values = Object.entries(getTableColumns(payments)).map(([key, column]) => {
    if (key === 'source') return sql`coalesce(${col(links.source)}, 'dashboard')`
    if (key === 'metadata') return col(links.metadata)
    if (key === 'checkoutId') return checkoutOfLink('id')
    if (key === 'ref') return sql`coalesce(${checkoutOfLink('reference')}, ${row.ref})`
    return sql.param(row[key as keyof typeof row], column)
  })
  return sql.join(values, sql`, `)
}

/** What a payment pays toward a deposit link's price: its subtotal less the discount, not its fee. */
export function depositPart(order: Pick<OrderParts, 'subtotal' | 'discount'>): number {
  return order.subtotal - order.discount
}

/**
 * A cart's condition in the INSERT's WHERE: every line's product is on sale at the price the
 * order was priced with, and has at least its quantity left (stock − held_count; a null stock is
 * unlimited). The hold itself is taken by migration 0029_cart_stock's trigger inside this same INSERT, so two
 * customers of the last unit never both pass. Always true without a cart.
 */
function cartFits(lines: SoldLineItem[] | null): SQL {
  if (!lines || lines.length === 0) return sql`1`
  return sql`NOT EXISTS (SELECT 1 FROM json_each(${JSON.stringify(lines)}) AS l
    LEFT JOIN ${products} ON ${col(products.id)} = json_extract(l.value, '$.productId')
    WHERE ${col(products.id)} IS NULL OR ${col(products.active)} = 0
      OR ${col(products.price)} IS NOT json_extract(l.value, '$.unitPrice')
      OR (${col(products.stock)} IS NOT NULL
          AND ${col(products.stock)} - ${col(products.heldCount)} < json_extract(l.value, '$.quantity')))`
}

/**
 * Why a cart was refused, read right after the insert: the lines with too few units left (an
 * archived or removed product has none), else a price changed since the order was priced; null
 * when it would fit now.
 */
async function cartRefusal(db: Db, lines: SoldLineItem[]): Promise<ReserveRefusal | null> {
  const found = await cartProducts(
    db,
    lines.map((l) => l.productId),
  )
  const short: SoldOutLine[] = []
  let repriced = false
  for (const line of lines) {
    const p = found.get(line.productId)
    const left = !p?.active ? 0 : p.available
    if (left !== null && left < line.quantity) short.push({ productId: line.productId, left })
    else if (p && p.price !== line.unitPrice) repriced = true
  }
  if (short.length > 0) return { ok: false, reason: 'sold_out', lines: short }
  return repriced ? { ok: false, reason: 'price_changed' } : null
}

async function tryInsert(db: Db, request: PaymentRequest, now: number): Promise<Payment | null> {
  const order = request.order ?? plainOrder(request.amount)
  const row: Omit<Payment, FromLink> = {
    id: newPaymentId(),
    receiptId: newReceiptId(),
    linkId: request.linkId,
    status: 'initiated',
    amount: request.amount,
    currency: '012',
    customerName: request.customerName,
    customerPhone: request.customerPhone,
    customerEmail: request.customerEmail,
    ref: request.ref ?? null,
    language: request.language,
    invoiceId: request.invoiceId ?? null,
    orderId: null,
    orderNumber: null,
    transactionId: null,
    cibTransactionId: null,
    paymentUrl: null,
    approvalCode: null,
    message: null,
    respCode: null,
    actionCode: null,
    errorReason: null,
    gatewayResponse: null,
    checkResponse: null,
    checkAttempts: 0,
    nextCheckAt: null,
    createdAt: now,
    updatedAt: now,
    paidAt: null,
    settledAt: null,
    beyondMaxPayments: false,
    statusCause: 'checkout',
    failureCode: null,
    subtotal: order.subtotal,
    discount: order.discount,
    fee: order.fee,
    promoCode: order.promoCode,
    promoCodeId: order.promoCodeId,
    lineItems: order.lineItems,
    customFields: order.customFields,
  }
  const [inserted] = await db
    .insert(payments)
    .select(
      sql`SELECT ${selectList(row)} FROM ${links}
        WHERE ${col(links.id)} = ${request.linkId}
          AND ${col(links.active)} = 1
          AND (${col(links.expiresAt)} IS NULL OR ${col(links.expiresAt)} > ${now})
          AND (${col(links.maxPayments)} IS NULL
               OR ${col(links.paidCount)} + ${col(links.inFlightCount)} < ${col(links.maxPayments)})
          AND (${col(links.partialMinAmount)} IS NULL
               OR ${col(links.paidTotal)} + ${col(links.inFlightTotal)} + ${depositPart(order)}
                  <= ${col(links.amount)})
          AND ${cartFits(order.lineItems)}
          AND ${promoCodeUsable(order.promoCodeId, now)}`,
    )
    .returning()
  return inserted ?? null
}

/**
 * The order's promo code still gives a redemption: active, unexpired, and with one left besides
 * those paid and those held by payments in flight (the triggers of promo_code_holds keep both
 * counts, and hold this one within the same INSERT). True for an order without a code.
 */
function promoCodeUsable(promoCodeId: string | null, now: number): SQL {
  if (promoCodeId === null) return sql`1`
  return sql`EXISTS (SELECT 1 FROM ${promoCodes}
    WHERE ${col(promoCodes.id)} = ${promoCodeId}
      AND ${col(promoCodes.active)} = 1
      AND (${col(promoCodes.expiresAt)} IS NULL OR ${col(promoCodes.expiresAt)} > ${now})
      AND (${col(promoCodes.maxRedemptions)} IS NULL
           OR ${col(promoCodes.redeemedCount)} + ${col(promoCodes.heldCount)} < ${col(promoCodes.maxRedemptions)}))`
}

/** Why the insert was refused, read right after it; null when a place has come free since. */
async function refusal(
  db: Db,
  request: PaymentRequest,
  now: number,
  sessionMs: number,
): Promise<ReserveRefusal | null> {
  const linkId = request.linkId
  const promoCodeId = request.order?.promoCodeId ?? null
  const [link] = await db
    .select({
      active: links.active,
      expiresAt: links.expiresAt,
      maxPayments: links.maxPayments,
      paid: links.paidCount,
      inFlight: links.inFlightCount,
      amount: links.amount,
      partialMin: links.partialMinAmount,
      paidTotal: links.paidTotal,
      inFlightTotal: links.inFlightTotal,
      oldestInFlight: sql<number | null>`(SELECT min(${col(payments.createdAt)}) FROM ${payments}
        WHERE ${col(payments.linkId)} = ${col(links.id)}
          AND ${colIn(payments.status, IN_FLIGHT_STATUSES)})`,
    })
    .from(links)
    .where(eq(links.id, linkId))
  if (!link) return { ok: false, reason: 'not_found' }
  if (!link.active) return { ok: false, reason: 'inactive' }
  if (link.maxPayments !== null && link.paid >= link.maxPayments)
    return { ok: false, reason: 'completed' }
  if (link.expiresAt !== null && link.expiresAt <= now) return { ok: false, reason: 'expired' }
  const wait = retryAfterMs(Number(link.oldestInFlight ?? now), now, sessionMs)
  const inProgress = {
    ok: false,
    reason: 'in_progress',
    retryAfterMs: wait,
    retryAt: now + wait,
  } as const
  if (link.maxPayments !== null && link.paid + link.inFlight >= link.maxPayments) return inProgress
  if (link.partialMin !== null && link.amount !== null) {
    const part = depositPart(request.order ?? plainOrder(request.amount))
    const balance = Math.max(0, link.amount - link.paidTotal)
    if (balance === 0) return { ok: false, reason: 'completed' }
    if (part > balance) return { ok: false, reason: 'balance_changed', balance }
    // The part fits what is unpaid but not beside the parts in flight: they hold the balance.
    if (link.paidTotal + link.inFlightTotal + part > link.amount) return inProgress
  }
  if (promoCodeId !== null) {
    const [usable] = await db
      .select({ ok: sql<number>`${promoCodeUsable(promoCodeId, now)}` })
      .from(links)
      .where(eq(links.id, linkId))
    if (!usable?.ok) return { ok: false, reason: 'promo_unavailable' }
  }
  return null
}

const ATTEMPTS = 3

/**
 * Writes an `initiated` payment if the link is active, not expired and has a free place.
 * Otherwise tells why: `completed` when paid payments fill `max_payments`, `in_progress` when
 * pending ones hold the remaining places (or a deposit link's balance), `balance_changed` when a
 * deposit's part is more than its link's balance now. The retry hint for `in_progress` is when the oldest
 * in-flight payment's card session ends (`sessionMs`, default 20 minutes); see retryAfterMs.
 */
export async function reservePayment(
  db: Db,
  request: PaymentRequest,
  now: number,
  opts: { sessionMs?: number } = {},
): Promise<ReserveResult> {
  for (let attempt = 1; ; attempt++) {
    const payment = await tryInsert(db, request, now)
    if (payment) return { ok: true, payment }
    const why =
      (await refusal(db, request, now, opts.sessionMs ?? DEFAULT_SESSION_MS)) ??
      (request.order?.lineItems ? await cartRefusal(db, request.order.lineItems) : null)
    if (why) return why
    // A pending payment failed between the insert and the read: its place is free, try again.
    if (attempt >= ATTEMPTS) {
      return {
        ok: false,
        reason: 'in_progress',
        retryAfterMs: MIN_RETRY_AFTER_MS,
        retryAt: now + MIN_RETRY_AFTER_MS,
      }
    }
  }
}
