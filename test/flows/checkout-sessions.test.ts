/**
 * A shop's checkout as its customer meets it, over loopback HTTP with the simulator: the order on
 * its link's page (reference, items, the customer's details the shop gave, the way back to the
 * shop), on to success_url?checkout_id=… once paid and confirmed (the receipt still there), back to
 * cancel_url after cancelling on the card page, a decline with "Try again" and "Back to the shop",
 * and the page of an order paid, expired or cancelled.
 */
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { payments } from '../../db/schema.js'
import {
  type CheckoutValues,
  closeCheckout,
  createCheckout,
  getCheckoutById,
} from '../../src/data/checkouts.js'
import type { CardOutcome } from '../../src/simulator/index.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'

let p: Paylinks | undefined
afterEach(async () => {
  await p?.close()
  p = undefined
})

const SUCCESS = 'https://shop.example/merci?order=1042&lang=fr#paid'
const CANCEL = 'https://shop.example/panier?step=pay'

/** A checkout of two lines (2 × 1 500 DA, 1 × 500 DA) with the customer's details, in French. */
async function makeCheckout(paylinks: Paylinks, overrides: Partial<CheckoutValues> = {}) {
  const now = paylinks.deps.clock()
  return createCheckout(
    paylinks.deps.db,
    {
      amount: 350000,
      lineItems: [
        { name: 'Tapis berbère', quantity: 2, unitPrice: 150000 },
        { name: 'Livraison', quantity: 1, unitPrice: 50000 },
      ],
      reference: 'CMD-1042',
      metadata: {},
      customerName: 'Amina Benali',
      customerPhone: '0550123456',
      customerEmail: 'amina@example.dz',
      successUrl: SUCCESS,
      cancelUrl: CANCEL,
      language: 'fr',
      expiresAt: now + 30 * 60_000,
      title: 'Boutique Tassili',
      ...overrides,
    },
    now,
  )
}

const unescapeHtml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')

/** The value of the form's input named `name`, as the browser would fill it. */
function inputValue(html: string, name: string): string | undefined {
  const tag = new RegExp(`<input[^>]*\\bname="${name}"[^>]*>`).exec(html)?.[0]
  if (!tag) return undefined
  return unescapeHtml(/\bvalue="([^"]*)"/.exec(tag)?.[1] ?? '')
}

/** The href of the page's link labelled `label`. */
function hrefOf(html: string, label: string): string | undefined {
  const m = new RegExp(`<a[^>]*href="([^"]+)"[^>]*>\\s*${label}\\s*</a>`).exec(html)
  return m ? unescapeHtml(m[1] as string) : undefined
}

