/** `POST /webhooks/gateway`: the gateway's signed `cib.payment.updated` deliveries. */
import { Hono } from 'hono'
import type { AppEnv } from '../env.js'
import { receiveWebhook } from '../payments/webhook.js'

const MAX_BODY_BYTES = 64 * 1024

export const webhookRoutes = new Hono<AppEnv>()

webhookRoutes.post('/webhooks/gateway', async (c) => {
  const length = Number(c.req.header('content-length') ?? 0)
  if (length > MAX_BODY_BYTES) {
    return c.json({ error: { code: 'too_large', message: 'The body is larger than 64 KiB.' } }, 413)
  }
  const raw = await c.req.text()
  if (raw.length > MAX_BODY_BYTES) {
    return c.json({ error: { code: 'too_large', message: 'The body is larger than 64 KiB.' } }, 413)
  }
  const answer = await receiveWebhook(c.var, c.get('background'), raw)
  return c.json(answer.body, answer.status)
})
