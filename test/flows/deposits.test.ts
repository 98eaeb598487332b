/**
 * A deposit link through the app and the simulator over loopback: a first part, then the balance;
 * the page, the link's API object, the receipts and the link.completed event along the way.
 */
import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { deliveries } from '../../db/schema.js'
import { getPaymentById } from '../../src/data/payments.js'
import { createEndpoint } from '../../src/outbound-webhooks/endpoints.js'
import { api } from '../api/helpers.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { postLink } from '../support/links.js'
import { openCheckout, startPayment, submitCheckout } from './support.js'

let p: Paylinks
beforeEach(async () => {
  p = await startPaylinks()
})
afterEach(async () => {
  await p.close()
})

/** The value the page's amount input is prefilled with. */
const prefill = (html: string) => /id="amount"[^>]*value="([^"]*)"/.exec(html)?.[1]

async function payPart(slug: string, amount: string) {
  const started = await startPayment(p, slug, { amount })
  await p.simulator.completePayment(started.tx.cibTransactionId, 'approved')
  await p.settle()
  const paid = await getPaymentById(p.deps.db, started.payment.id)
  expect(paid?.status).toBe('paid')
  return { ...started, paid: paid! }
}

describe('a deposit link', () => {
  it('takes a deposit then the balance, completes, and its receipts say what was paid and what remains', async () => {
    const endpoint = await createEndpoint(
      p.deps.db,
      {
        url: 'https://hooks.example.dz/in',
        description: null,
        eventTypes: ['link.completed'],
        enabled: true,
      },
      p.deps.clock(),
    )
    const link = await postLink(p, {
      title: 'Voyage scolaire',
      amount: 3000,
      allow_partial: { min_amount: 1000 },
      language: 'fr',
    })
    expect(link).toMatchObject({
      allow_partial: { min_amount: 1000 },
      amount_due: 3000,
      balance: 3000,
      max_payments: null,
    })

    const first = await openCheckout(p, link.slug)
    expect(first.res.status).toBe(200)
    expect(first.html).toContain('Déjà payé')
    expect(first.html).toMatch(/Reste à payer<\/th><td class="num"><bdi>3\s000,00\sDA/)
    expect(prefill(first.html)).toBe('3000')

    // Less than the least part, more than the balance: the form again, the field named.
    const low = await submitCheckout(p, link.slug, { amount: '500' })
    expect(low.status).toBe(400)
    const lowHtml = await low.text()
    expect(lowHtml).toContain('id="amount-err"')
    expect(lowHtml).toMatch(/au moins 1\s000,00\sDA, ou tout le reste/)
    const high = await submitCheckout(p, link.slug, { amount: '3000.01' })
    expect(high.status).toBe(400)
    expect(await high.text()).toMatch(/au plus 3\s000,00\sDA, le reste à payer/)

    const deposit = await payPart(link.slug, '1000')
    expect(deposit.tx.amount).toBe(100000)
    expect(deposit.paid).toMatchObject({ amount: 100000, subtotal: 100000 })
    const after = (await api(p, 'GET', `/api/v1/links/${link.id}`)).body
    expect(after).toMatchObject({ status: 'active', paid_total: 1000, balance: 2000 })

    const second = await openCheckout(p, link.slug)
    expect(second.html).toMatch(/Déjà payé<\/th><td class="num"><bdi>1\s000,00\sDA/)
    expect(prefill(second.html)).toBe('2000')

    const firstReceipt = await (await p.app.request(`/r/${deposit.receiptId}`)).text()
    expect(firstReceipt).toMatch(/Reste à payer<\/dt><dd><bdi>2\s000,00\sDA/)

    // The balance, less than the least part would be had it been smaller: the whole rest.
    const rest = await payPart(link.slug, '2000')
    expect(rest.tx.amount).toBe(200000)
    const done = (await api(p, 'GET', `/api/v1/links/${link.id}`)).body
    expect(done).toMatchObject({ status: 'completed', paid_count: 2, paid_total: 3000, balance: 0 })

    const lastReceipt = await (await p.app.request(`/r/${rest.receiptId}`)).text()
    expect(lastReceipt).toContain('Payé en totalité')
    expect(lastReceipt).toMatch(/Déjà payé<\/dt><dd><bdi>3\s000,00\sDA/)
    // The first part's receipt still tells what remained right after it.
    expect(await (await p.app.request(`/r/${deposit.receiptId}`)).text()).toMatch(
      /Reste à payer<\/dt><dd><bdi>2\s000,00\sDA/,
    )
    const pdf = await p.app.request(`/r/${rest.receiptId}/download?lang=fr`)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')

    // Paid in full: the page says so, and link.completed names the last part, once.
    expect((await openCheckout(p, link.slug)).res.status).toBe(410)
    const events = await p.deps.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.endpointId, endpoint.id))
    expect(events.map((e) => [e.type, e.paymentId])).toEqual([['link.completed', rest.paid.id]])
  })

  it('tells a second customer to wait while a part in flight holds the balance', async () => {
    const link = await postLink(p, {
      title: 'Séjour',
      amount: 3000,
      allow_partial: { min_amount: 1000 },
      language: 'en',
    })
    const held = await startPayment(p, link.slug, { amount: '2000' })
    expect(held.payment.status).toBe('pending')
    const second = await submitCheckout(p, link.slug, { amount: '3000' })
    expect(second.status).toBe(409)
    expect(await second.text()).toContain('Try again')
    // The part that fits beside the one in flight is taken.
    expect((await startPayment(p, link.slug, { amount: '1000' })).payment.status).toBe('pending')
  })

  it('shows the form again with the new balance when another part was paid meanwhile', async () => {
    // The race between pricing the part and the INSERT that holds it cannot be timed from
    // outside: a clock that, read as startCheckout starts the payment, first lets the part in
    // flight be paid (one synchronous UPDATE, its triggers included).
    let payMeanwhile: (() => void) | null = null
    const clock = () => {
      if (payMeanwhile && /at startCheckout/.test(new Error().stack ?? '')) {
        const pay = payMeanwhile
        payMeanwhile = null
        pay()
      }
      return Date.now()
    }
    await p.close()
    p = await startPaylinks({ clock })
    const link = await postLink(p, {
      title: 'Séjour',
      amount: 3000,
      allow_partial: { min_amount: 1000 },
      language: 'fr',
    })
    const held = await startPayment(p, link.slug, { amount: '2000' })
    payMeanwhile = () =>
      p.sqlite.sqlite
        .prepare("UPDATE payments SET status = 'paid', paid_at = ? WHERE id = ?")
        .run(Date.now(), held.payment.id)
    // 1 500 DA is priced against a balance of 3 000 DA; then the 2 000 DA part is paid: 1 000 remain.
    const res = await submitCheckout(p, link.slug, { amount: '1500' })
    expect(payMeanwhile).toBeNull()
    expect(res.status).toBe(409)
    const html = await res.text()
    expect(html).toMatch(/Le reste à payer a changé : il reste 1\s000,00\sDA/)
    expect(prefill(html)).toBe('1000')
    expect(html).toContain('value="Amina Benali"')
  })

  it('shows an invoice deposit link as an invoice paid once the balance is paid', async () => {
    const link = await postLink(p, {
      title: 'Facture 42',
      invoice_items: [{ description: 'Formation', quantity: 2, unit_price: 1500 }],
      allow_partial: { min_amount: 1000 },
      language: 'fr',
    })
    expect(link).toMatchObject({ amount_due: 3000, max_payments: null })
    await payPart(link.slug, '1500')
    expect((await openCheckout(p, link.slug)).res.status).toBe(200)
    await payPart(link.slug, '1500')
    const page = await openCheckout(p, link.slug)
    expect(page.res.status).toBe(410)
    expect(page.html).toContain('Facture 42')
    expect(page.html).toMatch(/3\s000,00\sDA/)
  })
})
