/**
 * Bodies are read only up to their route's limit, on the stream, whether or not a length is
 * declared: the checkout, the webhook and the built-in simulator's POSTs (in process; the Node
 * server over loopback HTTP is in test/node/body-limits.test.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { payments } from '../../db/schema.js'
import { getPaymentById } from '../../src/data/payments.js'
import { PUBLIC_FORM_BODY_LIMIT, WEBHOOK_BODY_LIMIT } from '../../src/http/body-limits.js'
import { SIMULATOR_BODY_LIMIT } from '../../src/simulator/body-limit.js'
import { CHUNK, chunkedBody, endlessBody, streamed } from '../support/endless-body.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { CUSTOMER, openCheckout, startPayment } from './support.js'

const FORM = { 'content-type': 'application/x-www-form-urlencoded' }
const JSON_TYPE = { 'content-type': 'application/json' }

let p: Paylinks
beforeEach(async () => {
  p = await startPaylinks()
})
afterEach(async () => {
  await p.close()
})

/** Posts an endless body; returns the answer and how much of the body was pulled. */
async function postEndless(path: string, headers: Record<string, string>, method = 'POST') {
  const body = endlessBody()
  const res = await p.app.request(path, streamed(method, body.stream, headers))
  return { res, pulled: body.pulled(), cancelled: body.cancelled() }
}

describe('the checkout form', () => {
  it('refuses an endless chunked body with a 413 page in the link language, reading at most one chunk past the limit', async () => {
    const link = await makeLink(p, { title: 'Fixe', amount: 1000, language: 'fr' })
    const { res, pulled, cancelled } = await postEndless(`/l/${link.slug}`, FORM)
    expect(res.status).toBe(413)
    const html = await res.text()
    expect(html).toContain('Envoi trop volumineux')
    expect(html).toContain(`href="/l/${link.slug}?lang=fr"`)
    expect(pulled).toBeGreaterThan(PUBLIC_FORM_BODY_LIMIT)
    expect(pulled).toBeLessThanOrEqual(PUBLIC_FORM_BODY_LIMIT + CHUNK)
    expect(cancelled).toBe(true)
    expect(await p.deps.db.select().from(payments)).toHaveLength(0)
  })

  it('answers the 413 page in Arabic for an Arabic link', async () => {
    const link = await makeLink(p, { title: 'ثابت', amount: 1000, language: 'ar' })
    const { res } = await postEndless(`/l/${link.slug}`, FORM)
    expect(res.status).toBe(413)
    expect(await res.text()).toContain('البيانات المرسلة كبيرة جدًا')
  })

  it('refuses a declared Content-Length over the limit without reading a byte', async () => {
    const link = await makeLink(p, { title: 'Fixed', amount: 1000, language: 'en' })
    const { res, pulled } = await postEndless(`/l/${link.slug}`, {
      ...FORM,
      'content-length': String(PUBLIC_FORM_BODY_LIMIT + 1),
    })
    expect(res.status).toBe(413)
    expect(await res.text()).toContain('Too much was sent')
    expect(pulled).toBe(0)
  })

  it('counts the per-address limit before reading the body: the eleventh submission reads nothing', async () => {
    const link = await makeLink(p, { title: 'Fixed', amount: 1000, language: 'en' })
    const ip = { 'x-test-ip': '10.20.30.40' }
    for (let i = 0; i < 10; i++) {
      const body = new URLSearchParams({ ...CUSTOMER, email: '', csrf: 'x' })
      const res = await p.app.request(`/l/${link.slug}`, {
        method: 'POST',
        body,
        headers: { ...FORM, ...ip },
      })
      expect(res.status).toBe(403)
    }
    const { res, pulled } = await postEndless(`/l/${link.slug}`, { ...FORM, ...ip })
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBeTruthy()
    expect(await res.text()).toContain('Too many attempts')
    expect(pulled).toBe(0)
  })

  it('still takes a form sent in small chunks without a length, and starts the payment', async () => {
    const link = await makeLink(p, { title: 'Fixed', amount: 1000, language: 'ar' })
    const { csrf } = await openCheckout(p, link.slug)
    const form = new URLSearchParams({ ...CUSTOMER, name: 'أمينة بن علي', csrf: csrf ?? '' })
    const res = await p.app.request(
      `/l/${link.slug}`,
      streamed('POST', chunkedBody(form.toString()), FORM),
    )
    expect(res.status).toBe(303)
    const [payment] = await p.deps.db.select().from(payments)
    expect(payment?.customerName).toBe('أمينة بن علي')
  })
})

