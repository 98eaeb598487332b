/**
 * The dashboard's product form: what the browser posts (all text), how a stored product fills it,
 * and how it maps onto the create/update body of the merchant API, so both go through the same
 * rules. The price is read from decimal text into centimes (never parseFloat) and sent as DZD.
 */
import type { Product } from '../../db/schema.js'
import type { ProductFormValues } from '../../views/dashboard/product-form-page.js'
import type { FieldProblems } from '../domain/problems.js'
import { storedDzdText } from '../domain/stored-amount.js'
import { centimesToDzdNumber } from '../lib/money.js'
import { type FormProblems, readAmountText } from './link-form.js'
import { PROBLEM_MESSAGES } from './problem-messages.js'

export type ProductForm = ProductFormValues

const FIELDS = ['name', 'description', 'price', 'stock', 'sku'] as const

// Far above every field's own limit, short enough that a page echoing it back stays small.
const ECHO_LIMIT = 5_000

/** Reads the posted form; anything missing or not text becomes an empty string. */
export function readProductForm(form: Record<string, unknown>): ProductForm {
  const text = (v: unknown) => (typeof v === 'string' ? v.slice(0, ECHO_LIMIT) : '')
  return Object.fromEntries(FIELDS.map((k) => [k, text(form[k])])) as ProductForm
}

/** An empty form for a new product. */
export const newProductForm = (): ProductForm =>
  Object.fromEntries(FIELDS.map((k) => [k, ''])) as ProductForm

/** The form a stored product shows in its page. */
export function productToForm(product: Product): ProductForm {
  return {
    name: product.name,
    description: product.description ?? '',
    price: storedDzdText(product.price),
    stock: product.stock === null ? '' : String(product.stock),
    sku: product.sku ?? '',
  }
}

/**
 * Maps the form to the body of src/products/service.ts: every field (an empty stock is null,
 * unlimited), and the problems found before the body's rules run (a price or stock that is not
 * a number).
 */
export function productFormToBody(form: ProductForm): {
  body: Record<string, unknown>
  problems: FormProblems
} {
  const problems: FormProblems = {}
  let price: number | null = null
  if (form.price.trim() === '') problems.price = { key: 'errRequired' }
  else {
    const centimes = readAmountText(form.price)
    if (centimes === null) problems.price = { key: 'errAmountText' }
    else price = centimesToDzdNumber(centimes)
  }
  const stockText = form.stock.trim()
  if (stockText !== '' && !/^\d{1,10}$/.test(stockText)) problems.stock = { key: 'errWhole' }
  const body: Record<string, unknown> = {
    name: form.name,
    description: form.description,
    // A price already refused is sent as a valid one, so only the other fields' rules speak.
    price: price ?? 1,
    stock: stockText === '' || problems.stock ? null : Number(stockText),
    sku: form.sku,
  }
  return { body, problems }
}

/** The rules' problems beside the form's fields, in the dashboard's own messages. */
export function placeProductProblems(problems: FieldProblems): FormProblems {
  const out: FormProblems = {}
  for (const [field, problem] of Object.entries(problems)) {
    if (field === 'sku' && problem.code === 'invalid') {
      out.sku = { key: 'prErrSku' }
      continue
    }
    out[field] = problem.params
      ? { key: PROBLEM_MESSAGES[problem.code], params: problem.params }
      : { key: PROBLEM_MESSAGES[problem.code] }
  }
  return out
}
