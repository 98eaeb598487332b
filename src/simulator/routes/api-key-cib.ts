/** `/v1/cib/transaction` and its check; card payments as `/v1` operations of type `cib`. */
import { Hono } from 'hono'
import * as z from 'zod'
import { refreshSession } from '../card/finish.js'
import { checkJson, createCardTransaction, findByCibId, paymentUrl } from '../card/transaction.js'
import type { SimContext } from '../context.js'
import { apiKeyMerchant } from '../merchants.js'
import type { CardTransaction } from '../state.js'
import { isoUtc } from '../time.js'
import { dzdAmount, firstIssue } from '../validation.js'
import { dzdText } from '../wire/amounts.js'
import { v1Body, v1Error } from './api-key-errors.js'
import { withFault } from './fault-middleware.js'

const httpUrl = z
  .string()
  .refine(
    (text) => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol),
    'must be an http(s) URL',
  )

// The documented fields, then optional ones the document does not show but a card page can use.
const cibSchema = z.object({
  amount: dzdAmount.refine((c) => c >= 5000, 'must be at least 50 DZD'),
  currency: z.literal('DZD').default('DZD'),
  order_id: z.string().trim().min(1),
  return_url: httpUrl,
  description: z.string().optional(),
  full_name: z.string().optional(),
  phone: z.string().optional(),
  email: z.string().optional(),
  webhook_url: httpUrl.optional(),
  language: z.enum(['ar', 'fr', 'en']).optional(),
})

const STATUS: Record<NonNullable<CardTransaction['outcome']>, string> = {
  approved: 'completed',
  insufficient_funds: 'failed',
  declined: 'failed',
  expired_card: 'failed',
  canceled: 'canceled',
  session_expired: 'expired',
}

/** A card payment as a `/v1` operation of type `cib`. */
export function cibOperationJson(tx: CardTransaction): Record<string, unknown> {
  return {
    id: tx.transactionId,
    type: 'cib',
    status: tx.outcome ? STATUS[tx.outcome] : 'pending',
    amount: dzdText(tx.amount),
    currency: 'DZD',
    details: {
      order_id: tx.merchantOrderId,
      order_number: tx.cibTransactionId,
      cib_transaction_id: tx.cibTransactionId,
    },
    transaction_id: tx.transactionId,
    created_at: isoUtc(tx.createdAt),
    updated_at: isoUtc(tx.completedAt ?? tx.createdAt),
  }
}

/** The `/v1` card payment routes. */
export function v1CibRoutes(ctx: SimContext): Hono {
  const app = new Hono()

  app.post('/cib/transaction', withFault(ctx, 'v1/cib/transaction'), async (c) => {
    const body = await v1Body(c)
    if (body instanceof Response) return body
    const parsed = cibSchema.safeParse(body)
    if (!parsed.success) return v1Error(c, 400, firstIssue(parsed.error, body))
    const input = parsed.data
    const merchant = apiKeyMerchant(ctx.state)
    const taken = [...ctx.state.transactions.values()].some(
      (tx) => tx.via === 'v1' && tx.merchantOrderId === input.order_id,
    )
    if (taken) return v1Error(c, 400, `order_id: ${input.order_id} has already been used`)
    const tx = createCardTransaction(
      ctx,
      {
        account: merchant.account,
        amount: input.amount,
        fullName: input.full_name ?? '',
        phone: input.phone ?? '',
        email: input.email ?? '',
        returnUrl: input.return_url,
        webhookUrl: input.webhook_url,
        language: input.language,
        keepReturnUrl: true,
        merchantOrderId: input.order_id,
        description: input.description,
      },
      { sandbox: false, via: 'v1' },
    )
    const url = paymentUrl(ctx, tx)
    return c.json({
      success: true,
      transaction_id: tx.transactionId,
      order_id: input.order_id,
      order_number: tx.cibTransactionId,
      cib_transaction_id: tx.cibTransactionId,
      redirect_url: url,
      payment_url: url,
      amount: dzdText(tx.amount),
      currency: 'DZD',
      status: ctx.config.creationStatus,
    })
  })

  app.post('/cib/transaction/check', withFault(ctx, 'v1/cib/transaction/check'), async (c) => {
    const body = await v1Body(c)
    if (body instanceof Response) return body
    const orderNumber = body.order_number
    const orderId = body.order_id
    let tx: CardTransaction | undefined
    if (typeof orderNumber === 'string' || typeof orderNumber === 'number') {
      tx = findByCibId(ctx, String(orderNumber), false)
    } else if (typeof orderId === 'string') {
      tx = [...ctx.state.transactions.values()].find(
        (candidate) => candidate.via === 'v1' && candidate.merchantOrderId === orderId,
      )
    } else {
      return v1Error(c, 400, 'order_number: is required')
    }
    if (!tx) return v1Error(c, 404, 'Transaction not found')
    await refreshSession(ctx, tx)
    return c.json(checkJson(tx))
  })

  return app
}
