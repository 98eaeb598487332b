/**
 * `/api/v1/promo-codes`: list, create, read and change promo codes. A code is never deleted (the
 * payments that used it name it): `active: false` switches it off.
 */
import type { Context } from 'hono'
import { Hono } from 'hono'
import { getPromoCode, listPromoCodes } from '../../data/promo-codes.js'
import type { AppEnv } from '../../deps.js'
import { auditPromoCodeResult } from '../../promo-codes/audit.js'
import {
  createPromoCodeFromBody,
  type PromoCodeResult,
  updatePromoCodeFromBody,
} from '../../promo-codes/service.js'
import { jsonBodyLimit, readJsonBody } from '../body.js'
import { apiError, invalidFields } from '../errors.js'
import { apiFieldMessages } from '../problem-messages.js'
import { parseQuery } from '../query.js'
import { limitLinkWrites } from '../rate-limit.js'
import { toPromoCodeObject } from './objects.js'
import { listPromoCodesQuery } from './schemas.js'

export const promoCodeApiRoutes = new Hono<AppEnv>()

const noSuchCode = (c: Context<AppEnv>) =>
  apiError(c, 404, 'not_found', 'No promo code has this id.')

/** Answers a create or update result: the code, or the error that explains why not. */
function answer(c: Context<AppEnv>, result: PromoCodeResult, created: boolean) {
  if (result.ok) {
    if (created) {
      const base = c.get('config').publicUrl.replace(/\/+$/, '')
      c.header('Location', `${base}/api/v1/promo-codes/${encodeURIComponent(result.promoCode.id)}`)
    }
    return c.json(toPromoCodeObject(result.promoCode), created ? 201 : 200)
  }
  if (result.kind === 'invalid')
    return invalidFields(c, 'invalid_body', apiFieldMessages(result.problems, 'a promo code'))
  if (result.kind === 'code_taken')
    return apiError(c, 409, 'promo_code_taken', 'Another promo code has this code.', {
      code: 'code is already another promo code (whatever its case)',
    })
  return noSuchCode(c)
}

promoCodeApiRoutes.get('/promo-codes', async (c) => {
  const query = parseQuery(c, listPromoCodesQuery)
  if (!query.ok) return invalidFields(c, 'invalid_query', query.fields)
  const { limit, cursor, active } = query.value
  const page = await listPromoCodes(c.get('db'), {
    ...(limit !== undefined ? { limit } : {}),
    ...(cursor ? { cursor } : {}),
    ...(active !== undefined ? { active } : {}),
  })
  return c.json({
    data: page.items.map(toPromoCodeObject),
    has_more: page.nextCursor !== null,
    next_cursor: page.nextCursor,
  })
})

promoCodeApiRoutes.post('/promo-codes', limitLinkWrites(), jsonBodyLimit(), async (c) => {
  const body = await readJsonBody(c)
  if (!body.ok) return body.response
  const result = await createPromoCodeFromBody(c.var, body.body)
  await auditPromoCodeResult(c, result, body.body)
  return answer(c, result, true)
})

promoCodeApiRoutes.get('/promo-codes/:id', async (c) => {
  const row = await getPromoCode(c.get('db'), c.req.param('id'))
  return row ? c.json(toPromoCodeObject(row)) : noSuchCode(c)
})

promoCodeApiRoutes.patch('/promo-codes/:id', limitLinkWrites(), jsonBodyLimit(), async (c) => {
  const body = await readJsonBody(c)
  if (!body.ok) return body.response
  const result = await updatePromoCodeFromBody(c.var, c.req.param('id'), body.body)
  await auditPromoCodeResult(c, result, body.body)
  return answer(c, result, false)
})
