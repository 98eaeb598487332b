/** The direct interface's services: operations, products, history and operation detail. */
import { type Context, Hono } from 'hono'
import { bodyTooLarge } from '../body-limit.js'
import { searchProducts } from '../catalog.js'
import type { SimContext } from '../context.js'
import { readGetBody } from '../get-body.js'
import { resolveSecretKey, secretKeyMessage } from '../merchants.js'
import { checkOperationBody, OPERATION_MESSAGES } from '../operation-rules.js'
import { directOperationJson, merchantOperations, recordOperation } from '../operations.js'
import type { Merchant } from '../state.js'
import { readJsonObject } from '../validation.js'
import { dzdText } from '../wire/amounts.js'
import { withFault } from './fault-middleware.js'

const error = (c: Context, message: string, status: 400 | 404 = 400) =>
  c.json({ status: 'error', message }, status)

/** Resolves `encrypted_sk` to a merchant, or the 400 answer to give. */
async function authenticate(
  ctx: SimContext,
  c: Context,
  value: unknown,
): Promise<Merchant | Response> {
  const result = await resolveSecretKey(ctx.state, ctx.config, value)
  return result.ok ? result.merchant : error(c, secretKeyMessage(result.reason))
}

const LIMIT_MAX = 100
const intParam = (text: string | undefined, fallback: number): number | null => {
  if (text === undefined || text === '') return fallback
  return /^\d+$/.test(text) ? Number(text) : null
}

/** The direct interface's service routes. */
export function directRoutes(ctx: SimContext): Hono {
  const app = new Hono()

  app.post('/services/operation_post', withFault(ctx, 'operation_post'), async (c) => {
    const body = await readJsonObject(c.req.raw)
    if (!body) return error(c, 'Invalid JSON')
    const merchant = await authenticate(ctx, c, body.encrypted_sk)
    if (merchant instanceof Response) return merchant
    const rules = checkOperationBody(body)
    if (!rules.ok) return error(c, rules.message)
    const op = recordOperation(ctx, merchant, rules.draft, 'direct')
    return c.json({
      status: 'success',
      message: OPERATION_MESSAGES[op.kind],
      operation_id: op.id,
      transaction_id: op.ledger.id,
      transaction_status: 'confirmed',
    })
  })

  app.get('/services/get_products/', withFault(ctx, 'get_products'), async (c) => {
    const got = await readGetBody(c)
    if (got.tooLarge) return bodyTooLarge(c)
    const raw = got.text
    let body: Record<string, unknown> = {}
    if (raw !== null && raw.trim() !== '') {
      try {
        const parsed: unknown = JSON.parse(raw)
        if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw 0
        body = parsed as Record<string, unknown>
      } catch {
        return error(c, 'Invalid JSON')
      }
    }
    // WHATWG fetch cannot send a body on GET: the query string stands in for it.
    const sk = body.encrypted_sk ?? c.req.query('encrypted_sk')
    const search = body.search ?? c.req.query('search')
    const merchant = await authenticate(ctx, c, sk)
    if (merchant instanceof Response) return merchant
    const products = searchProducts(typeof search === 'string' ? search : undefined)
      .filter((p) => p.price !== null)
      .map((p) => ({ name: p.name, price: dzdText(p.price!) }))
    return c.json({ status: 'success', count: products.length, products })
  })

  app.get('/services/operation-history/', withFault(ctx, 'operation-history'), async (c) => {
    const merchant = await authenticate(ctx, c, c.req.query('encrypted_sk'))
    if (merchant instanceof Response) return merchant
    const limit = intParam(c.req.query('limit'), 10)
    const offset = intParam(c.req.query('offset'), 0)
    if (limit === null || limit < 1 || limit > LIMIT_MAX)
      return error(c, `limit must be an integer from 1 to ${LIMIT_MAX}`)
    if (offset === null) return error(c, 'offset must be a non-negative integer')
    const all = merchantOperations(ctx, merchant.id)
    return c.json({
      status: 'success',
      data: {
        operations: all.slice(offset, offset + limit).map((op) => directOperationJson(ctx, op)),
        pagination: {
          total_count: all.length,
          limit,
          offset,
          has_more: offset + limit < all.length,
        },
      },
    })
  })

  for (const path of ['/services/operation-detail/:id/', '/services/operation-details/:id/']) {
    app.get(path, withFault(ctx, 'operation-detail'), async (c) => {
      const merchant = await authenticate(ctx, c, c.req.query('encrypted_sk'))
      if (merchant instanceof Response) return merchant
      const op = ctx.state.operations.get(c.req.param('id') ?? '')
      if (!op || op.merchantId !== merchant.id) return error(c, 'Operation not found', 404)
      return c.json({ status: 'success', data: directOperationJson(ctx, op) })
    })
  }

  return app
}
