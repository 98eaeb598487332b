/**
 * `q` on `GET /api/v1/payments` and `GET /api/v1/links`: payments from the real checkout found by
 * their customer's name, a part of the phone or the order number, with the other filters; a bad
 * `q` is a 400 that names it, and FTS5 syntax is only text.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { postLink } from '../support/links.js'
import { api, payThroughCheckout } from './helpers.js'

const T0 = Date.UTC(2026, 0, 10, 9, 0, 0)
let now = T0
let p: Paylinks
beforeEach(async () => {
  now = T0
  p = await startPaylinks({ clock: () => now })
})
afterEach(() => p.close())

const ids = (body: { data: { id: string }[] }) => body.data.map((x) => x.id)
const get = (path: string) => api(p, 'GET', path)

describe('q on the payments list', () => {
  it('finds payments by name, partial phone, e-mail and order number, and keeps the filters', async () => {
    const link = await postLink(p, { title: 'Cours du soir', amount: 1500 })
    const { payment: amina } = await payThroughCheckout(p, link.slug, {
      name: 'أمينة بن علي',
      phone: '0661 23 45 67',
      email: 'amina.b@djaweb.dz',
    })
    now += 1000
    const { payment: karim, tx } = await payThroughCheckout(p, link.slug, {
      name: 'Karim Haddad',
      phone: '+213 770 11 22 33',
      email: 'karim@example.dz',
      ref: 'ELEVE-42',
    })
    await p.simulator.completePayment(tx.cibTransactionId, 'approved')
    await p.settle()
    const order = (await get(`/api/v1/payments/${karim.id}`)).body.order_number as string
    expect(order).toMatch(/\d{4}/)

    const q = (text: string, more = '') =>
      get(`/api/v1/payments?q=${encodeURIComponent(text)}${more}`).then((r) => {
        expect(r.status, text).toBe(200)
        return ids(r.body)
      })
    expect(await q('بن علي')).toEqual([amina.id])
    expect(await q('0661 23')).toEqual([amina.id])
    expect(await q('٠٧٧٠ ١١')).toEqual([karim.id])
    expect(await q('DJAWEB')).toEqual([amina.id])
    expect(await q(order.slice(-5))).toEqual([karim.id])
    expect(await q('eleve-4')).toEqual([karim.id])
    expect(await q(karim.receiptId)).toEqual([karim.id])
    expect(await q('.dz')).toEqual([karim.id, amina.id])
    expect(await q('.dz', '&status=paid')).toEqual([karim.id])
    expect(await q('.dz', '&limit=1')).toEqual([karim.id])
    expect(await q('nobody here')).toEqual([])
  })

  it('answers 400 naming q when it is too short, too long or repeated', async () => {
    for (const bad of ['q=ab', 'q=%20%20', `q=${'x'.repeat(101)}`, 'q=abc&q=def']) {
      const res = await get(`/api/v1/payments?${bad}`)
      expect(res.status, bad).toBe(400)
      expect(res.body.error.code).toBe('invalid_query')
      expect(Object.keys(res.body.error.fields)).toEqual(['q'])
      expect(res.body.error.fields.q).toMatch(/^q /)
    }
  })

  it('reads FTS5 syntax as text: never an error', async () => {
    const link = await postLink(p, { title: 'Don', amount: 1500 })
    await payThroughCheckout(p, link.slug)
    for (const text of ['"', '"""', '* OR *', 'NEAR(a b)', 'name:Amina', 'a" OR "b', '\u0000abc']) {
      const res = await get(`/api/v1/payments?q=${encodeURIComponent(text)}`)
      expect([200, 400], text).toContain(res.status)
      if (res.status === 200) expect(res.body.data, text).toEqual([])
    }
  })
})

describe('q on the links list', () => {
  it('finds links by a part of the title and refuses a short q', async () => {
    const monthly = await postLink(p, { title: 'اشتراك شهري', amount: 1500 })
    await postLink(p, { title: 'Formation Excel', amount: 2500 })
    const res = await get(`/api/v1/links?q=${encodeURIComponent('شهر')}`)
    expect(res.status).toBe(200)
    expect(ids(res.body)).toEqual([monthly.id])
    expect(ids((await get('/api/v1/links?q=EXCEL&active=false')).body)).toEqual([])
    const short = await get('/api/v1/links?q=ex')
    expect(short.status).toBe(400)
    expect(Object.keys(short.body.error.fields)).toEqual(['q'])
  })
})
