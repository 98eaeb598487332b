/** The shop's checkouts in the dashboard: the list, its filters and paging, canceling, the payment page. */
import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { auditLog } from '../../db/schema.js'
import {
  type CheckoutValues,
  closeCheckout,
  createCheckout,
  getCheckoutById,
} from '../../src/data/checkouts.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { type Browser, manualClock, signedIn, storePayment } from './helpers.js'

let p: Paylinks
let browser: Browser
let clock: ReturnType<typeof manualClock>
beforeEach(async () => {
  clock = manualClock()
  p = await startPaylinks({ clock })
  browser = await signedIn(p)
})
afterEach(() => p.close())

/** A checkout made a minute after the previous one. */
async function makeCheckout(overrides: Partial<CheckoutValues> = {}) {
  clock.advance(60_000)
  const now = clock()
  return createCheckout(
    p.deps.db,
    {
      amount: 350000,
      lineItems: null,
      reference: 'CMD-1042',
      metadata: {},
      customerName: null,
      customerPhone: null,
      customerEmail: null,
      successUrl: 'https://shop.example/merci',
      cancelUrl: null,
      language: 'fr',
      expiresAt: now + 30 * 60_000,
      title: 'Boutique Tassili',
      ...overrides,
    },
    now,
  )
}

/** The checkout ids of the list's rows, in order. */
const rowIds = (html: string) => [...html.matchAll(/data-checkout-id="([^"]+)"/g)].map((m) => m[1])

/** The status of the row of `id`. */
function rowStatus(html: string, id: string): string | undefined {
  const row = new RegExp(`data-checkout-id="${id}".*?</tr>`, 's').exec(html)?.[0] ?? ''
  return /data-status="([a-z]+)"/.exec(row)?.[1]
}

describe('the checkouts list', () => {
  it('lists checkouts newest first with state, reference, amount, dates and the payment of a paid one', async () => {
    const paid = await makeCheckout({ reference: 'CMD-1' })
    const expired = await makeCheckout({ reference: 'CMD-2', amount: 99950 })
    const open = await makeCheckout({ reference: 'CMD-3' })
    const payment = await storePayment(p, paid.link, { status: 'paid' })
    expect(await closeCheckout(p.deps.db, expired.checkout.id, 'expired', clock())).toBeTruthy()

    const res = await browser.get('/dashboard/checkouts')
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(rowIds(html)).toEqual([open.checkout.id, expired.checkout.id, paid.checkout.id])
    expect(rowStatus(html, paid.checkout.id)).toBe('completed')
    expect(rowStatus(html, expired.checkout.id)).toBe('expired')
    expect(rowStatus(html, open.checkout.id)).toBe('open')
    expect(html).toContain('<bdi>CMD-2</bdi>')
    expect(html).toMatch(/999[.,]50/)
    expect(html).toContain(`href="/dashboard/payments/${payment.id}"`)
    // Only the open one can be canceled.
    expect(html.match(/\/cancel"/g)).toHaveLength(1)
    expect(html).toContain(`action="/dashboard/checkouts/${open.checkout.id}/cancel"`)
    // In the navigation, near links and payments.
    expect(html).toMatch(/href="\/dashboard\/payments".*?href="\/dashboard\/checkouts"/s)
  })

  it('filters by state and by the shop’s reference, refusing a state that is not one', async () => {
    const a = await makeCheckout({ reference: 'CMD-10' })
    const b = await makeCheckout({ reference: 'CMD-11' })
    await closeCheckout(p.deps.db, b.checkout.id, 'expired', clock())
    const byStatus = await (await browser.get('/dashboard/checkouts?status=open')).text()
    expect(rowIds(byStatus)).toEqual([a.checkout.id])
    const byRef = await (await browser.get('/dashboard/checkouts?reference=CMD-11')).text()
    expect(rowIds(byRef)).toEqual([b.checkout.id])
    const none = await (
      await browser.get('/dashboard/checkouts?reference=CMD-11&status=open')
    ).text()
    expect(rowIds(none)).toEqual([])
    expect(none).toContain('No checkout matches these filters.')
    const bad = await browser.get('/dashboard/checkouts?status=paid')
    expect(bad.status).toBe(400)
    expect(await bad.text()).toContain('This filter is not valid: status.')
  })

  it('pages by cursor, keeping the filters', async () => {
    const made: string[] = []
    for (let i = 0; i < 52; i++) made.push((await makeCheckout({ reference: 'CMD-P' })).checkout.id)
    const first = await (await browser.get('/dashboard/checkouts?reference=CMD-P')).text()
    expect(rowIds(first)).toEqual(made.slice(2).reverse())
    const next = /href="([^"]+)" rel="next"/.exec(first)?.[1]?.replace(/&amp;/g, '&') ?? ''
    expect(next).toContain('reference=CMD-P')
    const second = await (await browser.get(next)).text()
    expect(rowIds(second)).toEqual(made.slice(0, 2).reverse())
    expect(second).not.toContain('rel="next"')
  })

  it('speaks the dashboard’s language', async () => {
    await makeCheckout()
    const ar = await (await browser.get('/dashboard/checkouts?lang=ar')).text()
    expect(ar).toContain('طلبات المتجر')
    expect(ar).toContain('مفتوح')
    const fr = await (await browser.get('/dashboard/checkouts?lang=fr')).text()
    expect(fr).toContain('Commandes de la boutique')
    expect(fr).toContain('Ouverte')
  })
})

