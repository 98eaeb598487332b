/** `make-cib-transaction` and `cib-transaction-check`, live and sandbox paths alike. */
import { Hono } from 'hono'
import { refreshSession } from '../card/finish.js'
import {
  checkJson,
  createCardSchema,
  createCardTransaction,
  creationJson,
  draftFromQuery,
  findByCibId,
  paymentUrl,
} from '../card/transaction.js'
import type { SimContext } from '../context.js'
import { withFault } from './fault-middleware.js'

/** The card payment routes of the direct interface. */
export function cardRoutes(ctx: SimContext): Hono {
  const app = new Hono()
  for (const sandbox of [false, true]) {
    const prefix = sandbox ? '/sandbox' : ''

    app.get(`${prefix}/make-cib-transaction/`, withFault(ctx, 'make-cib-transaction'), (c) => {
      const parsed = createCardSchema.safeParse(c.req.query())
      if (!parsed.success) {
        const errors = Object.fromEntries(
          parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message]),
        )
        return c.json({ status: 'error', message: 'Invalid or missing parameters.', errors }, 400)
      }
      const tx = createCardTransaction(ctx, draftFromQuery(parsed.data), { sandbox, via: 'direct' })
      if (parsed.data.redirect === 'yes') return c.redirect(paymentUrl(ctx, tx), 302)
      return c.json(creationJson(ctx, tx))
    })

    app.get(
      `${prefix}/cib-transaction-check/`,
      withFault(ctx, 'cib-transaction-check'),
      async (c) => {
        const orderNumber = c.req.query('order_number')
        if (!orderNumber?.trim())
          return c.json({ status: 'error', message: 'order_number is required' }, 400)
        const tx = findByCibId(ctx, orderNumber, sandbox)
        if (!tx) return c.json({ status: 'error', message: 'Transaction not found' }, 404)
        await refreshSession(ctx, tx)
        return c.json(checkJson(tx))
      },
    )
  }
  return app
}