/** Sends `url`'s form as the page fills it (the shop's details), ticking the terms. */
async function payForm(url: string, fields: Record<string, string> = {}) {
  const page = await (await fetch(url)).text()
  const form: Record<string, string> = { terms: 'yes' }
  for (const [tag] of page.matchAll(/<input[^>]*>/g)) {
    const name = /\bname="([^"]+)"/.exec(tag)?.[1]
    if (name && name !== 'terms') form[name] = inputValue(tag, name) ?? ''
  }
  return fetch(new URL(`/l/${new URL(url).pathname.split('/')[2]}`, url), {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams({ ...form, ...fields }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
}

/** Pays the checkout at `url`, the card page ending in `outcome`; the simulator's transaction. */
async function payCheckout(
  paylinks: Paylinks,
  url: string,
  outcome: CardOutcome,
  fields: Record<string, string> = {},
) {
  const res = await payForm(url, fields)
  expect(res.status).toBe(303)
  const location = res.headers.get('location') ?? ''
  const tx = [...paylinks.simulator.state.transactions.values()].find((t) =>
    location.includes(t.orderId),
  )
  if (!tx) throw new Error(`no transaction for ${location}`)
  await paylinks.simulator.completePayment(tx.cibTransactionId, outcome)
  await paylinks.settle()
  const receiptId = new URL(tx.returnUrl ?? '').pathname.split('/').pop() ?? ''
  return { tx, receiptId, back: tx.returnRedirect ?? '' }
}

const THANKS = (id: string) =>
  `https://shop.example/merci?order=1042&lang=fr&checkout_id=${id}#paid`

describe('a checkout’s page', () => {
  it('shows the shop’s order in its language, the customer’s details, the way back to the shop', async () => {
    p = await startPaylinks({ http: true })
    const { checkout, link } = await makeCheckout(p)
    const res = await fetch(`${p.url}/l/${link.slug}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toContain('no-store')
    const html = await res.text()
    expect(html).toContain('lang="fr"')
    expect(html).toContain('Commande <bdi>CMD-1042</bdi>')
    // Each line: name, quantity, unit price, line total; then the total, emphasised as the amount.
    expect(html).toMatch(/Tapis berbère<\/bdi><br\/?><span class="muted">1\s500,00\sDA/)
    expect(html).toMatch(/<td class="num">2<\/td><td class="num">3\s000,00\sDA<\/td>/)
    expect(html).toContain('Livraison')
    expect(html).toMatch(/<tfoot>.*Total.*3\s500,00\sDA.*<\/tfoot>/s)
    expect(html).toMatch(/class="amount">.*3\s500,00\sDA/s)
    // The shop's customer, in fields still theirs to change; nothing of them in an address.
    expect(inputValue(html, 'name')).toBe('Amina Benali')
    expect(inputValue(html, 'phone')).toBe('0550123456')
    expect(inputValue(html, 'email')).toBe('amina@example.dz')
    expect(html).not.toMatch(/<input[^>]*name="name"[^>]*readonly/)
    expect(hrefOf(html, 'Retour à la boutique')).toBe(
      `https://shop.example/panier?step=pay&checkout_id=${checkout.id}`,
    )
    // The customer's own language wins, as on every link's page.
    const ar = await (await fetch(`${p.url}/l/${link.slug}?lang=ar`)).text()
    expect(ar).toContain('الطلب <bdi>CMD-1042</bdi>')
    expect(ar).toContain('العودة إلى المتجر')
  })

  it('keeps the order and what the customer typed when the form is refused', async () => {
    p = await startPaylinks({ http: true })
    const { link } = await makeCheckout(p, { language: 'en' })
    const res = await payForm(`${p.url}/l/${link.slug}`, {
      terms: '',
      name: 'Karim Saadi',
      email: 'not-an-email',
    })
    expect(res.status).toBe(400)
    const html = await res.text()
    expect(html).toContain('Order <bdi>CMD-1042</bdi>')
    expect(html).toContain('Livraison')
    expect(hrefOf(html, 'Back to the shop')).toContain('checkout_id=')
    expect(inputValue(html, 'name')).toBe('Karim Saadi')
    expect(inputValue(html, 'email')).toBe('not-an-email')
    expect(inputValue(html, 'phone')).toBe('0550123456')
    expect(await p.deps.db.select().from(payments)).toEqual([])
  })

  it('offers the way back to the shop when the gateway refuses to start the payment', async () => {
    p = await startPaylinks({ http: true })
    const { checkout, link } = await makeCheckout(p, { language: 'en' })
    p.simulator.faults.set({ endpoints: { 'make-cib-transaction': { status5xx: 503, times: 1 } } })
    const res = await payForm(`${p.url}/l/${link.slug}`)
    expect(res.status).toBe(502)
    const html = await res.text()
    expect(hrefOf(html, 'Try again')).toMatch(new RegExp(`^/l/${link.slug}\\?lang=en&retry=`))
    expect(hrefOf(html, 'Back to the shop')).toBe(`${CANCEL}&checkout_id=${checkout.id}`)
  })

  it('is each checkout’s own, visit after visit (never a prepared page)', async () => {
    p = await startPaylinks({ http: true })
    const first = await makeCheckout(p, { customerName: null, customerEmail: null })
    const second = await makeCheckout(p, {
      reference: 'CMD-2077',
      customerName: 'Karim Saadi',
      lineItems: null,
      amount: 99900,
    })
    for (let visit = 0; visit < 3; visit++) {
      const one = await (await fetch(`${p.url}/l/${first.link.slug}?lang=en`)).text()
      const two = await (await fetch(`${p.url}/l/${second.link.slug}?lang=en`)).text()
      expect(one).toContain('Order <bdi>CMD-1042</bdi>')
      expect(one).toContain(`checkout_id=${first.checkout.id}`)
      expect(inputValue(one, 'name')).toBe('')
      expect(two).toContain('Order <bdi>CMD-2077</bdi>')
      expect(two).not.toContain('Tapis')
      expect(inputValue(two, 'name')).toBe('Karim Saadi')
      expect(two).toContain(`checkout_id=${second.checkout.id}`)
    }
  })

  it('says an expired or cancelled order is closed, with the way back to the shop', async () => {
    p = await startPaylinks({ http: true })
    const expired = await makeCheckout(p)
    const canceled = await makeCheckout(p, { cancelUrl: null })
    expect(
      await closeCheckout(p.deps.db, expired.checkout.id, 'expired', p.deps.clock()),
    ).toBeTruthy()
    expect(
      await closeCheckout(p.deps.db, canceled.checkout.id, 'canceled', p.deps.clock()),
    ).toBeTruthy()

    const gone = await fetch(`${p.url}/l/${expired.link.slug}?lang=en`)
    expect(gone.status).toBe(410)
    const html = await gone.text()
    expect(html).toContain('This order has expired')
    expect(html).not.toContain('name="csrf"')
    expect(hrefOf(html, 'Back to the shop')).toBe(`${CANCEL}&checkout_id=${expired.checkout.id}`)
    // A submission arriving after the close starts nothing.
    const late = await payForm(`${p.url}/l/${canceled.link.slug}`)
    expect(late.status).toBe(403)
    const off = await (await fetch(`${p.url}/l/${canceled.link.slug}?lang=en`)).text()
    expect(off).toContain('This order was cancelled')
    // No cancel_url: nowhere to go back to.
    expect(off).not.toContain('Back to the shop')
    expect(await p.deps.db.select().from(payments)).toEqual([])
  })
})

describe('after the card page', () => {
  it('goes on to success_url?checkout_id once paid and confirmed; the receipt stays', async () => {
    p = await startPaylinks({ http: true })
    const { checkout, link } = await makeCheckout(p)
    const { back, receiptId } = await payCheckout(p, `${p.url}/l/${link.slug}`, 'approved')
    const res = await fetch(back, { redirect: 'manual' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(THANKS(checkout.id))
    const done = await getCheckoutById(p.deps.db, checkout.id)
    expect(done?.status).toBe('completed')

    // The receipt's own address (the e-mail's link, the language switcher): the receipt, and the
    // way on to the shop.
    const receipt = await fetch(`${p.url}/r/${receiptId}?lang=en`, { redirect: 'manual' })
    expect(receipt.status).toBe(200)
    const html = await receipt.text()
    expect(html).toContain('CMD-1042')
    expect(hrefOf(html, 'Back to the shop')).toBe(THANKS(checkout.id))
    // The checkout's page now says it is paid and leads on to the shop.
    const page = await fetch(`${p.url}/l/${link.slug}?lang=en`)
    expect(page.status).toBe(410)
    const paid = await page.text()
    expect(paid).toContain('This order is paid')
    expect(paid).not.toContain('name="csrf"')
    expect(hrefOf(paid, 'Back to the shop')).toBe(THANKS(checkout.id))
  })

  it('goes nowhere before the check endpoint confirms the payment, then on to the shop', async () => {
    p = await startPaylinks({ http: true })
    p.simulator.faults.set({ webhooks: { never: true } })
    const { checkout, link } = await makeCheckout(p)
    const { back, receiptId } = await payCheckout(p, `${p.url}/l/${link.slug}`, 'approved')
    // The card page says approved, but the check cannot be made: "being confirmed", no redirect.
    p.simulator.faults.set({ endpoints: { 'cib-transaction-check': { status5xx: 503 } } })
    const waiting = await fetch(back, { redirect: 'manual' })
    expect(waiting.status).toBe(200)
    expect(await waiting.text()).toContain('id="payment-pending"')
    const [row] = await p.deps.db.select().from(payments).where(eq(payments.receiptId, receiptId))
    expect(row?.status).toBe('pending')
    // The pending page reloads its own address: confirmed now, on to the shop.
    p.simulator.faults.set({ endpoints: { 'cib-transaction-check': null } })
    const reloaded = await fetch(back, { redirect: 'manual' })
    expect(reloaded.status).toBe(303)
    expect(reloaded.headers.get('location')).toBe(THANKS(checkout.id))
  })

  it('goes back to cancel_url?checkout_id when the customer cancels on the card page', async () => {
    p = await startPaylinks({ http: true })
    const { checkout, link } = await makeCheckout(p)
    const { back } = await payCheckout(p, `${p.url}/l/${link.slug}`, 'canceled')
    const res = await fetch(back, { redirect: 'manual' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`${CANCEL}&checkout_id=${checkout.id}`)
    // Still open: the customer may come back and pay.
    expect((await getCheckoutById(p.deps.db, checkout.id))?.status).toBe('open')
  })

  it('shows the cancelled page with "Try again" when the shop gave no cancel_url', async () => {
    p = await startPaylinks({ http: true })
    const { link } = await makeCheckout(p, { cancelUrl: null, language: 'en' })
    const { back } = await payCheckout(p, `${p.url}/l/${link.slug}`, 'canceled')
    const res = await fetch(back, { redirect: 'manual' })
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('Try again')
    expect(html).not.toContain('Back to the shop')
  })

  it('shows a decline with "Try again" and "Back to the shop"; the retry pays the same checkout', async () => {
    p = await startPaylinks({ http: true })
    const { checkout, link } = await makeCheckout(p, { language: 'en' })
    // The customer corrects the name the shop gave before paying.
    const { back, receiptId } = await payCheckout(p, `${p.url}/l/${link.slug}`, 'declined', {
      name: 'Amina Benali-Saadi',
    })
    const res = await fetch(back, { redirect: 'manual' })
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('Payment not completed')
    const retry = hrefOf(html, 'Try again')
    expect(retry).toBe(`/l/${link.slug}?lang=en&retry=${receiptId}`)
    expect(hrefOf(html, 'Back to the shop')).toBe(`${CANCEL}&checkout_id=${checkout.id}`)

    // Try again: the order and the details as the customer typed them; then paid, on to the shop.
    const again = await (await fetch(new URL(retry ?? '', p.url))).text()
    expect(again).toContain('Order <bdi>CMD-1042</bdi>')
    expect(inputValue(again, 'name')).toBe('Amina Benali-Saadi')
    const second = await payCheckout(p, new URL(retry ?? '', p.url).href, 'approved')
    const done = await fetch(second.back, { redirect: 'manual' })
    expect(done.headers.get('location')).toBe(THANKS(checkout.id))
    const closed = await getCheckoutById(p.deps.db, checkout.id)
    expect(closed?.status).toBe('completed')
    const rows = await p.deps.db.select().from(payments).where(eq(payments.linkId, link.id))
    expect(rows.map((r) => [r.status, r.checkoutId, r.ref]).sort()).toEqual([
      ['failed', checkout.id, 'CMD-1042'],
      ['paid', checkout.id, 'CMD-1042'],
    ])
    expect(closed?.paymentId).toBe(rows.find((r) => r.status === 'paid')?.id)
  })
})
