/**
 * Selling, end to end through the merchant API and the customer's form, over loopback HTTP with
 * the simulator: a product with a stock; a cart with a quantity the customer chooses, paid (the
 * amount, the lines on the receipt and the payment, the stock taken); the last unit wanted by
 * several customers at once (one goes to the card page, the others are told it is sold out); a
 * required wilaya refused when missing; a promo code applied and its limit held; the customer's
 * fee on the receipt; a deposit followed by the balance.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { setSetting } from '../../src/data/settings.js'
import { CUSTOMER_FEE_PERCENT_KEY } from '../../src/domain/customer-fee.js'
import { type Paylinks, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'

let p: Paylinks | undefined
afterEach(async () => {
  await p?.close()
  p = undefined
})

async function api(
  method: string,
  path: string,
  json?: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: answers are read by path and every value used is asserted.
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${p!.url}/api/v1${path}`, {
    method,
    headers: { 'x-api-key': TEST_ADMIN_TOKEN, 'content-type': 'application/json' },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  })
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : null }
}

const CUSTOMER = {
  name: 'Amina Benali',
  phone: '0550123456',
  email: 'amina@example.dz',
  terms: 'yes',
}

/** Opens the link's page (its form token) and posts the form with `fields`. */
async function submit(slug: string, fields: Record<string, string>, lang = 'fr') {
  const page = await (await fetch(`${p!.url}/l/${slug}?lang=${lang}`)).text()
  const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? ''
  return fetch(`${p!.url}/l/${slug}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...CUSTOMER, csrf, lang, ...fields }),
  })
}

/** Pays on the card page what `res` (a 303 to it) started; answers the receipt id. */
async function pay(res: Response): Promise<string> {
  expect(res.status).toBe(303)
  const location = res.headers.get('location') ?? ''
  const tx = [...p!.simulator.state.transactions.values()].find((t) => location.includes(t.orderId))
  if (!tx) throw new Error(`no transaction for ${location}`)
  await p!.simulator.completePayment(tx.cibTransactionId, 'approved')
  await p!.settle()
  return new URL(tx.returnUrl ?? '').pathname.split('/').pop() ?? ''
}

async function paymentOf(receiptId: string) {
  const list = await api('GET', '/payments?limit=100')
  const found = list.body.data.find((x: { receipt_url: string }) =>
    x.receipt_url.endsWith(receiptId),
  )
  return found
}

const receiptText = async (receiptId: string, lang = 'fr') =>
  (await (await fetch(`${p!.url}/r/${receiptId}?lang=${lang}`)).text()).replace(
    /\u202f|\u00a0/g,
    ' ',
  )

describe('selling', () => {
  it('sells a cart with a quantity the customer chooses, and takes the units off the stock', async () => {
    p = await startPaylinks({ http: true })
    const product = await api('POST', '/products', {
      name: 'Tapis berbère',
      price: 1500,
      stock: 3,
      sku: 'TAP-1',
    })
    expect(product.status).toBe(201)
    expect(product.body).toMatchObject({ stock: 3, price: 1500 })
    const link = await api('POST', '/links', {
      title: 'Boutique',
      line_items: [
        { product_id: product.body.id, quantity: 1, adjustable_quantity: { min: 1, max: 3 } },
      ],
    })
    expect(link.status).toBe(201)
    const slug = new URL(link.body.url).pathname.split('/')[2] as string
    const receipt = await pay(await submit(slug, { [`qty_${product.body.id}`]: '2' }))
    const payment = await paymentOf(receipt)
    expect(payment).toMatchObject({
      status: 'paid',
      amount: 3000,
      subtotal: 3000,
      line_items: [
        {
          product_id: product.body.id,
          name: 'Tapis berbère',
          quantity: 2,
          unit_price: 1500,
          amount: 3000,
        },
      ],
    })
    expect(await receiptText(receipt)).toContain('Tapis berbère')
    expect((await api('GET', `/products/${product.body.id}`)).body.stock).toBe(1)
  })

  it('sells the last unit once when several customers want it at the same time', async () => {
    p = await startPaylinks({ http: true })
    const product = await api('POST', '/products', { name: 'Burnous', price: 9000, stock: 1 })
    const link = await api('POST', '/links', {
      title: 'Burnous',
      line_items: [{ product_id: product.body.id, quantity: 1 }],
    })
    const slug = new URL(link.body.url).pathname.split('/')[2] as string
    const answers = await Promise.all([0, 1, 2, 3, 4].map(() => submit(slug, {})))
    const started = answers.filter((r) => r.status === 303)
    expect(started).toHaveLength(1)
    for (const r of answers.filter((a) => a.status !== 303)) {
      expect(r.status).toBeGreaterThanOrEqual(400)
      expect(r.status).toBeLessThan(500)
    }
    const receipt = await pay(started[0]!)
    expect((await paymentOf(receipt)).status).toBe('paid')
    expect((await api('GET', `/products/${product.body.id}`)).body.stock).toBe(0)
  })

  it('refuses a missing required wilaya, naming the field, and keeps a given one', async () => {
    p = await startPaylinks({ http: true })
    const link = await api('POST', '/links', {
      title: 'Livraison',
      amount: 2500,
      custom_fields: [{ key: 'wilaya', label: 'Wilaya', type: 'wilaya', required: true }],
    })
    expect(link.status).toBe(201)
    const slug = new URL(link.body.url).pathname.split('/')[2] as string
    const refused = await submit(slug, {})
    expect(refused.status).toBe(400)
    expect(await refused.text()).toMatch(/id="cf_wilaya-err"|cf_wilaya/)
    expect((await api('GET', '/payments')).body.data).toHaveLength(0)
    const receipt = await pay(await submit(slug, { cf_wilaya: '16' }))
    expect((await paymentOf(receipt)).custom_fields).toEqual({ wilaya: '16' })
    expect(await receiptText(receipt)).toContain('Alger')
  })

  it('applies a promo code and holds its limit', async () => {
    p = await startPaylinks({ http: true })
    const code = await api('POST', '/promo-codes', {
      code: 'RAMADAN',
      percent_off: 10,
      max_redemptions: 1,
    })
    expect(code.status).toBe(201)
    const link = await api('POST', '/links', {
      title: 'Formation',
      amount: 2000,
      allow_promo_codes: true,
    })
    const slug = new URL(link.body.url).pathname.split('/')[2] as string
    const first = await submit(slug, { promo_code: 'ramadan' })
    expect(first.status).toBe(303)
    // The first is still on the card page: its redemption is held.
    const second = await submit(slug, { promo_code: 'RAMADAN' })
    expect(second.status).toBeGreaterThanOrEqual(400)
    expect(second.status).toBeLessThan(500)
    const receipt = await pay(first)
    expect(await paymentOf(receipt)).toMatchObject({
      amount: 1800,
      subtotal: 2000,
      discount: 200,
      promo_code: 'RAMADAN',
    })
    expect((await api('GET', `/promo-codes/${code.body.id}`)).body.times_redeemed).toBe(1)
  })

  it('shows the customer’s fee on the receipt', async () => {
    p = await startPaylinks({ http: true })
    await setFeePercent(p, 2.5)
    const link = await api('POST', '/links', { title: 'Cours', amount: 4000, customer_fee: true })
    const slug = new URL(link.body.url).pathname.split('/')[2] as string
    const receipt = await pay(await submit(slug, {}))
    expect(await paymentOf(receipt)).toMatchObject({ amount: 4100, subtotal: 4000, fee: 100 })
    expect(await receiptText(receipt, 'en')).toMatch(/100[.,]00/)
  })

  it('takes a deposit, then the balance, and completes the link', async () => {
    p = await startPaylinks({ http: true })
    const link = await api('POST', '/links', {
      title: 'Voyage',
      amount: 10000,
      allow_partial: { min_amount: 3000 },
    })
    expect(link.status).toBe(201)
    expect(link.body).toMatchObject({ amount_due: 10000, balance: 10000 })
    const slug = new URL(link.body.url).pathname.split('/')[2] as string
    const first = await pay(await submit(slug, { amount: '4000' }))
    expect((await paymentOf(first)).amount).toBe(4000)
    expect((await api('GET', `/links/${link.body.id}`)).body).toMatchObject({ balance: 6000 })
    const second = await pay(await submit(slug, { amount: '6000' }))
    expect((await paymentOf(second)).amount).toBe(6000)
    expect((await api('GET', `/links/${link.body.id}`)).body).toMatchObject({
      balance: 0,
      status: 'completed',
    })
  })
})

/** The customer fee setting (hundredths of a percent), as the settings page stores it. */
async function setFeePercent(paylinks: Paylinks, percent: number): Promise<void> {
  const hundredths = String(Math.round(percent * 100))
  await setSetting(paylinks.deps.db, CUSTOMER_FEE_PERCENT_KEY, hundredths, paylinks.deps.clock())
}
