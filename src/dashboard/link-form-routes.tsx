/**
 * Creating and editing links from the dashboard form. The form is mapped onto the merchant API's
 * body and goes through the same service, so a link made here obeys exactly the API's rules.
 */
import { Hono } from 'hono'
import type { Link } from '../../db/schema.js'
import { type CartChoice, LinkFormPage } from '../../views/dashboard/link-form-page.js'
import { parseCreateLink, parseLinkUpdate } from '../api/links/input.js'
import { cartProducts } from '../data/cart-products.js'
import type { Db } from '../data/db.js'
import { getLinkById } from '../data/links.js'
import { MAX_PAGE_SIZE } from '../data/paging.js'
import { listProducts } from '../data/products.js'
import type { FieldProblems } from '../domain/problems.js'
import { readForm } from '../lib/form-body.js'
import { auditLinkResult } from '../links/audit.js'
import { createLinkFromBody, type LinkResult, updateLinkFromBody } from '../links/service.js'
import { linkNotFoundPage } from '../routes/error-pages.js'
import { type DashC, type DashEnv, dashContext } from './context.js'
import {
  type FieldProblem,
  type FormProblems,
  formToBody,
  type LinkForm,
  linkToForm,
  type MappedForm,
  newLinkForm,
  readLinkForm,
} from './link-form.js'
import type { DashTranslate } from './messages.js'
import { PROBLEM_MESSAGES } from './problem-messages.js'

/**
 * Puts the rules' problems beside the form's fields, in the dashboard's own messages. An item's
 * problem (`invoice_items[1].quantity`) goes to the items box with its line (`itemLines[1]`), a
 * custom field's (`custom_fields[1].options`) to the fields' box with its line (`fieldLines[1]`).
 */
export function placeProblems(
  problems: FieldProblems,
  itemLines: readonly number[],
  fieldLines: readonly number[] = [],
): FormProblems {
  const out: FormProblems = {}
  for (const [path, problem] of Object.entries(problems)) {
    const field = path.startsWith('invoice_items')
      ? 'items'
      : path.startsWith('allow_partial')
        ? 'partial_min_amount'
        : path.startsWith('custom_fields')
          ? 'custom_fields'
          : path.startsWith('line_items')
            ? 'cart'
            : path
    if (out[field]) continue
    const shown: FieldProblem = { key: PROBLEM_MESSAGES[problem.code] }
    if (problem.params) shown.params = problem.params
    const item = /^invoice_items\[(\d+)\]\.\w+$/.exec(path)
    const question = /^custom_fields\[(\d+)\]\.\w+$/.exec(path)
    const line = item
      ? (itemLines[Number(item[1])] ?? Number(item[1]) + 1)
      : question
        ? (fieldLines[Number(question[1])] ?? Number(question[1]) + 1)
        : null
    out[field] = line === null ? shown : { key: 'errLine', params: { line }, inner: shown }
  }
  return out
}

/** Translates problems for a page: `{ amount: 'At least 50 DA.' }`. */
export function translateProblems(
  problems: FormProblems,
  t: DashTranslate,
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [field, { key, params, inner }] of Object.entries(problems)) {
    out[field] = t(key, inner ? { ...params, message: t(inner.key, inner.params) } : params)
  }
  return out
}

async function renderForm(
  c: DashC,
  status: 200 | 400 | 404 | 409 | 502,
  state: { form: LinkForm; problems?: FormProblems; link?: Link; alert?: string },
) {
  const ctx = dashContext(c)
  const products = await cartChoices(c.get('db'), state.form)
  return c.html(
    <LinkFormPage
      ctx={ctx}
      products={products}
      form={state.form}
      errors={translateProblems(state.problems ?? {}, ctx.t)}
      link={state.link ? { id: state.link.id, title: state.link.title } : undefined}
      alert={state.alert}
    />,
    status,
  )
}

/**
 * The products a cart may be made of: those on sale (newest first, a page of them), and those the
 * form already names (an archived one stays listed, so the merchant sees why it is refused).
 */
