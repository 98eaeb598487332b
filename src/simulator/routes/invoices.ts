/** The direct interface's merchant invoices: create, update, list. Error bodies use the key `error`. */
import { type Context, Hono } from 'hono'
import type { SimContext } from '../context.js'
import {
  createInvoice,
  createInvoiceSchema,
  invoiceJson,
  merchantInvoices,
  updateInvoice,
  updateInvoiceSchema,
} from '../invoices.js'
import { resolveSecretKey, secretKeyMessage } from '../merchants.js'
import type { InvoiceStatus, Merchant } from '../state.js'
import { firstIssue, readJsonObject } from '../validation.js'
import { withFault } from './fault-middleware.js'

const fail = (c: Context, message: string, status: 400 | 404 = 400) =>
  c.json({ error: message }, status)

async function authenticate(
  ctx: SimContext,
  c: Context,
  value: unknown,
): Promise<Merchant | Response> {
  const result = await resolveSecretKey(ctx.state, ctx.config, value)
  return result.ok ? result.merchant : fail(c, secretKeyMessage(result.reason))
}

const STATUSES: InvoiceStatus[] = ['PENDING', 'PAID', 'CANCELLED']

/** The merchant invoice routes of the direct interface. */
export function invoiceRoutes(ctx: SimContext): Hono {
  const app = new Hono()

  app.post('/merchant/invoices/create/', withFault(ctx, 'invoices/create'), async (c) => {
    const body = await readJsonObject(c.req.raw)
    if (!body) return fail(c, 'Invalid JSON')
    const merchant = await authenticate(ctx, c, body.encrypted_sk)
    if (merchant instanceof Response) return merchant
    const parsed = createInvoiceSchema.safeParse(body)
    if (!parsed.success) return fail(c, firstIssue(parsed.error, body))
    const result = createInvoice(ctx, merchant, parsed.data)
    if (!result.ok) return fail(c, result.error, result.status)
    return c.json({
      success: true,
      message: 'Invoice created successfully',
      invoice: invoiceJson(result.invoice),
    })
  })

  app.post('/merchant/invoices/update/', withFault(ctx, 'invoices/update'), async (c) => {
    const body = await readJsonObject(c.req.raw)
    if (!body) return fail(c, 'Invalid JSON')
    const merchant = await authenticate(ctx, c, body.encrypted_sk)
    if (merchant instanceof Response) return merchant
    const parsed = updateInvoiceSchema.safeParse(body)
    if (!parsed.success) return fail(c, firstIssue(parsed.error, body))
    const result = updateInvoice(ctx, merchant, parsed.data)
    if (!result.ok) return fail(c, result.error, result.status)
    return c.json({
      success: true,
      message: 'Invoice updated successfully',
      invoice: invoiceJson(result.invoice),
    })
  })

  // Where the list takes its credential is not documented: the query string, like the history.
  app.get('/merchant/invoices/', withFault(ctx, 'invoices/list'), async (c) => {
    const merchant = await authenticate(ctx, c, c.req.query('encrypted_sk'))
    if (merchant instanceof Response) return merchant
    const status = c.req.query('status')
    if (status !== undefined && !STATUSES.includes(status as InvoiceStatus))
      return fail(c, `status must be one of ${STATUSES.join(', ')}`)
    const limit = Number(c.req.query('limit') ?? '20')
    const offset = Number(c.req.query('offset') ?? '0')
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      return fail(c, 'limit must be an integer from 1 to 100')
    if (!Number.isInteger(offset) || offset < 0)
      return fail(c, 'offset must be a non-negative integer')
    const all = merchantInvoices(ctx, merchant.id, status as InvoiceStatus | undefined)
    const page = all.slice(offset, offset + limit)
    return c.json({
      success: true,
      count: page.length,
      invoices: page.map(invoiceJson),
      pagination: { total_count: all.length, limit, offset, has_more: offset + limit < all.length },
    })
  })

  return app
}
