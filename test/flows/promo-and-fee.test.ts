/**
 * A promo code and the customer's fee through the checkout form and the simulator: the discount
 * and the fee priced on the server, the card charged their total, the receipt (page, PDF input)
 * and the API's payment object showing each part; "Apply" without script re-rendering the page
 * with the discount and nothing written; the code's terms as JSON for the page's script; every
 * refusal named on the promo_code field in the page's language; a code used up meanwhile.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { getPaymentById } from '../../src/data/payments.js'
import { createPromoCode, type PromoCodeValues } from '../../src/data/promo-codes.js'
import { setSetting } from '../../src/data/settings.js'
import { CUSTOMER_FEE_PERCENT_KEY } from '../../src/domain/customer-fee.js'
import { api } from '../api/helpers.js'
import { signedIn } from '../dashboard/helpers.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { openCheckout, startPayment, submitCheckout } from './support.js'

const T0 = Date.UTC(2026, 2, 1, 9, 30, 0)
let now = T0
let p: Paylinks
beforeEach(async () => {
  now = T0
  p = await startPaylinks({ clock: () => now })
})
afterEach(() => p.close())

async function code(values: Partial<PromoCodeValues> = {}) {
  const made = await createPromoCode(
    p.deps.db,
    {
      code: 'Ramadan10',
      percentOff: 10,
      amountOff: null,
      minAmount: null,
      maxRedemptions: null,
      expiresAt: null,
      active: true,
      ...values,
    },
    now,
  )
  if (!made.ok) throw new Error(made.kind)
  return made.promoCode
}

const rows = (table: string) =>
  (p.sqlite.sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n

describe('a promo code and the customer fee, paid through the simulator', () => {
  it('charges subtotal − discount + fee, and shows each part on the receipt and the payment object', async () => {
    await code()
    // 2.5 %: (1 500 − 150) × 2.5 % = 33,75 DA.
    await setSetting(p.deps.db, CUSTOMER_FEE_PERCENT_KEY, '250', now)
    const link = await makeLink(p, {
      title: 'Atelier poterie',
      amount: 1500,
      language: 'fr',
      allow_promo_codes: true,
      customer_fee: true,
    })
    const page = await openCheckout(p, link.slug)
    expect(page.html).toContain('id="order-summary"')
    expect(page.html).toContain('Frais de paiement (2,5\u00a0%)')
    expect(page.html).toMatch(/Payer 1\s537,50\sDA/)

    const { tx, payment, receiptId } = await startPayment(p, link.slug, { promo_code: 'ramadan10' })
    expect(tx.amount).toBe(135_000 + 3_375)
    expect(payment).toMatchObject({
      amount: 138_375,
      subtotal: 150_000,
      discount: 15_000,
      fee: 3_375,
      promoCode: 'Ramadan10',
    })
    await p.simulator.completePayment(tx.cibTransactionId, 'approved')
    await p.settle()
    expect((await getPaymentById(p.deps.db, payment.id))?.status).toBe('paid')
    const held = p.sqlite.sqlite
      .prepare('SELECT redeemed_count, held_count FROM promo_codes')
      .get() as Record<string, number>
    expect(held).toEqual({ redeemed_count: 1, held_count: 0 })

    const receipt = await (await p.app.request(`/r/${receiptId}`)).text()
    expect(receipt).toMatch(/Sous-total[\s\S]*1\s500,00\sDA/)
    expect(receipt).toMatch(/Remise \(Ramadan10\)[\s\S]*−150,00\sDA/)
    expect(receipt).toMatch(/Frais de paiement<[\s\S]*33,75\sDA/)
    expect(receipt).toMatch(/1\s383,75\sDA/)

    const object = await api(p, 'GET', `/api/v1/payments/${payment.id}`)
    expect(object.body).toMatchObject({
      amount: 1383.75,
      subtotal: 1500,
      discount: 150,
      promo_code: 'Ramadan10',
      fee: 33.75,
    })

    // The merchant sees the fee apart: the payment's page and the CSV's last columns.
    const owner = await signedIn(p)
    const detail = await (await owner.get(`/dashboard/payments/${payment.id}`)).text()
    expect(detail).toMatch(/Subtotal[\s\S]*1,500.00\u00a0DA/)
    expect(detail).toMatch(/Discount \(Ramadan10\)[\s\S]*−150.00\u00a0DA/)
    expect(detail).toMatch(/Fee paid by the customer[\s\S]*33.75\u00a0DA/)
    const csv = (await (await owner.get('/dashboard/payments.csv')).text()).trim().split('\r\n')
    const header = csv[0]!.replace(/^\ufeff/, '').split(',')
    const row = csv[1]!.split(',')
    const cell = (name: string) => row[header.indexOf(name)]
    expect([cell('amount_dzd'), cell('discount'), cell('promo_code'), cell('fee')]).toEqual([
      '1383.75',
      '150.00',
      'Ramadan10',
      '33.75',
    ])
  })

  it('"Apply" without script shows the discount and the total, writing nothing', async () => {
    await code({ code: 'BIENVENUE', percentOff: null, amountOff: 20_000 })
    const link = await makeLink(p, {
      title: 'Cours',
      amount: 1500,
      allow_promo_codes: true,
      language: 'en',
    })
    // No customer details, no captcha, no terms: only the code is looked at.
    const { csrf } = await openCheckout(p, link.slug)
    const res = await p.app.request(`/l/${link.slug}`, {
      method: 'POST',
      body: new URLSearchParams({
        csrf: csrf ?? '',
        promo_code: 'bienvenue',
        apply_promo: '1',
        lang: 'en',
      }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('Code BIENVENUE applied: 200.00\u00a0DA off.')
    expect(html).toMatch(/Discount \(BIENVENUE\)[\s\S]*−200.00\u00a0DA/)
    expect(html).toContain('Pay 1,300.00\u00a0DA')
    expect(html).toContain('value="bienvenue"')
    expect(html).not.toContain('class="err"')
    expect(rows('payments')).toBe(0)
  })

  it('names the promo_code field for an unknown, inactive, expired, too small or used-up code, in the page language', async () => {
    await code({ code: 'OFF', active: false })
    await code({ code: 'OLD', expiresAt: T0 - 1 })
    await code({ code: 'BIG', minAmount: 200_000 })
    await code({ code: 'ONCE', maxRedemptions: 1 })
    const link = await makeLink(p, {
      title: 'Cours',
      amount: 1500,
      allow_promo_codes: true,
      language: 'fr',
    })
    const refused = async (typed: string) => {
      const res = await submitCheckout(p, link.slug, { promo_code: typed, lang: 'fr' })
      expect(res.status).toBe(400)
      const html = await res.text()
      expect(html).toContain('aria-describedby="promo_code-err"')
      return /id="promo_code-err">([^<]*)</.exec(html)?.[1]
    }
    expect(await refused('NOPE')).toBe('Ce code promo n’existe pas.')
    expect(await refused('off')).toBe('Ce code promo n’est plus valable.')
    expect(await refused('old')).toBe('Ce code promo a expiré.')
    expect(await refused('big')).toMatch(/^Ce code promo s’applique à partir de 2\s000,00\sDA\.$/)
    expect(await refused('<b>')).toBe('Un code promo compte 3 à 40 lettres, chiffres, _ ou -.')
    await startPayment(p, link.slug, { promo_code: 'once' })
    expect(await refused('ONCE')).toBe(
      'Ce code promo a été utilisé autant de fois qu’il le permet.',
    )
    // A link that takes no codes shows no field for one, and looks at none posted.
    await code({ code: 'ANY' })
    const plain = await makeLink(p, { title: 'Don', amount: 1500, language: 'fr' })
    expect((await openCheckout(p, plain.slug)).html).not.toContain('promo_code')
    const full = await startPayment(p, plain.slug, { promo_code: 'ANY' })
    expect(full.payment).toMatchObject({ amount: 150_000, discount: 0, promoCode: null })
  })

  it('answers the code terms as JSON for the page script, no-store, in the page language', async () => {
    await code({ minAmount: 100_000 })
    const link = await makeLink(p, { title: 'Cours', amount: 1500, allow_promo_codes: true })
    const ok = await p.app.request(`/l/${link.slug}/promo?code=RAMADAN10&lang=en`)
    expect(ok.headers.get('cache-control')).toBe('no-store')
    expect(await ok.json()).toEqual({
      ok: true,
      code: 'Ramadan10',
      percent_off: 10,
      amount_off: null,
      min_amount: 100_000,
    })
    const no = await p.app.request(`/l/${link.slug}/promo?code=ZZZ&lang=ar`)
    expect(await no.json()).toEqual({ ok: false, message: 'رمز التخفيض هذا غير موجود.' })
  })

  it('is counted with the checkout submissions, so codes cannot be tried faster than payments', async () => {
    const link = await makeLink(p, { title: 'Cours', amount: 1500, allow_promo_codes: true })
    const statuses: number[] = []
    for (let i = 0; i < 11; i++)
      statuses.push((await p.app.request(`/l/${link.slug}/promo?code=TRY${i}&lang=en`)).status)
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true)
    expect(statuses[10]).toBe(429)
  })
})
