/**
 * Checkout sessions' queries. A checkout pays through a link of its own (source `checkout`, one
 * payment at most, expiring with it): the link is written first, then the checkout naming it, so a
 * checkout never names a missing link (a link left without its checkout by a crash between the two
 * is never shown nor reachable by anyone: its slug was never given out). The checkout's status
 * moves by conditional UPDATEs here and by the triggers of migration 0025, which complete it in the
 * statement that makes its payment paid. See docs/decisions/checkouts.md.
 */
import { and, desc, eq, inArray, lte, sql } from 'drizzle-orm'
import {
  type Checkout,
  type CheckoutLineItem,
  type CheckoutStatus,
  checkouts,
  type Language,
  type Link,
  links,
  payments,
} from '../../db/schema.js'
import type { Metadata } from '../domain/metadata.js'
import type { CustomField, LinkLineItem } from '../domain/order.js'
import { IN_FLIGHT_STATUSES } from '../domain/payment-state.js'
import { randomBase62 } from '../lib/bytes.js'
import type { Db } from './db.js'
import { createLink, type LinkWithStats } from './links.js'
import { afterCursor, type Page, type PageOptions, pageSize, toPage } from './paging.js'

/** A checkout id: `chk_` and 24 base62 characters (it is in the shop's success URL). */
export function newCheckoutId(): string {
  return `chk_${randomBase62(24)}`
}

/** What a shop decides of a checkout, as column values (centimes, epoch milliseconds). */
export type CheckoutValues = {
  /** Centimes: the amount given, or the line items' sum. */
  amount: number
  lineItems: CheckoutLineItem[] | null
  /** Its products, fixed quantities: the link's cart, priced again when paid (src/payments/order-cart.ts). */
  cartLines?: LinkLineItem[] | null
  reference: string | null
  metadata: Metadata
  customerName: string | null
  customerPhone: string | null
  customerEmail: string | null
  successUrl: string
  cancelUrl: string | null
  language: Language
  expiresAt: number
  /** The link's title: what the customer's page and the dashboard call the order. */
  title: string
  /** The questions the customer answers, kept on the checkout's link; none when left out. */
  customFields?: CustomField[] | null
  /** Whether the customer may enter a promo code (kept on the checkout's link). */
  allowPromoCodes?: boolean
}

export type CheckoutWithLink = { checkout: Checkout; link: LinkWithStats }

/**
 * Creates the checkout's link (one payment at most, expiring with the checkout, made by `createdBy`)
 * and the checkout naming it.
 */
export async function createCheckout(
  db: Db,
  values: CheckoutValues,
  now: number,
  createdBy: string | null = null,
): Promise<CheckoutWithLink> {
  const link = await createLink(
    db,
    {
      title: values.title,
      description: null,
      amount: values.amount,
      amountMin: null,
      amountMax: null,
      invoiceId: null,
      invoiceItems: null,
      lineItems: values.cartLines ?? null,
      maxPayments: 1,
      expiresAt: values.expiresAt,
      language: values.language,
      memo: null,
      successMessage: null,
      successUrl: null,
      active: true,
      inactiveMessage: null,
      allowPromoCodes: values.allowPromoCodes ?? false,
      metadata: values.metadata,
      customFields: values.customFields ?? null,
    },
    now,
    { source: 'checkout', createdBy },
  )
  const [checkout] = await db
    .insert(checkouts)
    .values({
      id: newCheckoutId(),
      linkId: link.id,
      status: 'open',
      reference: values.reference,
      amount: values.amount,
      lineItems: values.lineItems,
      customerName: values.customerName,
      customerPhone: values.customerPhone,
      customerEmail: values.customerEmail,
      successUrl: values.successUrl,
      cancelUrl: values.cancelUrl,
      expiresAt: values.expiresAt,
      paymentId: null,
      createdAt: now,
      updatedAt: now,
      completedAt: null,
    })
    .returning()
  return { checkout: checkout!, link }
}

export async function getCheckoutById(db: Db, id: string): Promise<Checkout | null> {
  const [row] = await db.select().from(checkouts).where(eq(checkouts.id, id)).limit(1)
  return row ?? null
}

