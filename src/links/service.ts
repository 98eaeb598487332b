/**
 * Creating and changing links, shared by the merchant API and the dashboard. A link with invoice
 * items gets its gateway invoice created through the client before the link is stored.
 */

import type { Link } from '../../db/schema.js'
import { parseCreateLink, parseLinkUpdate } from '../api/links/input.js'
import { cartProducts } from '../data/cart-products.js'
import {
  createLink,
  getLinkById,
  type LinkOrigin,
  type LinkWithStats,
  updateLink,
} from '../data/links.js'
import type { AppDeps } from '../deps.js'
import { MAX_AMOUNT, MIN_AMOUNT } from '../domain/amount-bounds.js'
import { cartProductProblems, cartTotal } from '../domain/cart.js'
import { METADATA_MAX_KEYS } from '../domain/metadata.js'
import type { LinkLineItem } from '../domain/order.js'
import type { FieldProblems } from '../domain/problems.js'
import { describe } from '../lib/describe-error.js'
import { centimesToDzdNumber } from '../lib/money.js'

export type LinkResult =
  // `before`: the stored link an update changed (the audit log tells a switch-off from an edit).
  | { ok: true; link: LinkWithStats; before?: LinkWithStats }
  | { ok: false; kind: 'invalid'; problems: FieldProblems }
  | { ok: false; kind: 'not_found' }
  // A checkout's link changes only with its checkout (one place, its expiry): docs/decisions/checkouts.md.
  | { ok: false; kind: 'checkout' }
  | { ok: false; kind: 'gateway'; message: string }

type Deps = Pick<AppDeps, 'db' | 'gateway' | 'config' | 'clock' | 'log' | 'brand'>

/**
 * Validates a create-link body, creates the gateway invoice for items, stores the link with
 * where it comes from (the dashboard's form unless said).
 */
export async function createLinkFromBody(
  deps: Deps,
  body: unknown,
  origin?: LinkOrigin,
): Promise<LinkResult> {
  const now = deps.clock()
  const { defaultLanguage } = await deps.brand.fresh(deps.db)
  const parsed = parseCreateLink(body, { now, defaultLanguage })
  if (!parsed.ok) return { ok: false, kind: 'invalid', problems: parsed.problems }
  const values = parsed.value
  const cart = await priceCart(deps, values)
  if (cart) return cart
  if (values.invoiceItems && values.invoiceItems.length > 0 && !values.invoiceId) {
    const created = await createLinkInvoice(deps, values.invoiceItems, values.amount ?? 0)
    if (!created.ok) return created
    values.invoiceId = created.invoiceId
  }
  const link = await createLink(deps.db, values, now, origin)
  return { ok: true, link }
}

/** Validates a PATCH body against the stored link and applies it. */
export async function updateLinkFromBody(
  deps: Deps,
  id: string,
  body: unknown,
): Promise<LinkResult> {
  const existing = await getLinkById(deps.db, id)
  if (!existing) return { ok: false, kind: 'not_found' }
  if (existing.source === 'checkout') return { ok: false, kind: 'checkout' }
  const now = deps.clock()
  const parsed = parseLinkUpdate(existing, body, { now })
  if (!parsed.ok) return { ok: false, kind: 'invalid', problems: parsed.problems }
  const changes = parsed.value
  const cart = await priceCart(deps, changes)
  if (cart) return cart
  if (changes.invoiceItems && changes.invoiceItems.length > 0 && !changes.invoiceId) {
    const created = await createLinkInvoice(deps, changes.invoiceItems, changes.amount ?? 0)
    if (!created.ok) return created
    changes.invoiceId = created.invoiceId
  }
  const updated = await updateLink(deps.db, id, changes, now)
  if (!updated) {
    // Not written: the link is gone, or the metadata change would leave it too many keys.
    if (changes.metadata && (await getLinkById(deps.db, id))) {
      const problem = { code: 'too_many_keys', params: { max: METADATA_MAX_KEYS } } as const
      return { ok: false, kind: 'invalid', problems: { metadata: problem } }
    }
    return { ok: false, kind: 'not_found' }
  }
  return { ok: true, link: updated, before: existing }
}

/**
 * A cart link's products checked against the catalogue (each known and on sale) and its amount
 * set to Σ price × quantity at today's prices (migration 0029_cart_stock's trigger keeps it so when a price
 * changes; a payment is always priced again when made). Returns the refusal, or null.
 */
async function priceCart(
  deps: Deps,
  values: { lineItems?: LinkLineItem[] | null; amount?: number | null },
): Promise<LinkResult | null> {
  const lines = values.lineItems
  if (!lines) return null
  const found = await cartProducts(
    deps.db,
    lines.map((l) => l.productId),
  )
  const problems = cartProductProblems(lines, found)
  if (Object.keys(problems).length === 0) {
    const total = cartTotal(lines, found)
    if (total < MIN_AMOUNT)
      problems.line_items = { code: 'items_total_too_low', params: { min: MIN_AMOUNT } }
    if (total > MAX_AMOUNT)
      problems.line_items = { code: 'items_total_too_high', params: { max: MAX_AMOUNT } }
    values.amount = total
  }
  return Object.keys(problems).length > 0 ? { ok: false, kind: 'invalid', problems } : null
}

async function createLinkInvoice(
  deps: Deps,
  items: NonNullable<Link['invoiceItems']>,
  amount: number,
): Promise<{ ok: true; invoiceId: string } | { ok: false; kind: 'gateway'; message: string }> {
  try {
    const result = await deps.gateway.direct.invoices.create({
      amount: centimesToDzdNumber(amount),
      items: items.map((item) => ({
        description: item.description,
        quantity: item.quantity,
        unit_price: centimesToDzdNumber(item.unitPrice),
      })),
      status: 'PENDING',
    })
    const invoiceId = result.invoice?.id
    if (!invoiceId) throw new Error('The invoice answer carries no id')
    return { ok: true, invoiceId }
  } catch (error) {
    deps.log({ level: 'warn', event: 'invoice_create_failed', error: describe(error) })
    return {
      ok: false,
      kind: 'gateway',
      message: 'The gateway did not create the invoice; try again.',
    }
  }
}
