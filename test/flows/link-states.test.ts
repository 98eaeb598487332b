import { afterEach, describe, expect, it } from 'vitest'
import { updateLink } from '../../src/data/links.js'
import { getPaymentById } from '../../src/data/payments.js'
import { formatAmount, formatDateTime } from '../../src/i18n/index.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { CUSTOMER, openCheckout, startPayment, submitCheckout } from './support.js'

let p: Paylinks
afterEach(async () => {
  await p.close()
})

describe('links a customer cannot pay', () => {
  it('shows the merchant message of an inactive link and refuses its form', async () => {
    p = await startPaylinks()
    const link = await makeLink(p, { title: 'Off', amount: 100, language: 'en' })
    const { csrf } = await openCheckout(p, link.slug)
    await updateLink(
      p.deps.db,
      link.id,
      { active: false, inactiveMessage: 'Back in March' },
      Date.now(),
    )
    const page = await p.app.request(`/l/${link.slug}`)
    expect(page.status).toBe(403)
    const html = await page.text()
    expect(html).toContain('This payment link is not active')
    expect(html).toContain('Back in March')
    expect(html).not.toContain('name="csrf"')
    const post = await p.app.request(`/l/${link.slug}`, {
      method: 'POST',
      body: new URLSearchParams({
        name: 'A B',
        phone: '0550123456',
        email: 'a@b.dz',
        terms: 'yes',
        csrf: csrf ?? '',
      }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(post.status).toBe(403)
    expect(p.simulator.state.transactions.size).toBe(0)
  })

  it('shows an expired link as expired once its date has passed', async () => {
    let now = Date.parse('2026-11-22T10:00:00Z')
    p = await startPaylinks({ clock: () => now })
    const link = await makeLink(p, {
      title: 'Soon over',
      amount: 100,
      expires_at: '2026-11-22T12:00:00Z',
      language: 'en',
    })
    expect((await p.app.request(`/l/${link.slug}`)).status).toBe(200)
    now = Date.parse('2026-11-22T12:00:01Z')
    const res = await p.app.request(`/l/${link.slug}`)
    expect(res.status).toBe(410)
    expect(await res.text()).toContain('This payment link has expired')
  })

  it('tells the next customer that a payment is in progress, then that the link is used', async () => {
    p = await startPaylinks()
    const link = await makeLink(p, {
      title: 'Single use',
      amount: 300,
      max_payments: 1,
      language: 'en',
    })
    const first = await startPayment(p, link.slug)
    const busy = await submitCheckout(p, link.slug)
    expect(busy.status).toBe(409)
    expect(busy.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(await busy.text()).toContain('A payment is in progress')
    await p.simulator.completePayment(first.tx.cibTransactionId, 'approved')
    await p.settle()
    expect((await getPaymentById(p.deps.db, first.payment.id))?.status).toBe('paid')
    const done = await p.app.request(`/l/${link.slug}`)
    expect(done.status).toBe(410)
    expect(await done.text()).toContain('This payment link has been used')
  })

  it('shows a paid invoice as already paid, with the date it was paid, in every language', async () => {
    const paidAt = Date.parse('2026-11-22T10:05:00Z')
    p = await startPaylinks({ clock: () => paidAt })
    // No max_payments given: an invoice link takes one payment.
    const link = await makeLink(p, {
      title: 'Commande 1042',
      invoice_items: [{ description: 'Livre', quantity: 2, unit_price: 1299.5 }],
      language: 'en',
    })
    expect(link.maxPayments).toBe(1)
    const { csrf } = await openCheckout(p, link.slug)
    const first = await startPayment(p, link.slug)
    await p.simulator.completePayment(first.tx.cibTransactionId, 'approved')
    await p.settle()
    expect((await getPaymentById(p.deps.db, first.payment.id))?.paidAt).toBe(paidAt)

    const en = await p.app.request(`/l/${link.slug}`)
    expect(en.status).toBe(410)
    const html = await en.text()
    expect(html).toContain('This invoice is already paid')
    // 10:05 UTC is 11:05 in Algiers.
    expect(html).toContain('It was paid on 22 November 2026 at 11:05.')
    expect(html).toContain('Commande 1042')
    expect(html).toContain(formatAmount(259900, 'en'))
    expect(html).not.toContain('name="csrf"')
    expect(html).not.toContain('<form')
    for (const [lang, title] of [
      ['fr', 'Cette facture est déjà payée'],
      ['ar', 'هذه الفاتورة مدفوعة'],
    ] as const) {
      const page = await (await p.app.request(`/l/${link.slug}?lang=${lang}`)).text()
      expect(page).toContain(title)
      expect(page).toContain(formatDateTime(paidAt, lang))
      expect(page).not.toContain('<form')
    }

    // A customer who sends the form opened before it was paid pays nothing.
    const again = await p.app.request(`/l/${link.slug}`, {
      method: 'POST',
      body: new URLSearchParams({ ...CUSTOMER, csrf: csrf ?? '' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(again.status).toBe(410)
    expect(await again.text()).toContain('This invoice is already paid')
    expect(p.simulator.state.transactions.size).toBe(1)
  })

  it('shows already paid in place of the prepared checkout page once the invoice is paid', async () => {
    p = await startPaylinks()
    const link = await makeLink(p, {
      title: 'Facture 7',
      invoice_id: 'inv_7',
      amount: 300,
      language: 'fr',
    })
    await p.app.request(`/l/${link.slug}`)
    // The plain page is now answered from memory, before routing.
    const prepared = p.app.fetch(new Request(`http://paylinks.test/l/${link.slug}`))
    expect(prepared).not.toBeInstanceOf(Promise)
    expect(await (prepared as Response).text()).toContain('name="csrf"')
    const first = await startPayment(p, link.slug)
    await p.simulator.completePayment(first.tx.cibTransactionId, 'approved')
    await p.settle()
    const after = await p.app.fetch(new Request(`http://paylinks.test/l/${link.slug}`))
    expect(after.status).toBe(410)
    const html = await after.text()
    expect(html).toContain('Cette facture est déjà payée')
    expect(html).not.toContain('name="csrf"')
  })

  it('keeps an invoice link the merchant opened to several payments payable until they are paid', async () => {
    p = await startPaylinks()
    const link = await makeLink(p, {
      title: 'Cotisation',
      invoice_id: 'inv_club',
      amount: 300,
      max_payments: 2,
      language: 'en',
    })
    const first = await startPayment(p, link.slug)
    await p.simulator.completePayment(first.tx.cibTransactionId, 'approved')
    await p.settle()
    expect((await p.app.request(`/l/${link.slug}`)).status).toBe(200)
    const second = await startPayment(p, link.slug)
    await p.simulator.completePayment(second.tx.cibTransactionId, 'approved')
    await p.settle()
    const done = await p.app.request(`/l/${link.slug}`)
    expect(done.status).toBe(410)
    expect(await done.text()).toContain('This invoice is already paid')
  })

  it('frees the place of a declined payment for the next customer', async () => {
    p = await startPaylinks()
    const link = await makeLink(p, { title: 'Single use', amount: 300, max_payments: 1 })
    const first = await startPayment(p, link.slug)
    await p.simulator.completePayment(first.tx.cibTransactionId, 'declined')
    await p.settle()
    const second = await submitCheckout(p, link.slug)
    expect(second.status).toBe(303)
  })

  it('answers 404 with a page for an unknown slug', async () => {
    p = await startPaylinks()
    const res = await p.app.request('/l/doesNotExist1')
    expect(res.status).toBe(404)
    expect(await res.text()).toContain('<html')
  })
})
