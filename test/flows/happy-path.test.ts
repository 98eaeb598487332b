import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { getPaymentById } from '../../src/data/payments.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink, openCheckout, pathOf, startPayment } from './support.js'

let p: Paylinks
beforeEach(async () => {
  p = await startPaylinks()
})
afterEach(async () => {
  await p.close()
})

describe('a customer pays a fixed-amount link', () => {
  it('shows the link, starts the payment, settles it through webhook and check, and shows the receipt', async () => {
    const link = await makeLink(p, { title: 'Abonnement mensuel', amount: 1500, language: 'fr' })
    const page = await openCheckout(p, link.slug)
    expect(page.res.status).toBe(200)
    expect(page.html).toContain('Abonnement mensuel')
    expect(page.html).toMatch(/1\s500,00\sDA/)
    expect(page.html).toContain('3020')

    const { location, tx, payment, receiptId } = await startPayment(p, link.slug)
    expect(location).toContain('/_sim/')
    expect(payment.status).toBe('pending')
    expect(tx.amount).toBe(150000)
    expect(tx.returnUrl).toBe(`${p.url}/r/${receiptId}`)
    expect(tx.webhookUrl).toBe(`${p.url}/webhooks/gateway`)
    expect(tx.keepReturnUrl).toBe(true)

    await p.simulator.completePayment(tx.cibTransactionId, 'approved')
    await p.settle()
    const settled = await getPaymentById(p.deps.db, payment.id)
    expect(settled?.status).toBe('paid')
    expect(settled?.approvalCode).toBeTruthy()

    const receipt = await p.app.request(pathOf(tx.returnRedirect ?? ''))
    const html = await receipt.text()
    expect(receipt.status).toBe(200)
    expect(html).toContain('Paiement réussi')
    expect(html).toContain(settled?.approvalCode ?? 'missing')
    expect(html).toMatch(/1\s500,00\sDA/)
  })
})
