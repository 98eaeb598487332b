/**
 * Rules that span several fields of a link: the fields a body named, as column values (centimes,
 * epoch milliseconds), in; the link's columns or the problem of each bad field out. Reading a
 * body into those values is src/api/links/input.ts.
 */
import type { InvoiceItem, Language, Link } from '../../db/schema.js'
import { MAX_AMOUNT, MIN_AMOUNT } from './amount-bounds.js'
import { isInvoiceLink } from './link-status.js'
import type { Metadata, MetadataPatch } from './metadata.js'
import type { FieldProblems, ProblemCode } from './problems.js'

/** The columns of a link a merchant decides (everything but id, slug and timestamps). */
export type LinkValues = {
  title: string
  description: string | null
  amount: number | null
  amountMin: number | null
  amountMax: number | null
  invoiceId: string | null
  invoiceItems: InvoiceItem[] | null
  maxPayments: number | null
  expiresAt: number | null
  language: Language
  memo: string | null
  successMessage: string | null
  successUrl: string | null
  active: boolean
  inactiveMessage: string | null
  /** Promo codes: whether the customer may enter one, and whether they pay the card's fee. */
  allowPromoCodes?: boolean
  customerFee?: boolean
  /** None (`{}`, the column's default) when left out. */
  metadata?: Metadata
}

/**
 * The columns an update changes. Its `metadata` is a change merged into the stored keys by the
 * UPDATE itself (src/data/links.ts), not the new value.
 */
export type LinkChanges = Partial<Omit<LinkValues, 'metadata'>> & { metadata?: MetadataPatch }

export type Parsed<T> = { ok: true; value: T } | { ok: false; problems: FieldProblems }

type Pricing = Pick<LinkValues, 'amount' | 'amountMin' | 'amountMax' | 'invoiceId' | 'invoiceItems'>
type PricingKey = keyof Pricing
const PRICING_KEYS: readonly PricingKey[] = [
  'amount',
  'amountMin',
  'amountMax',
  'invoiceId',
  'invoiceItems',
]

// Which stored pricing fields survive when an update names another one: an invoice id keeps its
// amount, an open range keeps its other bound; everything else is replaced.
const COMPATIBLE: Record<PricingKey, readonly PricingKey[]> = {
  amount: ['invoiceId'],
  invoiceId: ['amount'],
  amountMin: ['amountMax'],
  amountMax: ['amountMin'],
  invoiceItems: [],
}

/** The total of invoice items in centimes. */
export function itemsTotal(items: readonly InvoiceItem[]): number {
  return items.reduce((sum, item) => sum + item.quantity * item.unitPrice, 0)
}

const TOO_LOW = { code: 'amount_too_low', params: { min: MIN_AMOUNT } } as const

/** Checks that the pricing is exactly one of fixed, open, invoice id or items; fills derived fields. */
function resolvePricing(p: Pricing, problems: FieldProblems): Pricing {
  const has = (k: PricingKey) => p[k] !== null
  const none = {
    amount: null,
    amountMin: null,
    amountMax: null,
    invoiceId: null,
    invoiceItems: null,
  }
  const refuse = (keys: PricingKey[], code: ProblemCode) => {
    for (const k of keys) if (has(k)) problems[SNAKE[k]] = { code }
  }
  if (p.invoiceItems) {
    refuse(['amount'], 'amount_with_items')
    refuse(['amountMin', 'amountMax'], 'range_with_items')
    refuse(['invoiceId'], 'invoice_id_with_items')
    const total = itemsTotal(p.invoiceItems)
    if (total < MIN_AMOUNT)
      problems.invoice_items = { code: 'items_total_too_low', params: { min: MIN_AMOUNT } }
    if (total > MAX_AMOUNT)
      problems.invoice_items = { code: 'items_total_too_high', params: { max: MAX_AMOUNT } }
    return { ...none, invoiceItems: p.invoiceItems, amount: total }
  }
  if (has('amount') || has('invoiceId')) {
    refuse(['amountMin', 'amountMax'], 'range_with_amount')
    if (p.amount === null) problems.amount = { code: 'invoice_amount_required' }
    else if (p.amount < MIN_AMOUNT) problems.amount = TOO_LOW
    return { ...none, amount: p.amount, invoiceId: p.invoiceId }
  }
  if (has('amountMin') || has('amountMax')) {
    const min = p.amountMin ?? MIN_AMOUNT
    if (min < MIN_AMOUNT) problems.amount_min = TOO_LOW
    if (p.amountMax !== null && p.amountMax < MIN_AMOUNT) problems.amount_max = TOO_LOW
    else if (p.amountMax !== null && p.amountMax < min)
      problems.amount_max = { code: 'max_below_min' }
    return { ...none, amountMin: min, amountMax: p.amountMax }
  }
  problems.amount = { code: 'pricing_required' }
  return none
}