/** The checkout a link belongs to; null for every link not made by a checkout. */
export async function getCheckoutByLinkId(db: Db, linkId: string): Promise<Checkout | null> {
  const [row] = await db.select().from(checkouts).where(eq(checkouts.linkId, linkId)).limit(1)
  return row ?? null
}

/** What a checkout's answer reads of its link: its page's slug, its metadata and language. */
export type CheckoutLink = Pick<Link, 'id' | 'slug' | 'metadata' | 'language' | 'title'>

/** The links of the checkouts given (by link id), in one read. */
export async function checkoutLinks(
  db: Db,
  linkIds: readonly string[],
): Promise<Map<string, CheckoutLink>> {
  if (linkIds.length === 0) return new Map()
  const rows = await db
    .select({
      id: links.id,
      slug: links.slug,
      metadata: links.metadata,
      language: links.language,
      title: links.title,
    })
    .from(links)
    .where(inArray(links.id, [...new Set(linkIds)]))
  return new Map(rows.map((row) => [row.id, row]))
}

/**
 * When the oldest payment still in flight on a checkout's link started (null when none is): the
 * payment a refused expiry waits for.
 */
export async function oldestPaymentInFlight(db: Db, linkId: string): Promise<number | null> {
  const [row] = await db
    .select({ at: sql<number | null>`min(${payments.createdAt})` })
    .from(payments)
    .where(and(eq(payments.linkId, linkId), inArray(payments.status, [...IN_FLIGHT_STATUSES])))
  return row?.at ?? null
}

/** Checkouts newest first, by status and by the shop's reference. */
export async function listCheckouts(
  db: Db,
  options: PageOptions & { status?: CheckoutStatus; reference?: string } = {},
): Promise<Page<Checkout>> {
  const limit = pageSize(options.limit)
  const rows = await db
    .select()
    .from(checkouts)
    .where(
      and(
        options.status === undefined ? undefined : eq(checkouts.status, options.status),
        options.reference === undefined ? undefined : eq(checkouts.reference, options.reference),
        options.cursor ? afterCursor(checkouts.createdAt, checkouts.id, options.cursor) : undefined,
      ),
    )
    .orderBy(desc(checkouts.createdAt), desc(checkouts.id))
    .limit(limit + 1)
    .offset(options.cursor ? 0 : (options.offset ?? 0))
  return toPage(rows, limit)
}

/** No payment of the checkout's link is being paid (a card page may be open): it may close. */
const noPaymentInFlight = sql`(SELECT ${links.inFlightCount} FROM ${links}
  WHERE ${links.id} = ${checkouts.linkId}) = 0`

/**
 * Closes an open checkout (`expired` or `canceled`) when none of its payments is in flight, in one
 * conditional UPDATE; its link expires or is switched off in the same statement (triggers).
 * Returns the closed checkout, or null when it is not open or a payment is under way.
 */
export async function closeCheckout(
  db: Db,
  id: string,
  status: 'expired' | 'canceled',
  now: number,
): Promise<Checkout | null> {
  const [row] = await db
    .update(checkouts)
    .set({ status, updatedAt: now })
    .where(and(eq(checkouts.id, id), eq(checkouts.status, 'open'), noPaymentInFlight))
    .returning()
  return row ?? null
}

/**
 * Expires up to `limit` open checkouts past their time whose link has no payment in flight (one
 * still being paid is left to finish: it completes the checkout or frees it to expire on the next
 * sweep). Returns the checkouts expired.
 */
export async function expireDueCheckouts(db: Db, now: number, limit = 100): Promise<Checkout[]> {
  // The batch is chosen among the checkouts that can close now: a hundred still being paid at
  // the head of the list would otherwise fill every batch and hold back all the others.
  const closable = and(
    eq(checkouts.status, 'open'),
    lte(checkouts.expiresAt, now),
    noPaymentInFlight,
  )
  const due = db.select({ id: checkouts.id }).from(checkouts).where(closable).limit(limit)
  return db
    .update(checkouts)
    .set({ status: 'expired', updatedAt: now })
    .where(and(sql`${checkouts.id} IN ${due}`, closable))
    .returning()
}
