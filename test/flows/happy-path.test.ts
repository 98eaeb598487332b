import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { getPaymentById } from '../../src/data/payments.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { openCheckout, pathOf, startPayment } from './support.js'

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
    // The order number the card page shows, kept from the start (the dashboard shows it while
    // the payment is pending).
    expect(payment.orderNumber).toBe(tx.cibTransactionId)
    expect(tx.amount).toBe(150000)
    // The receipt id again in the query: the signed message then names the payment.
    expect(tx.returnUrl).toBe(`${p.url}/r/${receiptId}?r=${receiptId}`)
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

describe('the receipt', () => {
  it('offers print and download, then the merchant message and the link on', async () => {
    const link = await makeLink(p, {
      title: 'Atelier',
      amount: 800,
      language: 'en',
      success_message: 'See you on Saturday!',
      success_url: 'https://shop.example.dz/thanks',
    })
    const { tx, receiptId } = await startPayment(p, link.slug, { ref: 'CMD-77' })
    const early = await p.app.request(`/r/${receiptId}/download`)
    expect(early.status).toBe(404)
    await p.simulator.completePayment(tx.cibTransactionId, 'approved')
    await p.settle()
    const html = await (await p.app.request(`/r/${receiptId}`)).text()
    expect(html).toContain('id="print-receipt"')
    expect(html).toContain(`href="/r/${receiptId}/download?lang=en"`)
    expect(html).toContain('See you on Saturday!')
    expect(html).toContain('href="https://shop.example.dz/thanks"')
    expect(html).toContain('CMD-77')
    expect(html).toContain('CIB / Edahabia card')
    expect(html).toContain('Download PDF')
    const file = await p.app.request(`/r/${receiptId}/download?lang=en`)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('application/pdf')
    expect(file.headers.get('content-disposition')).toMatch(
      /^attachment; filename="receipt-[\w.-]+\.pdf"$/,
    )
    expect(file.headers.get('cache-control')).toBe('no-store')
    const saved = new Uint8Array(await file.arrayBuffer())
    expect(new TextDecoder().decode(saved.subarray(0, 5))).toBe('%PDF-')
  })

  it('downloads as a self-contained HTML file where the runtime makes no PDF', async () => {
    const plain = await startPaylinks()
    try {
      plain.deps.receiptPdf = undefined
      const link = await makeLink(plain, { title: 'Atelier', amount: 800, language: 'en' })
      const { tx, receiptId } = await startPayment(plain, link.slug)
      await plain.simulator.completePayment(tx.cibTransactionId, 'approved')
      await plain.settle()
      const html = await (await plain.app.request(`/r/${receiptId}`)).text()
      expect(html).not.toContain('Download PDF')
      const file = await plain.app.request(`/r/${receiptId}/download?lang=en`)
      expect(file.headers.get('content-disposition')).toMatch(
        /^attachment; filename="receipt-[\w.-]+\.html"$/,
      )
      const saved = await file.text()
      expect(saved).toContain('Payment successful')
      expect(saved).not.toContain('<script')
    } finally {
      await plain.close()
    }
  })

  it('answers 404 for an unknown receipt id', async () => {
    expect((await p.app.request('/r/AAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404)
  })
})
