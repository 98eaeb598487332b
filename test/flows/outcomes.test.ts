import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { getPaymentById } from '../../src/data/payments.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { openCheckout, pathOf, startPayment, submitCheckout } from './support.js'

let p: Paylinks
beforeEach(async () => {
  p = await startPaylinks()
})
afterEach(async () => {
  await p.close()
})

describe('payment outcomes', () => {
  it.each([
    ['insufficient_funds', 'failed', 'Paiement non abouti'],
    ['declined', 'failed', 'Paiement non abouti'],
    ['expired_card', 'failed', 'Paiement non abouti'],
    ['canceled', 'canceled', 'Paiement annulé'],
    ['session_expired', 'expired', 'Session de paiement expirée'],
  ] as const)(
    'records %s as %s and shows the failure page with a way to try again',
    async (outcome, status, title) => {
      const link = await makeLink(p, { title: 'Commande', amount: 2500, language: 'fr' })
      const { tx, payment } = await startPayment(p, link.slug)
      await p.simulator.completePayment(tx.cibTransactionId, outcome)
      await p.settle()
      expect((await getPaymentById(p.deps.db, payment.id))?.status).toBe(status)
      const res = await p.app.request(pathOf(tx.returnRedirect ?? ''))
      const html = await res.text()
      expect(html).toContain(title)
      // "Try again" names this payment, whose details fill the form again (test/flows/retry.test.ts).
      expect(html).toContain(`href="/l/${link.slug}?lang=fr&amp;retry=${payment.receiptId}"`)
      expect(html).toContain('3020')
      expect(html).not.toContain('Paiement réussi')
    },
  )

  it('shows the bank message of a decline on the failure page', async () => {
    const link = await makeLink(p, { title: 'Commande', amount: 2500, language: 'en' })
    const { tx, payment } = await startPayment(p, link.slug)
    await p.simulator.completePayment(tx.cibTransactionId, 'insufficient_funds')
    await p.settle()
    const settled = await getPaymentById(p.deps.db, payment.id)
    expect(settled?.actionCode).toBe('116')
    expect(settled?.message).toBeTruthy()
    const html = await (await p.app.request(pathOf(tx.returnRedirect ?? ''))).text()
    expect(html).toContain(settled?.message ?? 'missing')
  })

  it('takes an open amount within the link range and refuses one outside it', async () => {
    const link = await makeLink(p, {
      title: 'Don',
      amount_min: 100,
      amount_max: 5000,
      language: 'en',
    })
    const page = await openCheckout(p, link.slug)
    expect(page.html).toContain('name="amount"')
    for (const amount of ['99.99', '5000.01', '12.345', 'abc', '']) {
      const refused = await submitCheckout(p, link.slug, { amount })
      expect(refused.status).toBe(400)
      expect(await refused.text()).toContain('id="amount-err"')
    }
    expect(p.simulator.state.transactions.size).toBe(0)
    const { tx, payment } = await startPayment(p, link.slug, { amount: '1299.50' })
    expect(payment.amount).toBe(129950)
    expect(tx.amount).toBe(129950)
  })

  it('pays an invoice link whose gateway invoice was created from its items', async () => {
    const link = await makeLink(p, {
      title: 'Facture 2026-114',
      invoice_items: [
        { description: 'Consultation', quantity: 2, unit_price: 1200 },
        { description: 'Frais de dossier', quantity: 1, unit_price: 350.5 },
      ],
      language: 'fr',
    })
    expect(link.amount).toBe(275050)
    expect(link.invoiceId).toBeTruthy()
    expect(p.simulator.state.invoices.has(link.invoiceId ?? '')).toBe(true)
    const page = await openCheckout(p, link.slug)
    expect(page.html).toContain('Consultation')
    expect(page.html).toContain('Frais de dossier')
    const { tx } = await startPayment(p, link.slug)
    expect(tx.invoiceId).toBe(link.invoiceId)
    expect(tx.amount).toBe(275050)
  })

  it('pays a link for an existing gateway invoice id', async () => {
    const link = await makeLink(p, {
      title: 'Facture existante',
      invoice_id: 'INV-42',
      amount: 900,
    })
    const { tx } = await startPayment(p, link.slug)
    expect(tx.invoiceId).toBe('INV-42')
    expect(tx.amount).toBe(90000)
  })

  it('passes the memo cut to 28 bytes on a character boundary and the language', async () => {
    const link = await makeLink(p, {
      title: 'Arabic',
      amount: 100,
      memo: 'اشتراك شهري في النادي الرياضي',
      language: 'ar',
    })
    const { tx } = await startPayment(p, link.slug)
    expect(new TextEncoder().encode(tx.memo ?? '').length).toBeLessThanOrEqual(28)
    expect(tx.memo).toBe('اشتراك شهري في')
    expect(tx.language).toBe('ar')
  })
})
