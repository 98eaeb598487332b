/**
 * The API-key interface under `/api/v1`: every request needs `X-API-Key`; errors answer the Error
 * body `{ success: false, error, code }`.
 */
import { Hono } from 'hono'
import { PRODUCTS } from '../catalog.js'
import type { SimContext } from '../context.js'
import { createInvoice, createInvoiceSchema, invoiceJson, merchantInvoices } from '../invoices.js'
import { apiKeyMerchant, isValidApiKey } from '../merchants.js'
import { firstIssue } from '../validation.js'
import { dzdText } from '../wire/amounts.js'
import { v1CibRoutes } from './api-key-cib.js'
import { v1Body, v1Error } from './api-key-errors.js'
import { v1OperationRoutes } from './api-key-operations.js'
import { withFault } from './fault-middleware.js'

const CATEGORIES = ['phone', 'internet', 'game', 'bill']

/** The `/v1` routes, to mount at `/api/v1`. */
export function apiKeyRoutes(ctx: SimContext): Hono {
  const app = new Hono()

  app.use('*', async (c, next) => {
    if (!isValidApiKey(ctx.config, c.req.header('x-api-key')))
      return v1Error(c, 401, 'Invalid or missing API key (X-API-Key)')
    return next()
  })

  app.route('/', v1OperationRoutes(ctx))
  app.route('/', v1CibRoutes(ctx))

  app.get('/products', withFault(ctx, 'v1/products'), (c) => {
    const category = c.req.query('category')
    if (category !== undefined && !CATEGORIES.includes(category))
      return v1Error(c, 400, `category must be one of ${CATEGORIES.join(', ')}`)
    const data = PRODUCTS.filter((p) => p.available && (!category || p.category === category)).map(
      (p) => ({
        id: p.id,
        name: p.name,
        category: p.category,
        provider: p.provider,
        price: p.price === null ? null : dzdText(p.price),
      }),
    )
    return c.json({ success: true, count: data.length, data })
  })

  app.get('/merchant/invoices', withFault(ctx, 'v1/merchant/invoices'), (c) => {
    const data = merchantInvoices(ctx, apiKeyMerchant(ctx.state).id).map(invoiceJson)
    return c.json({ success: true, count: data.length, data })
  })

  app.post('/merchant/invoices', withFault(ctx, 'v1/merchant/invoices'), async (c) => {
    const body = await v1Body(c)
    if (body instanceof Response) return body
    const parsed = createInvoiceSchema.safeParse(body)
    if (!parsed.success) return v1Error(c, 400, firstIssue(parsed.error, body))
    const result = createInvoice(ctx, apiKeyMerchant(ctx.state), parsed.data)
    if (!result.ok) return v1Error(c, result.status, result.error)
    return c.json(
      { success: true, message: 'Invoice created successfully', data: invoiceJson(result.invoice) },
      201,
    )
  })

  return app
}