async function cartChoices(db: Db, form: LinkForm): Promise<CartChoice[]> {
  const onSale = await listProducts(db, { active: true, limit: MAX_PAGE_SIZE })
  const named = await cartProducts(db, Object.keys(form.cart))
  const out: CartChoice[] = onSale.items.map((p) => ({
    id: p.id,
    name: p.name,
    sku: p.sku,
    price: p.price,
    active: true,
  }))
  for (const p of named.values())
    if (!out.some((o) => o.id === p.id))
      out.push({ id: p.id, name: p.name, sku: p.sku, price: p.price, active: p.active })
  return out
}

/** Renders the outcome of the service: on to the link's page, or the form again with its errors. */
function afterSave(
  c: DashC,
  result: LinkResult,
  form: LinkForm,
  lines: Pick<MappedForm, 'itemLines' | 'fieldLines'>,
  done: 'created' | 'saved',
  existing?: Link,
) {
  if (result.ok) return c.redirect(`/dashboard/links/${result.link.id}?done=${done}`, 303)
  if (result.kind === 'not_found') return linkNotFoundPage(c)
  if (result.kind === 'checkout')
    return renderForm(c, 409, { form, link: existing, alert: c.get('dt')('linkIsCheckout') })
  if (result.kind === 'gateway') {
    return renderForm(c, 502, { form, link: existing, alert: c.get('dt')('gatewayError') })
  }
  return renderForm(c, 400, {
    form,
    link: existing,
    problems: placeProblems(result.problems, lines.itemLines, lines.fieldLines),
  })
}

export const linkFormRoutes = new Hono<DashEnv>()

linkFormRoutes.get('/links/new', (c) =>
  renderForm(c, 200, { form: newLinkForm(c.get('brand').current().defaultLanguage) }),
)

linkFormRoutes.post('/links', async (c) => {
  const form = readLinkForm(await readForm(c))
  const mapped = formToBody(form)
  if (Object.keys(mapped.problems).length > 0) {
    // Text that is not a number never reaches the service; the rules still run (they have no
    // side effects) so every other mistake is shown at once.
    const parsed = parseCreateLink(mapped.body, {
      now: c.get('clock')(),
      defaultLanguage: c.get('brand').current().defaultLanguage,
    })
    const others = parsed.ok
      ? {}
      : placeProblems(parsed.problems, mapped.itemLines, mapped.fieldLines)
    return renderForm(c, 400, { form, problems: { ...others, ...mapped.problems } })
  }
  const result = await createLinkFromBody(c.var, mapped.body)
  await auditLinkResult(c, result, mapped.body)
  return afterSave(c, result, form, mapped, 'created')
})

linkFormRoutes.get('/links/:id/edit', async (c) => {
  const link = await getLinkById(c.get('db'), c.req.param('id'))
  if (!link) return linkNotFoundPage(c)
  return renderForm(c, 200, { form: linkToForm(link), link })
})

linkFormRoutes.post('/links/:id', async (c) => {
  const link = await getLinkById(c.get('db'), c.req.param('id'))
  if (!link) return linkNotFoundPage(c)
  const form = readLinkForm(await readForm(c))
  // Only what the merchant changed is sent, so an untouched past expiry or unchanged invoice
  // items (which would create a new gateway invoice) are left alone.
  const mapped = formToBody(form, linkToForm(link))
  if (Object.keys(mapped.problems).length > 0) {
    const parsed = parseLinkUpdate(link, mapped.body, { now: c.get('clock')() })
    const others = parsed.ok
      ? {}
      : placeProblems(parsed.problems, mapped.itemLines, mapped.fieldLines)
    return renderForm(c, 400, { form, link, problems: { ...others, ...mapped.problems } })
  }
  if (Object.keys(mapped.body).length === 0) {
    return c.redirect(`/dashboard/links/${link.id}?done=saved`, 303)
  }
  const result = await updateLinkFromBody(c.var, link.id, mapped.body)
  await auditLinkResult(c, result, mapped.body)
  return afterSave(c, result, form, mapped, 'saved', link)
})
