/**
 * The parse functions the API and the dashboard's form call: a create-link or update-link body
 * in, column values (centimes, epoch milliseconds) or the problem of each bad field out. The body
 * is read by its schema (schemas.ts), then the rules that span several fields are applied
 * (src/domain/link-rules.ts).
 */
import type { Language, Link } from '../../../db/schema.js'
import {
  type LinkChanges,
  type LinkValues,
  linkChanges,
  newLinkValues,
  type Parsed,
} from '../../domain/link-rules.js'
import {
  type CreateLinkBody,
  createLinkBody,
  parseBody,
  type UpdateLinkBody,
  updateLinkBody,
} from './schemas.js'

/**
 * Maps the fields present in a parsed body to column values (absent fields stay absent); an
 * update's `metadata` is a change to merge (LinkChanges), a new link's the whole value.
 */
function toValues(body: CreateLinkBody | UpdateLinkBody): LinkChanges {
  const out: LinkChanges = {}
  const set = <K extends keyof LinkChanges>(key: K, value: LinkChanges[K] | undefined) => {
    if (value !== undefined) out[key] = value
  }
  set('title', body.title)
  set('description', body.description)
  set('amount', body.amount)
  set('amountMin', body.amount_min)
  set('amountMax', body.amount_max)
  set('invoiceId', body.invoice_id)
  const items = body.invoice_items
  set(
    'invoiceItems',
    items
      ? items.map((i) => ({
          description: i.description,
          quantity: i.quantity,
          unitPrice: i.unit_price,
        }))
      : items,
  )
  const cart = body.line_items
  set(
    'lineItems',
    cart
      ? cart.map((l) => ({
          productId: l.product_id,
          quantity: l.quantity,
          adjustable: l.adjustable_quantity ?? null,
        }))
      : cart,
  )
  set('maxPayments', body.max_payments)
  set('expiresAt', body.expires_at)
  set('language', body.language)
  set('memo', body.memo)
  set('successMessage', body.success_message)
  set('successUrl', body.success_url)
  set('active', body.active)
  set('inactiveMessage', body.inactive_message)
  set(
    'partialMinAmount',
    body.allow_partial === undefined ? undefined : (body.allow_partial?.min_amount ?? null),
  )
  set('allowPromoCodes', body.allow_promo_codes)
  set('customerFee', body.customer_fee)
  set('metadata', body.metadata)
  set('customFields', body.custom_fields)
  return out
}

/** Parses a create-link body; `language` falls back to the configured default. */
export function parseCreateLink(
  body: unknown,
  opts: { now: number; defaultLanguage: Language },
): Parsed<LinkValues> {
  const parsed = parseBody(createLinkBody, body)
  if (!parsed.ok) return parsed
  const { metadata } = parsed.value
  return newLinkValues(
    { ...toValues(parsed.value), title: parsed.value.title, metadata: metadata ?? {} },
    opts,
  )
}

/** Parses an update body against the stored link and returns only the columns to change. */
export function parseLinkUpdate(
  link: Link,
  body: unknown,
  opts: { now: number },
): Parsed<LinkChanges> {
  const parsed = parseBody(updateLinkBody, body)
  if (!parsed.ok) return parsed
  return linkChanges(link, toValues(parsed.value), opts)
}
