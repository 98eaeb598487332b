/**
 * Promo codes in the dashboard (/dashboard/promo-codes): the list, a new code, a code's page (its
 * form, switching it off and on). The form goes through the merchant API's service, so a code
 * made here obeys exactly the API's rules. A code is never deleted: payments name it.
 */
import { Hono } from 'hono'
import type { PromoCode } from '../../db/schema.js'
import { PromoCodeFormPage, PromoCodesPage } from '../../views/dashboard/promo-codes-page.js'
import { createPromoCodeBody, parsePromoCodeBody } from '../api/promo-codes/schemas.js'
import { decodeCursor } from '../data/paging.js'
import { getPromoCode, listPromoCodes } from '../data/promo-codes.js'
import { readForm } from '../lib/form-body.js'
import { auditPromoCodeResult } from '../promo-codes/audit.js'
import {
  createPromoCodeFromBody,
  type PromoCodeResult,
  updatePromoCodeFromBody,
} from '../promo-codes/service.js'
import { promoCodeNotFoundPage } from '../routes/error-pages.js'
import { type DashC, type DashEnv, dashContext } from './context.js'
import type { FormProblems } from './link-form.js'
import { translateProblems } from './link-form-routes.js'
import type { DashKey } from './messages.js'
import {
  newPromoCodeForm,
  type PromoCodeForm,
  placePromoCodeProblems,
  promoCodeFormToBody,
  promoCodeToForm,
  readPromoCodeForm,
} from './promo-code-form.js'

export const promoCodeRoutes = new Hono<DashEnv>()

const PAGE_SIZE = 50
const LIST = '/dashboard/promo-codes'

// What a redirect after a change asks the next page to say (`?done=saved`).
const DONE: Record<string, DashKey> = {
  created: 'pcCreated',
  saved: 'pcSaved',
  deactivated: 'pcDeactivated',
  activated: 'pcActivated',
}

const doneNotice = (c: DashC) => {
  const key = DONE[c.req.query('done') ?? '']
  return key ? c.get('dt')(key) : undefined
}

promoCodeRoutes.get('/promo-codes', async (c) => {
  const cursorText = c.req.query('cursor')
  const cursor = cursorText ? (decodeCursor(cursorText) ?? undefined) : undefined
  const page = await listPromoCodes(c.get('db'), {
    limit: PAGE_SIZE,
    ...(cursor ? { cursor } : {}),
  })
  return c.html(
    <PromoCodesPage
      ctx={dashContext(c)}
      codes={page.items}
      now={c.get('clock')()}
      nextHref={page.nextCursor ? `${LIST}?cursor=${encodeURIComponent(page.nextCursor)}` : null}
      firstHref={cursor ? LIST : null}
      notice={doneNotice(c)}
    />,
  )
})

type FormState = { form: PromoCodeForm; problems?: FormProblems; code?: PromoCode }

function renderForm(c: DashC, status: 200 | 400, state: FormState) {
  const ctx = dashContext(c)
  const text = doneNotice(c)
  return c.html(
    <PromoCodeFormPage
      ctx={ctx}
      form={state.form}
      errors={translateProblems(state.problems ?? {}, ctx.t)}
      code={state.code}
      notice={text && status === 200 ? text : undefined}
    />,
    status,
  )
}

/** The outcome of the service: on to the code's page, or the form again with its errors. */
function afterSave(
  c: DashC,
  result: PromoCodeResult,
  form: PromoCodeForm,
  done: 'created' | 'saved',
  existing?: PromoCode,
) {
  if (result.ok) return c.redirect(`${LIST}/${result.promoCode.id}?done=${done}`, 303)
  if (result.kind === 'not_found') return promoCodeNotFoundPage(c)
  const problems: FormProblems =
    result.kind === 'code_taken'
      ? { code: { key: 'pcErrCodeTaken' } }
      : placePromoCodeProblems(result.problems)
  return renderForm(c, 400, { form, problems, ...(existing ? { code: existing } : {}) })
}

promoCodeRoutes.get('/promo-codes/new', (c) => renderForm(c, 200, { form: newPromoCodeForm() }))

promoCodeRoutes.post('/promo-codes', async (c) => {
  const form = readPromoCodeForm(await readForm(c))
  const mapped = promoCodeFormToBody(form)
  if (Object.keys(mapped.problems).length > 0) {
    // Text that is not a number never reaches the service; the rules still run on the rest so
    // every other mistake is shown at once.
    const parsed = parsePromoCodeBody(createPromoCodeBody, mapped.body)
    const others = parsed.ok ? {} : placePromoCodeProblems(parsed.problems)
    return renderForm(c, 400, { form, problems: { ...others, ...mapped.problems } })
  }
  const result = await createPromoCodeFromBody(c.var, mapped.body)
  await auditPromoCodeResult(c, result, mapped.body)
  return afterSave(c, result, form, 'created')
})

const withCode =
  (handler: (c: DashC, code: PromoCode) => Response | Promise<Response>) => async (c: DashC) => {
    const code = await getPromoCode(c.get('db'), c.req.param('id') ?? '')
    return code ? handler(c, code) : promoCodeNotFoundPage(c)
  }

promoCodeRoutes.get(
  '/promo-codes/:id',
  withCode((c, code) => renderForm(c, 200, { form: promoCodeToForm(code), code })),
)

promoCodeRoutes.post(
  '/promo-codes/:id',
  withCode(async (c, code) => {
    const form = readPromoCodeForm(await readForm(c))
    const mapped = promoCodeFormToBody(form)
    if (Object.keys(mapped.problems).length > 0)
      return renderForm(c, 400, { form, code, problems: mapped.problems })
    // Only what the merchant changed is sent (and named in the audit log).
    const before = promoCodeFormToBody(promoCodeToForm(code)).body
    const body = Object.fromEntries(
      Object.entries(mapped.body).filter(
        ([k, v]) => JSON.stringify(v) !== JSON.stringify(before[k]),
      ),
    )
    if (Object.keys(body).length === 0) return c.redirect(`${LIST}/${code.id}?done=saved`, 303)
    const result = await updatePromoCodeFromBody(c.var, code.id, body)
    await auditPromoCodeResult(c, result, body)
    return afterSave(c, result, form, 'saved', code)
  }),
)

/** Switching off and on, through the same update as the API's `{"active": …}`. */
const setActive = (active: boolean) =>
  withCode(async (c, code) => {
    const body = { active }
    const result = await updatePromoCodeFromBody(c.var, code.id, body)
    await auditPromoCodeResult(c, result, body)
    if (!result.ok) return promoCodeNotFoundPage(c)
    return c.redirect(`${LIST}/${code.id}?done=${active ? 'activated' : 'deactivated'}`, 303)
  })

promoCodeRoutes.post('/promo-codes/:id/deactivate', setActive(false))
promoCodeRoutes.post('/promo-codes/:id/activate', setActive(true))
