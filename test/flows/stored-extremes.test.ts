/**
 * Rows no form or API would write, put straight into the SQLite file: amounts at the ends of
 * SQLite's 64-bit integers and beyond 2^53, zero and negative bounds, real numbers and text in
 * amount columns, invoice items that are not a list, times past what a Date holds, payments of
 * 2^63 - 1 centimes in every status, very long texts. Every read
 * endpoint and every page that shows them answers without a 5xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PAYMENT_STATUSES } from '../../db/schema.js'
import { signedIn } from '../dashboard/helpers.js'
import { type Paylinks, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'
import { CUSTOMER } from './support.js'

const INT64_MAX = 9223372036854775807n
const INT64_MIN = -9223372036854775808n
const LONG = 'ن'.repeat(60_000)
const NOW = Date.UTC(2026, 0, 15, 10, 0, 0)

let p: Paylinks
const links: { id: string; slug: string }[] = []
const receipts: string[] = []

type Row = Record<string, unknown>

function insertLink(n: number, values: Row) {
  const row: Row = {
    id: `lnk_extreme${n}`,
    slug: `extreme-${n}`,
    title: `Extreme ${n}`,
    language: 'fr',
    active: 1,
    created_at: NOW - n,
    updated_at: NOW - n,
    ...values,
  }
  const keys = Object.keys(row)
  p.sqlite.sqlite
    .prepare(`INSERT INTO links (${keys.join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`)
    .run(...keys.map((k) => row[k]))
  links.push({ id: row.id as string, slug: row.slug as string })
}

function insertPayment(n: number, linkId: string, values: Row) {
  const row: Row = {
    id: `pay_extreme${n}`,
    receipt_id: `rcp_extreme${n}`,
    link_id: linkId,
    status: 'paid',
    amount: INT64_MAX,
    customer_name: 'Amina Benali',
    customer_phone: '0550123456',
    customer_email: 'amina@example.dz',
    language: 'ar',
    created_at: NOW - n,
    updated_at: NOW - n,
    ...values,
  }
  const keys = Object.keys(row)
  p.sqlite.sqlite
    .prepare(`INSERT INTO payments (${keys.join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`)
    .run(...keys.map((k) => row[k]))
  receipts.push(row.receipt_id as string)
}

beforeAll(async () => {
  p = await startPaylinks({ clock: () => NOW })
  // JSON text as stored: numbers written out in full, as no JavaScript number could hold them.
  const items = (unitPrice: string, quantity: string) =>
    `[{"description":"${LONG}","quantity":${quantity},"unitPrice":${unitPrice}},` +
    '{"description":"Café","quantity":2,"unitPrice":150000}]'
  insertLink(1, { amount: INT64_MAX, max_payments: 2 ** 31, title: LONG, description: LONG })
  insertLink(2, { amount_min: INT64_MIN, amount_max: INT64_MAX })
  insertLink(3, { amount_min: 0 })
  insertLink(4, { amount_min: INT64_MAX, amount_max: 1 })
  insertLink(5, { amount: 1.5, memo: LONG, success_message: LONG })
  insertLink(6, { amount: 'abc', invoice_id: LONG })
  insertLink(7, { amount: 9e18, invoice_items: items('9007199254740993', '1e6') })
  insertLink(8, { amount: 150000, invoice_items: items('-1e300', '-3') })
  insertLink(9, { amount_min: -1, amount_max: 1e300, active: 0, inactive_message: LONG })
  insertLink(10, { amount: INT64_MAX, expires_at: NOW - 1 })
  insertLink(11, { amount: 150000, invoice_items: '{"a":1}', expires_at: 9e15 })
  insertLink(12, { amount: 150000, invoice_items: '[1, null, "x", {}]' })
  let n = 0
  for (const status of PAYMENT_STATUSES) {
    for (const link of links.slice(0, 3)) insertPayment(++n, link.id, { status, paid_at: NOW })
  }
  // Three paid payments of 2^63 - 1: their sum overflows SQLite's integers.
  for (let i = 0; i < 2; i++) insertPayment(++n, links[0]!.id, { status: 'paid', paid_at: NOW })
  // Odd but storable payment amounts: a real number, text, the largest double.
  insertPayment(++n, links[4]!.id, { amount: 1.5, customer_name: LONG, message: LONG })
  insertPayment(++n, links[5]!.id, { amount: 'abc', ref: LONG, order_number: LONG })
  insertPayment(++n, links[6]!.id, {
    amount: Number.MAX_VALUE,
    customer_email: LONG,
    paid_at: 9e15,
  })
}, 30_000)

afterAll(async () => {
  await p.close()
})

const api = (path: string) =>
  p.app.request(path, { headers: { 'x-api-key': TEST_ADMIN_TOKEN, 'accept-language': 'en' } })

async function expectAnswered(res: Response, what: string) {
  const body = await res.text()
  expect(res.status, `${what}: ${body.slice(0, 200)}`).toBeLessThan(500)
  return body
}

describe('stored extremes', () => {
  it('are really in the file: 64-bit integers, reals and text in amount columns', () => {
    const rows = p.sqlite.sqlite
      .prepare('SELECT typeof(amount) AS t, count(*) AS n FROM payments GROUP BY 1 ORDER BY 1')
      .all()
    expect(rows).toEqual([
      { t: 'integer', n: 3 * PAYMENT_STATUSES.length + 2 },
      { t: 'real', n: 2 },
      { t: 'text', n: 1 },
    ])
  })

  it('every API read endpoint answers them, with the paid totals of many huge payments', async () => {
    const list = await api('/api/v1/links?limit=100')
    const body = JSON.parse(await expectAnswered(list, 'GET /api/v1/links'))
    expect(list.status).toBe(200)
    expect(body.data).toHaveLength(links.length)
    const first = body.data.find((l: { id: string }) => l.id === links[0]!.id)
    expect(first.amount).toBe(Number('92233720368547758.07'))
    expect(first.paid_total).toBe(Number('92233720368547758.07') * 3)
    for (const link of links) {
      const res = await api(`/api/v1/links/${link.id}`)
      await expectAnswered(res, link.id)
      expect(res.status).toBe(200)
    }
    const payments = await api('/api/v1/payments?limit=100')
    await expectAnswered(payments, 'GET /api/v1/payments')
    expect(payments.status).toBe(200)
    for (const receipt of receipts) {
      const id = receipt.replace('rcp_', 'pay_')
      const res = await api(`/api/v1/payments/${id}`)
      await expectAnswered(res, id)
      expect(res.status).toBe(200)
    }
  })

  it('every customer page shows them: checkout, QR codes, poster, receipt and its download', async () => {
    for (const link of links) {
      for (const path of ['', '/qr.svg', '/qr.png', '/poster', '?lang=ar', '?amount=1e400'])
        await expectAnswered(await p.app.request(`/l/${link.slug}${path}`), `${link.slug}${path}`)
    }
    for (const receipt of receipts) {
      for (const path of ['', '/download', '?lang=en'])
        await expectAnswered(await p.app.request(`/r/${receipt}${path}`), `${receipt}${path}`)
    }
    await p.settle()
  })

  it('every dashboard page shows them, and the CSV export lists them all', async () => {
    const browser = await signedIn(p)
    const pages = [
      '/dashboard',
      '/dashboard/links',
      '/dashboard/payments',
      '/dashboard/payments.csv',
    ]
    for (const link of links) {
      pages.push(`/dashboard/links/${link.id}`, `/dashboard/links/${link.id}/edit`)
      pages.push(`/dashboard/payments?link=${link.id}`)
    }
    for (const path of pages) {
      const res = await browser.get(path)
      await expectAnswered(res, path)
      expect(res.status, path).toBe(200)
    }
    const csv = await (await browser.get('/dashboard/payments.csv')).text()
    // better-sqlite3 reads 2^63 - 1 as the nearest double, 2^63: shown exactly as read.
    expect(csv).toContain('92233720368547758.08')
  })

  it('a checkout on such a link answers without a 5xx', async () => {
    for (const link of links) {
      const page = await p.app.request(`/l/${link.slug}`)
      const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? ''
      const res = await p.app.request(`/l/${link.slug}`, {
        method: 'POST',
        body: new URLSearchParams({ ...CUSTOMER, csrf, amount: '1500' }),
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-test-ip': link.id },
      })
      await expectAnswered(res, `POST ${link.slug}`)
    }
    await p.settle()
  })
})