const SNAKE: Record<PricingKey, string> = {
  amount: 'amount',
  amountMin: 'amount_min',
  amountMax: 'amount_max',
  invoiceId: 'invoice_id',
  invoiceItems: 'invoice_items',
}

function checkExpiry(expiresAt: number | null | undefined, now: number, problems: FieldProblems) {
  if (expiresAt != null && expiresAt <= now) problems.expires_at = { code: 'not_future' }
}

/**
 * A new link's columns from the fields its create body named (`title` always); `language` falls
 * back to the configured default.
 */
export function newLinkValues(
  v: Partial<LinkValues> & { title: string },
  opts: { now: number; defaultLanguage: Language },
): Parsed<LinkValues> {
  const problems: FieldProblems = {}
  const pricing = resolvePricing(
    {
      amount: v.amount ?? null,
      amountMin: v.amountMin ?? null,
      amountMax: v.amountMax ?? null,
      invoiceId: v.invoiceId ?? null,
      invoiceItems: v.invoiceItems ?? null,
    },
    problems,
  )
  checkExpiry(v.expiresAt, opts.now, problems)
  if (Object.keys(problems).length > 0) return { ok: false, problems }
  return {
    ok: true,
    value: {
      title: v.title,
      description: v.description ?? null,
      ...pricing,
      // An invoice is paid once: a customer who opens its link again must not pay it twice. A
      // merchant who wants more says so (a number, or null for no limit).
      maxPayments: v.maxPayments !== undefined ? v.maxPayments : isInvoiceLink(pricing) ? 1 : null,
      expiresAt: v.expiresAt ?? null,
      language: v.language ?? opts.defaultLanguage,
      memo: v.memo ?? null,
      successMessage: v.successMessage ?? null,
      successUrl: v.successUrl ?? null,
      active: v.active ?? true,
      inactiveMessage: v.inactiveMessage ?? null,
      allowPromoCodes: v.allowPromoCodes ?? false,
      customerFee: v.customerFee ?? false,
      metadata: v.metadata ?? {},
    },
  }
}

/** A stored link's pricing as the merchant would have written it (items imply their total). */
function storedPricing(link: Link): Pricing {
  const none = {
    amount: null,
    amountMin: null,
    amountMax: null,
    invoiceId: null,
    invoiceItems: null,
  }
  if (link.invoiceItems) return { ...none, invoiceItems: link.invoiceItems }
  if (link.invoiceId !== null) return { ...none, invoiceId: link.invoiceId, amount: link.amount }
  if (link.amount !== null) return { ...none, amount: link.amount }
  return { ...none, amountMin: link.amountMin, amountMax: link.amountMax }
}

/**
 * The fields an update body named, checked against the stored link: only the columns to change.
 * Naming any pricing field replaces the pricing fields it cannot stand with (see COMPATIBLE), and
 * the result must again be exactly one kind of pricing; new invoice items drop the stored invoice id.
 */
export function linkChanges(
  link: Link,
  changes: LinkChanges,
  opts: { now: number },
): Parsed<LinkChanges> {
  const problems: FieldProblems = {}
  const named = PRICING_KEYS.filter((k) => k in changes)
  if (named.length > 0) {
    const merged = storedPricing(link)
    for (const k of PRICING_KEYS) {
      if (k in changes) (merged as Record<PricingKey, unknown>)[k] = changes[k]
      else if (named.some((n) => !COMPATIBLE[n].includes(k))) merged[k] = null
    }
    Object.assign(changes, resolvePricing(merged, problems))
  }
  checkExpiry(changes.expiresAt, opts.now, problems)
  if (Object.keys(problems).length > 0) return { ok: false, problems }
  return { ok: true, value: changes }
}
