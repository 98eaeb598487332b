/** Helpers for driving Paylinks the way a customer's browser does. */
import { expect } from 'vitest'
import { getPaymentByReceiptId } from '../../src/data/payments.js'
import type { Paylinks } from '../support/harness.js'

/** Reads the CSRF token from the checkout form. */
export async function openCheckout(p: Paylinks, slug: string, query = '') {
  const res = await p.app.request(`/l/${slug}${query}`)
  const html = await res.text()
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1]
  return { res, html, csrf }
}

export const CUSTOMER = {
  name: 'Amina Benali',
  phone: '0550123456',
  email: 'amina@example.dz',
  terms: 'yes',
}

/** Submits the checkout form (fresh CSRF token unless given). */
export async function submitCheckout(
  p: Paylinks,
  slug: string,
  fields: Record<string, string> = {},
  headers: Record<string, string> = {},
) {
  const { csrf } = await openCheckout(p, slug)
  const form = new URLSearchParams({ ...CUSTOMER, csrf: csrf ?? '', ...fields })
  return p.app.request(`/l/${slug}`, {
    method: 'POST',
    body: form,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  })
}

/** Starts a payment and returns the simulator transaction and the payment row. */
export async function startPayment(
  p: Paylinks,
  slug: string,
  fields: Record<string, string> = {},
  headers: Record<string, string> = {},
) {
  const res = await submitCheckout(p, slug, fields, headers)
  expect(res.status).toBe(303)
  const location = res.headers.get('location') ?? ''
  const tx = [...p.simulator.state.transactions.values()].find(
    (t) => location.includes(t.orderId) || location.includes(t.transactionId),
  )
  if (!tx) throw new Error(`no simulator transaction for ${location}`)
  const receiptId = new URL(tx.returnUrl ?? '').pathname.split('/').pop() ?? ''
  const payment = await getPaymentByReceiptId(p.deps.db, receiptId)
  if (!payment) throw new Error('no payment row')
  return { location, tx, payment, receiptId }
}

/** The path and query of an absolute URL, for `app.request`. */
export function pathOf(url: string): string {
  const u = new URL(url)
  return u.pathname + u.search
}
