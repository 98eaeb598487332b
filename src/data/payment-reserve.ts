/**
 * Starting a payment on a link. The place is taken by one conditional INSERT … SELECT, so reading
 * the link's counters (paid and in-flight payments, kept by the triggers of
 * 0006_link_counter_triggers, which run inside this same INSERT) and the insert are one atomic
 * statement on SQLite and on D1: a link never holds more initiated, pending and paid payments
 * together than `max_payments`.
 */
import { eq, getTableColumns, type SQL, sql } from 'drizzle-orm'
import {
  checkouts,
  type Language,
  links,
  type Payment,
  payments,
  promoCodes,
} from '../../db/schema.js'
import { DEFAULT_SESSION_MS, MIN_RETRY_AFTER_MS, retryAfterMs } from '../domain/check-schedule.js'
import { newPaymentId, newReceiptId } from '../domain/ids.js'
import { type OrderParts, plainOrder } from '../domain/order.js'
import { IN_FLIGHT_STATUSES } from '../domain/payment-state.js'
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
  linkId: string,
  now: number,
  sessionMs: number,
  promoCodeId: string | null = null,
): Promise<ReserveRefusal | null> {
  const [link] = await db
    .select({
      active: links.active,
      expiresAt: links.expiresAt,
      maxPayments: links.maxPayments,
      paid: links.paidCount,
      inFlight: links.inFlightCount,
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
  if (link.maxPayments !== null && link.paid + link.inFlight >= link.maxPayments) {
    const wait = retryAfterMs(Number(link.oldestInFlight ?? now), now, sessionMs)
    return { ok: false, reason: 'in_progress', retryAfterMs: wait, retryAt: now + wait }
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
 * pending ones hold the remaining places. The retry hint for `in_progress` is when the oldest
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
    const why = await refusal(
      db,
      request.linkId,
      now,
      opts.sessionMs ?? DEFAULT_SESSION_MS,
      request.order?.promoCodeId ?? null,
    )
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
