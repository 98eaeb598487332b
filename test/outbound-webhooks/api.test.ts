/**
 * `/api/v1/webhook-endpoints` through the app: the secret shown once, changes, refusals naming
 * the field, SSRF refusals under the live rules, rotation, the delivery log and redelivery to a
 * real receiver.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { api } from '../api/helpers.js'
import { startPayment } from '../flows/support.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { T0 } from '../support/manual-time.js'
import { type Receiver, startReceiver, verify } from './receiver.js'

let now = T0
let p: Paylinks
let receiver: Receiver
beforeEach(async () => {
  now = T0
  receiver = await startReceiver()
  p = await startPaylinks({ clock: () => now })
})
afterEach(async () => {
  await p.close()
  await receiver.close()
})

describe('the webhook endpoints API', () => {
  it('registers an endpoint, shows its secret once, and changes and deletes it', async () => {
    const created = await api(p, 'POST', '/api/v1/webhook-endpoints', {
      json: {
        url: receiver.url,
        description: 'orders',
        event_types: ['payment.paid', 'payment.paid'],
      },
    })
    expect(created.status).toBe(201)
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/)
    expect(created.body).toMatchObject({
      url: receiver.url,
      event_types: ['payment.paid'],
      enabled: true,
      failing: false,
    })
    const id = created.body.id
    const read = await api(p, 'GET', `/api/v1/webhook-endpoints/${id}`)
    expect(read.status).toBe(200)
    expect(read.body).not.toHaveProperty('secret')
    expect(JSON.stringify((await api(p, 'GET', '/api/v1/webhook-endpoints')).body)).not.toContain(
      created.body.secret,
    )
    const changed = await api(p, 'PATCH', `/api/v1/webhook-endpoints/${id}`, {
      json: { enabled: false, description: null },
    })
    expect(changed.body).toMatchObject({ enabled: false, description: null })
    expect((await api(p, 'DELETE', `/api/v1/webhook-endpoints/${id}`)).status).toBe(204)
    expect((await api(p, 'GET', `/api/v1/webhook-endpoints/${id}`)).status).toBe(404)
  })

  it('names each bad field, and takes every event type by default', async () => {
    const bad = await api(p, 'POST', '/api/v1/webhook-endpoints', {
      json: { url: '', event_types: ['payment.refunded'], extra: 1, enabled: 'yes' },
    })
    expect(bad.status).toBe(400)
    expect(Object.keys(bad.body.error.fields).sort()).toEqual([
      'enabled',
      'event_types[0]',
      'extra',
      'url',
    ])
    const notJson = await api(p, 'POST', '/api/v1/webhook-endpoints', {
      raw: '{',
      headers: { 'content-type': 'application/json' },
    })
    expect(notJson.status).toBe(400)
    const all = await api(p, 'POST', '/api/v1/webhook-endpoints', { json: { url: receiver.url } })
    expect([...all.body.event_types].sort()).toEqual([
      'checkout.completed',
      'checkout.expired',
      'link.completed',
      'payment.canceled',
      'payment.expired',
      'payment.failed',
      'payment.paid',
    ])
    const checkouts = await api(p, 'POST', '/api/v1/webhook-endpoints', {
      json: { url: receiver.url, event_types: ['checkout.completed', 'checkout.expired'] },
    })
    expect(checkouts.status).toBe(201)
    expect(checkouts.body.event_types).toEqual(['checkout.completed', 'checkout.expired'])
  })

  it('refuses private and plain-http targets under the live rules, naming url', async () => {
    Object.assign(p.deps.webhookTargets, { simulator: false, allowPrivate: false })
    for (const [url, words] of [
      [receiver.url, 'https://'],
      ['https://169.254.169.254/', 'private'],
      ['https://[::ffff:10.0.0.1]/', 'private'],
      ['https://2130706433/', 'private'],
    ] as const) {
      const res = await api(p, 'POST', '/api/v1/webhook-endpoints', { json: { url } })
      expect(res.status, url).toBe(400)
      expect(res.body.error.fields.url, url).toContain(words)
    }
    expect((await api(p, 'GET', '/api/v1/webhook-endpoints')).body.data).toEqual([])
  })

  it('rotates the secret, lists deliveries and sends one again with the same id and bytes', async () => {
    const created = await api(p, 'POST', '/api/v1/webhook-endpoints', {
      json: { url: receiver.url, event_types: ['payment.paid'] },
    })
    const id = created.body.id
    const link = await makeLink(p, { title: 'Commande', amount: 2500, language: 'fr' })
    const { tx, payment } = await startPayment(p, link.slug)
    await p.simulator.completePayment(tx.cibTransactionId, 'approved')
    await p.settle()
    const list = await api(p, 'GET', `/api/v1/webhook-endpoints/${id}/deliveries`)
    expect(list.body.data).toHaveLength(1)
    expect(list.body.data[0]).toMatchObject({
      type: 'payment.paid',
      payment_id: payment.id,
      state: 'delivered',
      attempts: 1,
      last_status: 200,
      last_response: 'ok',
    })
    const eventId = list.body.data[0].id
    const rotated = await api(p, 'POST', `/api/v1/webhook-endpoints/${id}/rotate-secret`)
    expect(rotated.body.secret).not.toBe(created.body.secret)
    now += 60_000
    const again = await api(
      p,
      'POST',
      `/api/v1/webhook-endpoints/${id}/deliveries/${eventId}/redeliver`,
    )
    expect(again.status).toBe(202)
    await p.settle()
    expect(receiver.received).toHaveLength(2)
    const [first, second] = receiver.received
    expect(second?.headers['webhook-id']).toBe(eventId)
    expect(second?.body).toBe(first?.body)
    verify(created.body.secret, second!, now)
    verify(rotated.body.secret, second!, now)
    const after = await api(p, 'GET', `/api/v1/webhook-endpoints/${id}/deliveries?limit=1`)
    expect(after.body.data[0]).toMatchObject({ state: 'delivered', attempts: 2 })
    expect((await api(p, 'GET', `/api/v1/webhook-endpoints/${id}/deliveries?limit=0`)).status).toBe(
      400,
    )
    expect(
      (await api(p, 'GET', `/api/v1/webhook-endpoints/${id}/deliveries?cursor=x`)).body.error
        .fields,
    ).toHaveProperty('cursor')
    expect(
      (await api(p, 'POST', `/api/v1/webhook-endpoints/${id}/deliveries/msg_nope/redeliver`))
        .status,
    ).toBe(404)
  })
})
