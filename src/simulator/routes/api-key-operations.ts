/** `/v1` top-ups, bill payments and the operation history (card payments included as type `cib`). */
import { Hono } from 'hono'
import * as z from 'zod'
import { refreshAllSessions } from '../card/finish.js'
import { findProduct } from '../catalog.js'
import type { SimContext } from '../context.js'
import { apiKeyMerchant } from '../merchants.js'
import { type OperationDraft, recordOperation, v1OperationJson } from '../operations.js'
import { DAY_MS, parseDay } from '../time.js'
import { dzdAmount, firstIssue } from '../validation.js'
import { cibOperationJson } from './api-key-cib.js'
import { v1Body, v1Error } from './api-key-errors.js'
import { withFault } from './fault-middleware.js'

const phoneSchema = z.object({
  phone_number: z.string().regex(/^0[567]\d{8}$/, 'must be an Algerian mobile number of 10 digits'),
  operator: z.enum(['mobilis', 'djezzy', 'ooredoo']),
  amount: z.number().int('must be a whole number of DZD').min(50).max(100_000),
})
const internetSchema = z.object({
  subscription_number: z.string().regex(/^\d{6,12}$/, 'must be digits'),
  provider: z.enum(['idoom_adsl', 'idoom_4g', 'djaweb']),
  package_id: z.string().min(1),
})
const gameSchema = z.object({
  game_id: z.string().min(1),
  product_id: z.string().min(1),
  player_id: z.string().trim().min(1),
})
// BillPaymentRequest's fields are not documented: these names (and their aliases) are the simulator's.
const billSchema = z.object({
  biller: z.enum(['ade', 'sonelgaz', 'algerie_telecom']),
  bill_number: z.string().trim().min(1),
  amount: dzdAmount.refine((c) => c > 0, 'must be positive'),
})
const SUBSCRIPTION_DIGITS: Record<string, number> = { idoom_4g: 10, idoom_adsl: 9 }

type Check = { draft: OperationDraft } | { error: string }

function internetDraft(input: z.infer<typeof internetSchema>): Check {
  const product = findProduct(input.package_id)
  if (product?.category !== 'internet' || product.provider !== input.provider)
    return { error: `package_id: no ${input.provider} package ${input.package_id} in the catalog` }
  const digits = SUBSCRIPTION_DIGITS[input.provider]
  if (digits && input.subscription_number.length !== digits)
    return { error: `subscription_number: must be ${digits} digits for ${input.provider}` }
  return {
    draft: {
      kind: 'internet',
      operator: input.provider,
      offer: product.name,
      amount: product.price!,
      phone: input.subscription_number,
      details: { subscription_number: input.subscription_number, package_id: product.id },
    },
  }
}

function gameDraft(input: z.infer<typeof gameSchema>): Check {
  const product = findProduct(input.product_id)
  if (product?.category !== 'game')
    return { error: `product_id: no game product ${input.product_id}` }
  if (product.provider !== input.game_id)
    return { error: `product_id: ${input.product_id} is not a product of game ${input.game_id}` }
  return {
    draft: {
      kind: 'game',
      operator: input.game_id,
      offer: product.name,
      amount: product.price!,
      phone: null,
      details: { player_id: input.player_id, product_id: product.id },
    },
  }
}

const RECHARGES = {
  phone: { schema: phoneSchema, message: 'Phone recharge submitted successfully' },
  internet: { schema: internetSchema, message: 'Internet recharge completed successfully' },
  game: { schema: gameSchema, message: 'Game recharge completed successfully' },
  bill: { schema: billSchema, message: 'Bill payment completed successfully' },
} as const

function toDraft(kind: keyof typeof RECHARGES, data: Record<string, unknown>): Check {
  if (kind === 'internet') return internetDraft(data as z.infer<typeof internetSchema>)
  if (kind === 'game') return gameDraft(data as z.infer<typeof gameSchema>)
  if (kind === 'phone') {
    const input = data as z.infer<typeof phoneSchema>
    const phone = input.phone_number
    return {
      draft: {
        kind,
        operator: input.operator,
        offer: 'prepaid',
        amount: input.amount * 100,
        phone,
        details: { phone_number: phone },
      },
    }
  }
  const input = data as z.infer<typeof billSchema>
  return {
    draft: {
      kind,
      operator: input.biller,
      offer: input.biller,
      amount: input.amount,
      phone: null,
      details: { bill_number: input.bill_number },
    },
  }
}

