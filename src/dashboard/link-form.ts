/**
 * The dashboard's link form: what the browser posts (all text), how a stored link fills it, and
 * how it maps onto the create/update body of the merchant API, so both go through the same rules.
 * Amounts are read from decimal text into centimes (never parseFloat) and sent as DZD numbers.
 */
import type { Language, Link } from '../../db/schema.js'
import { parseAlgiersDateTime, toAlgiersDateTimeInput } from '../domain/algiers-time.js'
import { CUSTOM_FIELD_TYPES, type CustomField } from '../domain/order.js'
import { storedDzdText } from '../domain/stored-amount.js'
import { isShowableTime } from '../domain/stored-time.js'
import { isLanguage } from '../i18n/index.js'
import { centimesToDzdNumber, parseDzd } from '../lib/money.js'
import type { MessageParams } from '../lib/translate.js'
import type { DashKey } from './messages.js'

export const PRICINGS = ['fixed', 'open', 'items', 'cart'] as const
export type Pricing = (typeof PRICINGS)[number]

/** The form as posted: text fields, the pricing choice and the active checkbox. */
export type LinkForm = {
  title: string
  description: string
  pricing: Pricing
  amount: string
  invoice_id: string
  amount_min: string
  amount_max: string
  items: string
  max_payments: string
  expires_at: string
  language: string
  memo: string
  success_message: string
  success_url: string
  active: boolean
  inactive_message: string
  /** Deposits: the least part (DZD text); empty: paid in one payment. */
  partial_min_amount: string
  /** The custom fields, one per line: `key | label | type | required | option; option`. */
  custom_fields: string
  /** A cart: by product id, the quantity and the customer's range as typed (`cart_qty_<id>`…). */
  cart: Record<string, CartEntry>
  /** Promo codes taken, and the customer's fee passed on (checkboxes). */
  allow_promo_codes: boolean
  customer_fee: boolean
}

/** One product's row of the cart table, as typed: empty min and max make the quantity fixed. */
export type CartEntry = { qty: string; min: string; max: string }

/**
 * A problem with a form field, translated when the page is rendered. `inner` is a problem shown
 * inside this one (an item's rule inside "Line 3: …"), filling its `{message}`.
 */
export type FieldProblem = {
  key: DashKey
  params?: MessageParams
  inner?: FieldProblem
}
export type FormProblems = Record<string, FieldProblem>

const TEXT_FIELDS = [
  'title',
  'description',
  'amount',
  'invoice_id',
  'amount_min',
  'amount_max',
  'items',
  'max_payments',
  'expires_at',
  'language',
  'memo',
  'success_message',
  'success_url',
  'inactive_message',
  'partial_min_amount',
  'custom_fields',
] as const

// Far above every field's own limit: long enough for the rules to name the limit, short enough
// that a page echoing it back stays small.
const ECHO_LIMIT = 20_000

/** Reads the posted form; anything missing or not text becomes an empty string. */
export function readLinkForm(form: Record<string, unknown>): LinkForm {
  const text = (v: unknown) => (typeof v === 'string' ? v.slice(0, ECHO_LIMIT) : '')
  const out = Object.fromEntries(TEXT_FIELDS.map((k) => [k, text(form[k])])) as Omit<
    LinkForm,
    'pricing' | 'active' | 'cart' | 'allow_promo_codes' | 'customer_fee'
  >
  const pricing = PRICINGS.find((p) => p === form.pricing) ?? 'fixed'
  const checked = (v: unknown) => v !== undefined && v !== ''
  return {
    ...out,
    pricing,
    active: checked(form.active),
    cart: readCart(form),
    allow_promo_codes: checked(form.allow_promo_codes),
    customer_fee: checked(form.customer_fee),
  }
}

// More rows than a cart may hold lines, yet bounded: the form lists the catalogue's products.
const CART_ROWS_READ = 200

