import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { applyOutcome, markError, reservePayment } from '../../src/data/payments.js'
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

describe('payments from the real checkout', () => {
  it('shows a started payment as pending, then paid once the gateway confirms it', async () => {
    const link = await postLink(p, { title: 'Cours', amount: 1299.5, language: 'fr' })
    const { payment, tx } = await payThroughCheckout(p, link.slug, { ref: 'ELEVE-42' })
    const pending = await api(p, 'GET', `/api/v1/payments/${payment.id}`)
    expect(pending.status).toBe(200)
    expect(pending.body).toMatchObject({
      id: payment.id,
      link_id: link.id,
      status: 'pending',
      amount: 1299.5,
      currency: 'DZD',
      customer: { name: 'Amina Benali', phone: '0550123456', email: 'amina@example.dz' },
      ref: 'ELEVE-42',
      language: 'fr',
      cib_transaction_id: tx.cibTransactionId,
      receipt_url: `${p.url}/r/${payment.receiptId}`,
      approval_code: null,
      paid_at: null,
      beyond_max_payments: false,
      created_at: new Date(T0).toISOString(),
    })
    now += 90_000
    await p.simulator.completePayment(tx.cibTransactionId, 'approved')
    await p.settle()
    const paid = await api(p, 'GET', `/api/v1/payments/${payment.id}`)
    expect(paid.body).toMatchObject({ status: 'paid', amount: 1299.5 })
    expect(paid.body.approval_code).toMatch(/\S/)
    expect(paid.body.order_number).toMatch(/\S/)
    expect(paid.body.message).toMatch(/\S/)
    expect(paid.body.paid_at).toBe(new Date(now).toISOString())
  })

  it('reports an open-amount payment at the exact amount the customer typed', async () => {
    const link = await postLink(p, { title: 'Don', amount_min: 100, amount_max: 5000 })
    const { payment } = await payThroughCheckout(p, link.slug, { amount: '1299.5' })
    expect(payment.amount).toBe(129950)
    const res = await api(p, 'GET', `/api/v1/payments/${payment.id}`)
    expect(res.body.amount).toBe(1299.5)
  })

  it('answers 404 for an unknown payment id', async () => {
    const res = await api(p, 'GET', '/api/v1/payments/pay_doesnotexist0000')
    expect(res.status).toBe(404)
    expect(res.body.error.code).toBe('not_found')
  })
})

describe('listing payments with filters', () => {
  // Around one Algiers day (UTC+01:00): 14 Jan 23:30, 15 Jan 00:30, 15 Jan 23:30, 16 Jan 00:30.
  const AT = {
    a: Date.UTC(2026, 0, 14, 22, 30),
    b: Date.UTC(2026, 0, 14, 23, 30),
    c: Date.UTC(2026, 0, 15, 22, 30),
    d: Date.UTC(2026, 0, 15, 23, 30),
  }
  let ids: Record<keyof typeof AT, string>
  let links: { one: string; two: string }

  beforeEach(async () => {
    const one = await postLink(p, { title: 'Un', amount: 1500 })
    const two = await postLink(p, { title: 'Deux', amount: 2500 })
    links = { one: one.id, two: two.id }
    const start = async (linkId: string, at: number) => {
      const customer = {
        customerName: 'Amina',
        customerPhone: '0550123456',
        customerEmail: 'a@example.dz',
      }
      const r = await reservePayment(
        p.deps.db,
        { linkId, amount: 150000, language: 'fr', ...customer },
        at,
      )
      if (!r.ok) throw new Error(r.reason)
      return r.payment.id
    }
    ids = {
      a: await start(one.id, AT.a),
      b: await start(one.id, AT.b),
      c: await start(one.id, AT.c),
      d: await start(two.id, AT.d),
    }
    await applyOutcome(
      p.deps.db,
      ids.a,
      'paid',
      { approvalCode: '123456' },
      AT.a + 60_000,
      'webhook',
    )
    await applyOutcome(p.deps.db, ids.b, 'failed', {}, AT.b + 60_000, 'webhook')
    await markError(p.deps.db, ids.d, 'gateway_unreachable', AT.d + 1000, 'checkout')
  })

  const list = async (query: string) => {
    const res = await api(p, 'GET', `/api/v1/payments${query}`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return res.body.data.map((x: { id: string }) => x.id)
  }

  it('lists every payment newest first without filters', async () => {
    expect(await list('')).toEqual([ids.d, ids.c, ids.b, ids.a])
  })

  it('filters by one status, several comma-separated, or repeated', async () => {
    expect(await list('?status=paid')).toEqual([ids.a])
    expect(await list('?status=failed,error')).toEqual([ids.d, ids.b])
    expect(await list('?status=initiated&status=paid')).toEqual([ids.c, ids.a])
  })

  it('filters by link with link_id, or link as another name for it', async () => {
    expect(await list(`?link_id=${links.two}`)).toEqual([ids.d])
    expect(await list(`?link=${links.one}`)).toEqual([ids.c, ids.b, ids.a])
    expect(await list(`?link=${links.one}&link_id=${links.one}&status=paid`)).toEqual([ids.a])
  })

  it('reads a date as the whole Algiers day, both ends included', async () => {
    expect(await list('?from=2026-01-15')).toEqual([ids.d, ids.c, ids.b])
    expect(await list('?to=2026-01-15')).toEqual([ids.c, ids.b, ids.a])
    expect(await list('?from=2026-01-15&to=2026-01-15')).toEqual([ids.c, ids.b])
  })

  it('includes a payment created exactly at the from or to instant', async () => {
    const at = new Date(AT.c).toISOString()
    expect(await list(`?from=${at}&to=${at}`)).toEqual([ids.c])
    expect(await list(`?to=${new Date(AT.c - 1).toISOString()}`)).toEqual([ids.b, ids.a])
    expect(await list(`?from=${encodeURIComponent('2026-01-15T23:30:00+01:00')}`)).toEqual([
      ids.d,
      ids.c,
    ])
  })

  it('pages a filtered list with limit and cursor', async () => {
    const first = await api(p, 'GET', `/api/v1/payments?link_id=${links.one}&limit=2`)
    expect(first.body.data.map((x: { id: string }) => x.id)).toEqual([ids.c, ids.b])
    expect(first.body.has_more).toBe(true)
    const next = await api(
      p,
      'GET',
      `/api/v1/payments?link_id=${links.one}&limit=2&cursor=${first.body.next_cursor}`,
    )
    expect(next.body).toMatchObject({ has_more: false, next_cursor: null })
    expect(next.body.data.map((x: { id: string }) => x.id)).toEqual([ids.a])
  })

  it.each([
    ['status=refunded', 'status'],
    ['status=paid,', 'status'],
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=ten', 'limit'],
    ['cursor=not-a-cursor', 'cursor'],
    ['from=15/01/2026', 'from'],
    ['from=2026-02-30', 'from'],
    ['to=2026-01-15T10:00:00', 'to'],
    ['from=2026-01-16&to=2026-01-15', 'to'],
    ['link_id=lnk_a&link=lnk_b', 'link'],
    ['link_id=', 'link_id'],
    ['cursor=1~a&cursor=2~b', 'cursor'],
    ['page=2', 'page'],
  ])('answers ?%s with 400 naming %s', async (query, field) => {
    const res = await api(p, 'GET', `/api/v1/payments?${query}`)
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('invalid_query')
    expect(Object.keys(res.body.error.fields)).toEqual([field])
    expect(res.body.error.fields[field]).toMatch(new RegExp(`^${field} `))
  })
})