const PATHS = {
  phone: '/recharge/phone',
  internet: '/recharge/internet',
  game: '/recharge/game',
  bill: '/bills/pay',
} as const
const TYPES = ['phone', 'internet', 'game', 'cib', 'bill']

/** The `/v1` operation routes. */
export function v1OperationRoutes(ctx: SimContext): Hono {
  const app = new Hono()

  for (const kind of ['phone', 'internet', 'game', 'bill'] as const) {
    app.post(PATHS[kind], withFault(ctx, `v1${PATHS[kind]}`), async (c) => {
      const body = await v1Body(c)
      if (body instanceof Response) return body
      if (kind === 'bill') body.biller ??= body.operator ?? body.provider
      if (kind === 'bill') body.bill_number ??= body.reference ?? body.bill
      const parsed = RECHARGES[kind].schema.safeParse(body)
      if (!parsed.success) return v1Error(c, 400, firstIssue(parsed.error, body))
      const check = toDraft(kind, parsed.data)
      if ('error' in check) return v1Error(c, 400, check.error)
      const op = recordOperation(ctx, apiKeyMerchant(ctx.state), check.draft, 'v1')
      const data = v1OperationJson(ctx, op)
      return c.json({
        success: true,
        message: RECHARGES[kind].message,
        operation_id: op.id,
        transaction_id: op.ledger.id,
        status: data.status,
        data,
      })
    })
  }

  app.get('/operations', withFault(ctx, 'v1/operations'), async (c) => {
    const q = c.req.query()
    const page = q.page === undefined ? 1 : Number(q.page)
    const perPage = q.per_page === undefined ? 20 : Number(q.per_page)
    if (!Number.isInteger(page) || page < 1)
      return v1Error(c, 400, 'page must be a positive integer')
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100)
      return v1Error(c, 400, 'per_page must be an integer from 1 to 100')
    if (q.type !== undefined && !TYPES.includes(q.type))
      return v1Error(c, 400, `type must be one of ${TYPES.join(', ')}`)
    const from = q.from === undefined ? null : parseDay(q.from)
    const to = q.to === undefined ? null : parseDay(q.to)
    if (from === null && q.from !== undefined)
      return v1Error(c, 400, 'from must be a date (YYYY-MM-DD)')
    if (to === null && q.to !== undefined) return v1Error(c, 400, 'to must be a date (YYYY-MM-DD)')
    if (from !== null && to !== null && from > to)
      return v1Error(c, 400, 'from must not be after to')
    await refreshAllSessions(ctx)
    const merchant = apiKeyMerchant(ctx.state)
    const rows = [
      ...[...ctx.state.operations.values()]
        .filter((op) => op.merchantId === merchant.id)
        .map((op) => ({ at: op.createdAt, json: v1OperationJson(ctx, op) })),
      ...[...ctx.state.transactions.values()]
        .filter((tx) => tx.account === merchant.account && !tx.sandbox)
        .map((tx) => ({ at: tx.createdAt, json: cibOperationJson(tx) })),
    ]
      .filter((row) => !q.type || row.json.type === q.type)
      .filter((row) => (from === null || row.at >= from) && (to === null || row.at < to + DAY_MS))
      .sort((a, b) => b.at - a.at)
    const data = rows.slice((page - 1) * perPage, page * perPage).map((row) => row.json)
    return c.json({
      success: true,
      data,
      pagination: {
        page,
        per_page: perPage,
        total: rows.length,
        total_pages: Math.ceil(rows.length / perPage),
      },
    })
  })

  app.get('/operations/:operationId', withFault(ctx, 'v1/operations/:id'), async (c) => {
    const id = c.req.param('operationId')
    const merchant = apiKeyMerchant(ctx.state)
    const op = ctx.state.operations.get(id)
    if (op && op.merchantId === merchant.id)
      return c.json({ success: true, data: v1OperationJson(ctx, op) })
    await refreshAllSessions(ctx)
    const tx = [...ctx.state.transactions.values()].find(
      (candidate) => candidate.transactionId === id && candidate.account === merchant.account,
    )
    if (tx) return c.json({ success: true, data: cibOperationJson(tx) })
    return v1Error(c, 404, 'Operation not found')
  })

  return app
}