describe('the gateway webhook', () => {
  it('refuses an endless chunked body with 413 JSON, reading at most one chunk past the limit', async () => {
    const { res, pulled, cancelled } = await postEndless('/webhooks/gateway', JSON_TYPE)
    expect(res.status).toBe(413)
    expect(await res.json()).toMatchObject({ error: { code: 'too_large' } })
    expect(pulled).toBeGreaterThan(WEBHOOK_BODY_LIMIT)
    expect(pulled).toBeLessThanOrEqual(WEBHOOK_BODY_LIMIT + CHUNK)
    expect(cancelled).toBe(true)
  })

  it('refuses a declared Content-Length over the limit without reading a byte', async () => {
    const { res, pulled } = await postEndless('/webhooks/gateway', {
      ...JSON_TYPE,
      'content-length': String(WEBHOOK_BODY_LIMIT + 1),
    })
    expect(res.status).toBe(413)
    expect(pulled).toBe(0)
  })

  it('still settles a signed delivery sent in small chunks without a length', async () => {
    const link = await makeLink(p, { title: 'Webhook', amount: 1000 })
    const { tx, payment } = await startPayment(p, link.slug)
    p.simulator.faults.set({ webhooks: { never: true } })
    await p.simulator.completePayment(tx.cibTransactionId, 'approved')
    await p.settle()
    const delivery = [...p.simulator.state.deliveries.values()].find(
      (d) => d.cibTransactionId === tx.cibTransactionId,
    )
    const res = await p.app.request(
      '/webhooks/gateway',
      streamed('POST', chunkedBody(JSON.stringify(delivery?.payload)), JSON_TYPE),
    )
    expect(res.status).toBe(200)
    await p.settle()
    expect((await getPaymentById(p.deps.db, payment.id))?.status).toBe('paid')
  })
})

describe('the built-in simulator at /_sim', () => {
  const routes = [
    '/_sim/api/v1/cib/transaction',
    '/_sim/api/v1/cib/transaction/check',
    '/_sim/api/v1/merchant/invoices',
    '/_sim/services/operation_post',
    '/_sim/merchant/invoices/create/',
    '/_sim/merchant/invoices/update/',
    '/_sim/_faults',
    '/_sim/pay/no-such-transaction/card',
    '/_sim/pay/no-such-transaction/otp',
  ]
  for (const path of routes) {
    it(`refuses an endless chunked body to ${path} with 413, reading at most one chunk past the limit`, async () => {
      const { res, pulled } = await postEndless(path, JSON_TYPE)
      expect(res.status).toBe(413)
      expect(pulled).toBeGreaterThan(SIMULATOR_BODY_LIMIT)
      expect(pulled).toBeLessThanOrEqual(SIMULATOR_BODY_LIMIT + CHUNK)
    })
  }

  it('refuses a declared Content-Length over the limit without reading a byte', async () => {
    const { res, pulled } = await postEndless('/_sim/api/v1/cib/transaction', {
      ...JSON_TYPE,
      'content-length': String(SIMULATOR_BODY_LIMIT + 1),
    })
    expect(res.status).toBe(413)
    expect(pulled).toBe(0)
  })

  it('still reads a JSON body sent in small chunks', async () => {
    const res = await p.app.request(
      '/_sim/_faults',
      streamed('POST', chunkedBody(JSON.stringify({ webhooks: { never: true } })), JSON_TYPE),
    )
    expect(res.status).toBe(200)
    expect(p.simulator.faults.get().webhooks?.never).toBe(true)
  })
})