describe('canceling a checkout', () => {
  it('cancels an open checkout: its page takes no payment, the audit log says who', async () => {
    const { checkout, link } = await makeCheckout({ reference: 'CMD-77' })
    const res = await browser.submit(
      '/dashboard/checkouts',
      `/dashboard/checkouts/${checkout.id}/cancel`,
    )
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/dashboard/checkouts?done=canceled')
    expect((await getCheckoutById(p.deps.db, checkout.id))?.status).toBe('canceled')
    const list = await (await browser.get('/dashboard/checkouts?done=canceled')).text()
    expect(list).toContain('The checkout is canceled')
    expect(rowStatus(list, checkout.id)).toBe('canceled')
    const page = await p.app.request(`/l/${link.slug}?lang=en`)
    expect(page.status).toBe(403)
    expect(await page.text()).toContain('This order was cancelled')
    const [entry] = await p.deps.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'checkout_canceled'))
    expect(entry?.targetKind).toBe('checkout')
    expect(entry?.targetId).toBe(checkout.id)
    expect(entry?.detail).toEqual({ reference: 'CMD-77', amount: 350000 })
  })

  it('refuses a checkout that is not open or is being paid, and one that does not exist', async () => {
    const paying = await makeCheckout({ reference: 'CMD-8' })
    await storePayment(p, paying.link, { status: 'pending' })
    const refused = await browser.submit(
      '/dashboard/checkouts',
      `/dashboard/checkouts/${paying.checkout.id}/cancel`,
    )
    expect(refused.status).toBe(409)
    expect(await refused.text()).toContain('This checkout cannot be canceled')
    expect((await getCheckoutById(p.deps.db, paying.checkout.id))?.status).toBe('open')

    const missing = await browser.submit(
      '/dashboard/checkouts',
      '/dashboard/checkouts/chk_nothere/cancel',
    )
    expect(missing.status).toBe(404)
    const entries = await p.deps.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'checkout_canceled'))
    expect(entries).toEqual([])
  })

  it('needs the form token', async () => {
    const { checkout } = await makeCheckout()
    const res = await browser.post(`/dashboard/checkouts/${checkout.id}/cancel`, {})
    expect(res.status).toBe(403)
    expect((await getCheckoutById(p.deps.db, checkout.id))?.status).toBe('open')
  })
})

describe('the payment page', () => {
  it('shows the payment’s checkout: id, reference, state and success URL', async () => {
    const { checkout, link } = await makeCheckout({
      reference: 'CMD-5',
      successUrl: 'https://shop.example/merci?o=5',
    })
    const payment = await storePayment(p, link, { status: 'paid' })
    const html = await (await browser.get(`/dashboard/payments/${payment.id}`)).text()
    expect(html).toContain(`data-checkout-id="${checkout.id}"`)
    expect(html).toContain(`<dd class="ltr">${checkout.id}</dd>`)
    expect(html).toContain('href="/dashboard/checkouts?reference=CMD-5"')
    expect(html).toMatch(/data-status="completed"/)
    expect(html).toContain('https://shop.example/merci?o=5')
    // A link's payment has no checkout section.
    const plain = await makeLink(p, { title: 'Thé vert', amount: 2500 })
    const other = await storePayment(p, plain, { status: 'paid' })
    const without = await (await browser.get(`/dashboard/payments/${other.id}`)).text()
    expect(without).not.toContain('checkout-title')
  })
})
