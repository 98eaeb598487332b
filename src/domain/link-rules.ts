/**
 * Rules that span several fields of a link: the fields a body named, as column values (centimes,
 * epoch milliseconds), in; the link's columns or the problem of each bad field out. Reading a
 * body into those values is src/api/links/input.ts.
 */
import type { InvoiceItem, Language, Link } from '../../db/schema.js'
import { MAX_AMOUNT, MIN_AMOUNT } from './amount-bounds.js'
import { cartLineProblems } from './cart.js'
import { isInvoiceLink } from './link-status.js'
import type { Metadata, MetadataPatch } from './metadata.js'
import type { CustomField, LinkLineItem } from './order.js'
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
  /** A cart: the products sold and their quantities; its amount is priced from the catalogue. */
  lineItems?: LinkLineItem[] | null
  maxPayments: number | null
  expiresAt: number | null
  language: Language
  memo: string | null
  successMessage: string | null
  successUrl: string | null
  active: boolean
  inactiveMessage: string | null
  /** A deposit link's least part (`allow_partial.min_amount`); null: paid in one payment. */
  partialMinAmount?: number | null
  /** Promo codes: whether the customer may enter one, and whether they pay the card's fee. */
  allowPromoCodes?: boolean
  customerFee?: boolean
  /** None (`{}`, the column's default) when left out. */
  metadata?: Metadata
  /** The questions the customer answers (src/domain/custom-fields.ts); null for none. */
  customFields?: CustomField[] | null
}

/**
 * The columns an update changes. Its `metadata` is a change merged into the stored keys by the
 * UPDATE itself (src/data/links.ts), not the new value.
 */
export type LinkChanges = Partial<Omit<LinkValues, 'metadata'>> & { metadata?: MetadataPatch }

export type Parsed<T> = { ok: true; value: T } | { ok: false; problems: FieldProblems }

type Pricing = Required<
  Pick<
    LinkValues,
    'amount' | 'amountMin' | 'amountMax' | 'invoiceId' | 'invoiceItems' | 'lineItems'
  >
>
type PricingKey = keyof Pricing
const PRICING_KEYS: readonly PricingKey[] = [
  'amount',
  'amountMin',
  'amountMax',
  'invoiceId',
  'invoiceItems',
  'lineItems',
]

// Which stored pricing fields survive when an update names another one: an invoice id keeps its
// amount, an open range keeps its other bound; everything else is replaced.
const COMPATIBLE: Record<PricingKey, readonly PricingKey[]> = {
  amount: ['invoiceId'],
  invoiceId: ['amount'],
  amountMin: ['amountMax'],
  amountMax: ['amountMin'],
  invoiceItems: [],
  lineItems: [],
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
    lineItems: null,
  }
  const refuse = (keys: PricingKey[], code: ProblemCode) => {
    for (const k of keys) if (has(k)) problems[SNAKE[k]] = { code }
  }
  if (p.lineItems) {
    // A cart's amount is its products' price × quantity, priced by the caller from the catalogue
    // (src/links/service.ts); any other price given with it is refused.
    refuse(
      ['amount', 'amountMin', 'amountMax', 'invoiceId', 'invoiceItems'],
      'line_items_with_pricing',
    )
    Object.assign(problems, cartLineProblems(p.lineItems))
    return { ...none, lineItems: p.lineItems }
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
  lineItems: 'line_items',
}

/**
 * Deposits (`allow_partial`): only on a fixed or invoice link (an open amount has no balance), a
 * least part from the card minimum up to less than the amount, and no `max_payments` — a deposit
 * link takes parts until it is paid in full (`paid_total` reaches the amount), however many.
 */
function checkPartial(
  partialMin: number | null,
  amount: number | null,
  maxPayments: number | null | undefined,
  problems: FieldProblems,
) {
  if (partialMin === null) return
  if (amount === null) {
    problems.allow_partial = { code: 'partial_needs_amount' }
    return
  }
  if (partialMin < MIN_AMOUNT) problems['allow_partial.min_amount'] = TOO_LOW
  else if (partialMin >= amount)
    problems['allow_partial.min_amount'] = { code: 'partial_min_too_high' }
  if (maxPayments != null) problems.max_payments = { code: 'partial_with_max_payments' }
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
      lineItems: v.lineItems ?? null,
    },
    problems,
  )
  const partialMin = v.partialMinAmount ?? null
  if (!problems.amount && !problems.invoice_items)
    checkPartial(partialMin, pricing.amount, v.maxPayments, problems)
  checkExpiry(v.expiresAt, opts.now, problems)
  if (Object.keys(problems).length > 0) return { ok: false, problems }
  const maxPayments =
    partialMin !== null
      ? null
      : v.maxPayments !== undefined
        ? v.maxPayments
        : isInvoiceLink(pricing)
          ? 1
          : null
  // A link that sells no products leaves the column to its default (null), as before carts.
  const { lineItems, ...price } = pricing
  return {
    ok: true,
    value: {
      title: v.title,
      description: v.description ?? null,
      ...price,
      ...(lineItems ? { lineItems } : {}),
      // An invoice is paid once: a customer who opens its link again must not pay it twice. A
      // merchant who wants more says so (a number, or null for no limit). A deposit link has none.
      maxPayments,
      expiresAt: v.expiresAt ?? null,
      language: v.language ?? opts.defaultLanguage,
      memo: v.memo ?? null,
      successMessage: v.successMessage ?? null,
      successUrl: v.successUrl ?? null,
      active: v.active ?? true,
      inactiveMessage: v.inactiveMessage ?? null,
      partialMinAmount: partialMin,
      allowPromoCodes: v.allowPromoCodes ?? false,
      customerFee: v.customerFee ?? false,
      metadata: v.metadata ?? {},
      // Only when asked: a link without questions keeps the column's default (none).
      ...(v.customFields ? { customFields: v.customFields } : {}),
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
    lineItems: null,
  }
  if (link.lineItems) return { ...none, lineItems: link.lineItems }
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
  const partialMin =
    changes.partialMinAmount !== undefined ? changes.partialMinAmount : link.partialMinAmount
  if (partialMin !== null && Object.keys(problems).length === 0) {
    if (link.source === 'till' && changes.partialMinAmount != null)
      problems.allow_partial = { code: 'partial_not_for_till' }
    const amount = changes.amount !== undefined ? changes.amount : link.amount
    checkPartial(partialMin, amount, changes.maxPayments, problems)
    // Turning deposits on clears the stored limit of payments (an invoice's 1 among them).
    if (changes.maxPayments === undefined && link.maxPayments !== null) changes.maxPayments = null
  }
  checkExpiry(changes.expiresAt, opts.now, problems)
  if (Object.keys(problems).length > 0) return { ok: false, problems }
  return { ok: true, value: changes }
}
