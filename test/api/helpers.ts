/** Helpers for the merchant API tests: JSON requests with the admin token, and a checkout as a browser does it. */
import { expect } from 'vitest'
import { getPaymentByReceiptId } from '../../src/data/payments.js'
import { type Paylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'

// biome-ignore lint/suspicious/noExplicitAny: tests read answers by path and assert every value they use.
export type ApiAnswer = { status: number; headers: Headers; body: any }

/** Sends a request to the API with the admin token (`token: null` sends none; `headers` add or replace). */
export async function api(
  p: Paylinks,
  method: string,
  path: string,
  options: {
    json?: unknown
    raw?: string
    headers?: Record<string, string>
    token?: string | null
  } = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { ...options.headers }
  if (options.token !== null) headers['x-api-key'] ??= options.token ?? TEST_ADMIN_TOKEN
  let body: string | undefined = options.raw
  if (options.json !== undefined) {
    body = JSON.stringify(options.json)
    headers['content-type'] ??= 'application/json'
  }
  const res = await p.app.request(path, {
    method,
    headers,
    ...(body !== undefined ? { body } : {}),
  })
  const text = await res.text()
  return { status: res.status, headers: res.headers, body: text === '' ? null : JSON.parse(text) }
}

/** The number of rows in a table, to show that a refused request changed nothing. */
export function rowCount(p: Paylinks, table: 'links' | 'payments'): number {
  return (p.sqlite.sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n
}

/** Opens the checkout page, reads its CSRF token and submits the form; returns the payment. */
export async function payThroughCheckout(
  p: Paylinks,
  slug: string,
  fields: Record<string, string> = {},
) {
  const page = await p.app.request(`/l/${slug}`)
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1]
  expect(csrf).toBeTruthy()
  const form = new URLSearchParams({
    name: 'Amina Benali',
    phone: '0550123456',
    email: 'amina@example.dz',
    terms: 'yes',
    csrf: csrf ?? '',
    ...fields,
  })
  const res = await p.app.request(`/l/${slug}`, {
    method: 'POST',
    body: form,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  expect(res.status).toBe(303)
  const location = res.headers.get('location') ?? ''
  const tx = [...p.simulator.state.transactions.values()].find(
    (t) => location.includes(t.orderId) || location.includes(t.transactionId),
  )
  if (!tx?.returnUrl) throw new Error(`no simulator transaction for ${location}`)
  const payment = await getPaymentByReceiptId(
    p.deps.db,
    new URL(tx.returnUrl).pathname.split('/').pop()!,
  )
  if (!payment) throw new Error('no payment row')
  return { tx, payment }
}