/** The cart table's rows, by product id: `cart_qty_<id>`, `cart_min_<id>`, `cart_max_<id>`. */
function readCart(form: Record<string, unknown>): Record<string, CartEntry> {
  const cart: Record<string, CartEntry> = Object.create(null)
  const text = (v: unknown) => (typeof v === 'string' ? v.trim().slice(0, 12) : '')
  let rows = 0
  for (const key of Object.keys(form)) {
    const id = /^cart_qty_([\w-]{1,100})$/.exec(key)?.[1]
    if (!id || rows++ >= CART_ROWS_READ) continue
    cart[id] = {
      qty: text(form[key]),
      min: text(form[`cart_min_${id}`]),
      max: text(form[`cart_max_${id}`]),
    }
  }
  return cart
}

/** An empty form for a new link. */
export function newLinkForm(language: Language): LinkForm {
  return {
    ...(Object.fromEntries(TEXT_FIELDS.map((k) => [k, ''])) as Omit<
      LinkForm,
      'pricing' | 'active' | 'cart' | 'allow_promo_codes' | 'customer_fee'
    >),
    pricing: 'fixed',
    language,
    active: true,
    cart: {},
    allow_promo_codes: false,
    customer_fee: false,
  }
}

/** The form a stored link shows in its edit page. */
export function linkToForm(link: Link): LinkForm {
  const dzd = (c: number | null) => (c === null ? '' : storedDzdText(c))
  const items = link.invoiceItems ?? []
  return {
    title: link.title,
    description: link.description ?? '',
    pricing: link.lineItems
      ? 'cart'
      : link.invoiceItems
        ? 'items'
        : link.amount !== null
          ? 'fixed'
          : 'open',
    amount: link.invoiceItems || link.lineItems ? '' : dzd(link.amount),
    invoice_id: link.invoiceItems ? '' : (link.invoiceId ?? ''),
    amount_min: dzd(link.amountMin),
    amount_max: dzd(link.amountMax),
    items: items
      .map((i) => `${i.description} | ${i.quantity} | ${storedDzdText(i.unitPrice)}`)
      .join('\n'),
    max_payments: link.maxPayments === null ? '' : String(link.maxPayments),
    expires_at: isShowableTime(link.expiresAt) ? toAlgiersDateTimeInput(link.expiresAt) : '',
    language: link.language,
    memo: link.memo ?? '',
    success_message: link.successMessage ?? '',
    success_url: link.successUrl ?? '',
    active: link.active,
    inactive_message: link.inactiveMessage ?? '',
    partial_min_amount: dzd(link.partialMinAmount),
    custom_fields: fieldsText(link.customFields),
    cart: Object.fromEntries(
      (link.lineItems ?? []).map((l) => [
        l.productId,
        {
          qty: String(l.quantity),
          min: l.adjustable ? String(l.adjustable.min) : '',
          max: l.adjustable ? String(l.adjustable.max) : '',
        },
      ]),
    ),
    allow_promo_codes: link.allowPromoCodes,
    customer_fee: link.customerFee,
  }
}

// The words a custom field's line may use to say whether it must be answered, in any language.
const REQUIRED_WORDS = new Set(['required', 'obligatoire', 'إجباري', 'اجباري'])
const OPTIONAL_WORDS = new Set(['', 'optional', 'facultatif', 'اختياري'])

/** A link's custom fields as the form's lines. */
function fieldsText(fields: readonly CustomField[] | null): string {
  return (fields ?? [])
    .map((f) => {
      const cells = [f.key, f.label, f.type, f.required ? 'required' : 'optional']
      if (f.options) cells.push(f.options.join('; '))
      return cells.join(' | ')
    })
    .join('\n')
}

type FieldLine = {
  key: string
  label: string
  type: string
  required: boolean
  options?: string[]
}

/**
 * Reads the custom fields' lines (`key | label | type | required | option; option`; the last two
 * cells may be left out); `lines[i]` is the line number of field i. The API's rules then check
 * each field (src/api/custom-fields.ts).
 */
