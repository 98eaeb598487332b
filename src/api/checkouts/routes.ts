/**
 * `/api/v1/checkouts`: create, list and read checkout sessions, and expire an open one. A checkout
 * pays through a link of its own (src/data/checkouts.ts); its status moves by conditional UPDATEs
 * and by the triggers that complete it with its payment (docs/decisions/checkouts.md).
 */
import type { Context } from 'hono'
import { Hono } from 'hono'
import type { Checkout } from '../../../db/schema.js'
import { cartProducts } from '../../data/cart-products.js'
import {
  type CheckoutLink,
  checkoutLinks,
  closeCheckout,
  createCheckout,
  getCheckoutById,
  listCheckouts,
  oldestPaymentInFlight,
} from '../../data/checkouts.js'
import type { AppEnv } from '../../deps.js'
import { retryAfterMs } from '../../domain/check-schedule.js'
import { jsonBodyLimit, readJsonBody } from '../body.js'
import { apiError, invalidFields } from '../errors.js'
import { apiFieldMessages } from '../problem-messages.js'
import { parseQuery } from '../query.js'
import { limitLinkWrites } from '../rate-limit.js'
import { auditCheckout } from './audit.js'
import { parseCreateCheckout, priceCheckoutCart } from './input.js'
import { toCheckoutObject } from './objects.js'
import { listCheckoutsQuery } from './schemas.js'

export const checkoutApiRoutes = new Hono<AppEnv>()

const noSuchCheckout = (c: Context<AppEnv>) =>
  apiError(c, 404, 'not_found', 'No checkout has this id.')

/** The checkouts as the API's objects, their links read in one query. */
async function checkoutJson(c: Context<AppEnv>, rows: Checkout[]) {
  const byId = await checkoutLinks(
    c.get('db'),
    rows.map((r) => r.linkId),
  )
  const publicUrl = c.get('config').publicUrl
  return rows.flatMap((row) => {
    const link = byId.get(row.linkId)
    // Every checkout names its link (written first, never deleted: it has the checkout's place).
    return link ? [toCheckoutObject(row, link, { publicUrl })] : []
  })
}

const one = async (c: Context<AppEnv>, row: Checkout, link?: CheckoutLink) =>
  link
    ? toCheckoutObject(row, link, { publicUrl: c.get('config').publicUrl })
    : (await checkoutJson(c, [row]))[0]

checkoutApiRoutes.get('/checkouts', async (c) => {
  const query = parseQuery(c, listCheckoutsQuery)
  if (!query.ok) return invalidFields(c, 'invalid_query', query.fields)
  const { limit, cursor, status, reference } = query.value
  const page = await listCheckouts(c.get('db'), {
    ...(limit !== undefined ? { limit } : {}),
    ...(cursor ? { cursor } : {}),
    ...(status !== undefined ? { status } : {}),
    ...(reference !== undefined ? { reference } : {}),
  })
  return c.json({
    data: await checkoutJson(c, page.items),
    has_more: page.nextCursor !== null,
    next_cursor: page.nextCursor,
  })
})

checkoutApiRoutes.post('/checkouts', limitLinkWrites(), jsonBodyLimit(), async (c) => {
  const body = await readJsonBody(c)
  if (!body.ok) return body.response
  const now = c.get('clock')()
  const { defaultLanguage } = await c.get('brand').fresh(c.get('db'))
  const read = parseCreateCheckout(body.body, { now, defaultLanguage })
  const parsed =
    read.ok && read.value.cartLines
      ? priceCheckoutCart(
          read.value,
          await cartProducts(
            c.get('db'),
            read.value.cartLines.map((l) => l.productId),
          ),
        )
      : read
  if (!parsed.ok) {
    const fields = apiFieldMessages(parsed.problems, 'a checkout')
    if (parsed.status === 400) return invalidFields(c, 'invalid_body', fields)
    return apiError(
      c,
      422,
      'unprocessable_body',
      `The request body asks for what this Paylinks does not offer: ${Object.keys(fields).join(', ')}.`,
      fields,
    )
  }
  const { checkout, link } = await createCheckout(c.get('db'), parsed.value, now)
  await auditCheckout(c, 'checkout_created', checkout)
  const base = c.get('config').publicUrl.replace(/\/+$/, '')
  c.header('Location', `${base}/api/v1/checkouts/${encodeURIComponent(checkout.id)}`)
  return c.json(await one(c, checkout, link), 201)
})

checkoutApiRoutes.get('/checkouts/:id', async (c) => {
  const checkout = await getCheckoutById(c.get('db'), c.req.param('id'))
  return checkout ? c.json(await one(c, checkout)) : noSuchCheckout(c)
})

checkoutApiRoutes.post('/checkouts/:id/expire', limitLinkWrites(), async (c) => {
  const id = c.req.param('id')
  const now = c.get('clock')()
  // One conditional UPDATE: open, and no payment of it under way (its link expires with it).
  const expired = await closeCheckout(c.get('db'), id, 'expired', now)
  if (expired) {
    await auditCheckout(c, 'checkout_expired', expired)
    return c.json(await one(c, expired))
  }
  const checkout = await getCheckoutById(c.get('db'), id)
  if (!checkout) return noSuchCheckout(c)
  if (checkout.status !== 'open')
    return apiError(
      c,
      409,
      'checkout_not_open',
      `This checkout is ${checkout.status}; only an open checkout can be expired.`,
    )
  // A customer is paying: the card page's session ends it one way or the other, then retry.
  const since = await oldestPaymentInFlight(c.get('db'), checkout.linkId)
  if (since === null) {
    // Settled between the two reads: nothing holds it any more (or it has just been paid).
    const now2 = c.get('clock')()
    const late = await closeCheckout(c.get('db'), id, 'expired', now2)
    if (late) {
      await auditCheckout(c, 'checkout_expired', late)
      return c.json(await one(c, late))
    }
  }
  const wait = retryAfterMs(since ?? now, now)
  c.header('Retry-After', String(Math.max(1, Math.ceil(wait / 1000))))
  return apiError(
    c,
    409,
    'checkout_payment_in_progress',
    'A payment of this checkout is under way; it is not expired while the customer may still pay. Retry after the time in Retry-After, or let it complete.',
  )
})