export function readFieldLines(text: string): {
  fields: FieldLine[]
  lines: number[]
  problem?: FieldProblem
} {
  const fields: FieldLine[] = []
  const lines: number[] = []
  for (const [index, row] of text.split(/\r?\n/).entries()) {
    if (row.trim() === '') continue
    const line = index + 1
    const [key = '', label = '', type = '', required = '', options = '', ...rest] = row
      .split('|')
      .map((cell) => cell.trim())
    const word = required.toLowerCase()
    const known = REQUIRED_WORDS.has(word) || OPTIONAL_WORDS.has(word)
    if (rest.length > 0 || !known || !(CUSTOM_FIELD_TYPES as readonly string[]).includes(type))
      return { fields, lines, problem: { key: 'errFieldLine', params: { line } } }
    const choices = options
      .split(';')
      .map((o) => o.trim())
      .filter((o) => o !== '')
    fields.push({
      key,
      label,
      type,
      required: REQUIRED_WORDS.has(word),
      ...(choices.length > 0 ? { options: choices } : {}),
    })
    lines.push(line)
  }
  return { fields, lines }
}

/** Centimes from what a person types: `1500`, `1 500,50`, `1299.5`; null when it is not an amount. */
export function readAmountText(text: string): number | null {
  let t = text.replace(/[\s\u00a0\u202f]/g, '')
  if (t.includes(',') && !t.includes('.')) t = t.replace(',', '.')
  return t === '' ? null : parseDzd(t)
}

type Item = { description: string; quantity: number; unit_price: number }

/** Reads `description | quantity | unit price` lines; `lines[i]` is the line number of item i. */
export function readItems(text: string): {
  items: Item[]
  lines: number[]
  problem?: FieldProblem
} {
  const items: Item[] = []
  const lines: number[] = []
  const rows = text.split(/\r?\n/)
  for (const [index, row] of rows.entries()) {
    if (row.trim() === '') continue
    const line = index + 1
    const parts = row.split('|')
    // The last two cells are the numbers, so a description may itself contain "|".
    const price = parts.length >= 3 ? readAmountText(parts[parts.length - 1]!) : null
    const quantity = parts[parts.length - 2]?.trim() ?? ''
    const description = parts.slice(0, -2).join('|').trim()
    if (price === null || !/^\d{1,9}$/.test(quantity) || description === '') {
      return { items, lines, problem: { key: 'errItemLine', params: { line } } }
    }
    items.push({ description, quantity: Number(quantity), unit_price: centimesToDzdNumber(price) })
    lines.push(line)
  }
  return { items, lines }
}

const PRICING_KEYS = [
  'amount',
  'invoice_id',
  'amount_min',
  'amount_max',
  'invoice_items',
  'line_items',
] as const

/**
 * The cart table as line items: each product given a quantity (empty or 0 with no range: not in
 * the cart); a min and a max make the quantity the customer's to choose. Text that is not a whole
 * number is the form's problem; the rules (range, products) are the service's.
 */
function cartLines(cart: Record<string, CartEntry>, problems: FormProblems) {
  const whole = (v: string) => (/^\d{1,6}$/.test(v) ? Number(v) : null)
  const lines: Array<Record<string, unknown>> = []
  for (const [id, row] of Object.entries(cart)) {
    const ranged = row.min !== '' || row.max !== ''
    if (!ranged && (row.qty === '' || row.qty === '0')) continue
    const qty = row.qty === '' ? (ranged ? whole(row.min) : null) : whole(row.qty)
    const min = ranged ? whole(row.min === '' ? '0' : row.min) : null
    const max = ranged ? whole(row.max) : null
    if (qty === null || (ranged && (min === null || max === null))) {
      problems.cart = { key: 'errWhole' }
      continue
    }
    lines.push({
      product_id: id,
      quantity: qty,
      adjustable_quantity: ranged ? { min, max } : null,
    })
  }
  if (lines.length === 0 && !problems.cart) problems.cart = { key: 'errCartNone' }
  return lines
}

/** Every field of the body the form stands for; an empty optional field is null. */
function fullBody(
  form: LinkForm,
  problems: FormProblems,
  itemLines: number[],
  fieldLines: number[] = [],
) {
  const optional = (v: string) => (v.trim() === '' ? null : v)
  const money = (field: 'amount' | 'amount_min' | 'amount_max', required: boolean) => {
    const text = form[field]
    if (text.trim() === '') {
      if (required) problems[field] = { key: 'errRequired' }
      return null
    }
    const centimes = readAmountText(text)
    if (centimes === null) problems[field] = { key: 'errAmountText' }
    return centimes === null ? null : centimesToDzdNumber(centimes)
  }
  const body: Record<string, unknown> = {
    title: form.title,
    description: optional(form.description),
    amount: null,
    invoice_id: null,
    amount_min: null,
    amount_max: null,
    invoice_items: null,
    line_items: null,
  }
  if (form.pricing === 'cart') {
    body.line_items = cartLines(form.cart, problems)
  } else if (form.pricing === 'fixed') {
    body.amount = money('amount', true)
    body.invoice_id = optional(form.invoice_id)
  } else if (form.pricing === 'open') {
    body.amount_min = money('amount_min', false)
    body.amount_max = money('amount_max', false)
  } else {
    const read = readItems(form.items)
    if (read.problem) problems.items = read.problem
    else if (read.items.length === 0) problems.items = { key: 'errItemsNone' }
    body.invoice_items = read.items
    itemLines.push(...read.lines)
  }
  const max = form.max_payments.trim()
  if (max !== '' && !/^\d{1,9}$/.test(max)) problems.max_payments = { key: 'errWhole' }
  body.max_payments = max === '' || problems.max_payments ? null : Number(max)
  const expires = form.expires_at.trim()
  const at = expires === '' ? null : parseAlgiersDateTime(expires)
  if (expires !== '' && at === null) problems.expires_at = { key: 'errDateTime' }
  body.expires_at = at === null ? null : new Date(at).toISOString()
  if (!isLanguage(form.language)) problems.language = { key: 'errLanguage' }
  body.language = form.language
  body.memo = optional(form.memo)
  body.success_message = optional(form.success_message)
  body.success_url = optional(form.success_url)
  body.active = form.active
  body.inactive_message = optional(form.inactive_message)
  // Deposits: sent as `allow_partial`, whose rules say which pricings take it.
  const partial = form.partial_min_amount.trim()
  const least = partial === '' ? null : readAmountText(partial)
  if (partial !== '' && least === null) problems.partial_min_amount = { key: 'errAmountText' }
  body.allow_partial = least === null ? null : { min_amount: centimesToDzdNumber(least) }
  const questions = readFieldLines(form.custom_fields)
  if (questions.problem) problems.custom_fields = questions.problem
  body.custom_fields = questions.fields
  fieldLines.push(...questions.lines)
  body.allow_promo_codes = form.allow_promo_codes
  body.customer_fee = form.customer_fee
  return body
}

export type MappedForm = {
  /** The create or update body for src/links/service.ts. */
  body: Record<string, unknown>
  /** Problems found before the body's own rules ran (text that is not a number, a bad line). */
  problems: FormProblems
  /** The form line of each invoice item, to place item errors. */
  itemLines: number[]
  /** The form line of each custom field, to place its errors. */
  fieldLines: number[]
}

/**
 * Maps the form to a create body (`previous` absent: empty fields left out) or to an update body
 * holding only what differs from `previous`, the form the stored link showed. Pricing fields go
 * together: naming one sends all five, so no stored pricing survives by accident, and unchanged
 * invoice items are not sent (sending them would create a new gateway invoice).
 */
export function formToBody(form: LinkForm, previous?: LinkForm): MappedForm {
  const problems: FormProblems = {}
  const itemLines: number[] = []
  const fieldLines: number[] = []
  const full = fullBody(form, problems, itemLines, fieldLines)
  if (!previous) {
    // A new link leaves out what is empty (no questions asked is no custom_fields), and the promo
    // code and fee boxes left unticked (the default).
    const unticked = (k: string, v: unknown) =>
      v === false && (k === 'allow_promo_codes' || k === 'customer_fee')
    const empty = (v: unknown) => v === null || (Array.isArray(v) && v.length === 0)
    const body = Object.fromEntries(
      Object.entries(full).filter(([k, v]) => !empty(v) && !unticked(k, v)),
    )
    return { body, problems, itemLines, fieldLines }
  }
  const before = fullBody(previous, {}, [])
  const same = (k: string) => JSON.stringify(full[k]) === JSON.stringify(before[k])
  const body: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(full)) {
    if (!(PRICING_KEYS as readonly string[]).includes(k) && !same(k)) body[k] = v
  }
  if (!PRICING_KEYS.every(same)) for (const k of PRICING_KEYS) body[k] = full[k]
  return { body, problems, itemLines, fieldLines }
}
