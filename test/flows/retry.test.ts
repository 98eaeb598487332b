/**
 * "Try again" after a payment that did not go through, over real HTTP with the simulator: the
 * checkout comes back with what the customer typed (name, phone, e-mail, an open amount, the
 * merchant's reference), read from the unsuccessful payment on the server, with nothing personal
 * in the address; the terms box and the form token as on a first visit; the link's rules first.
 */
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { payments } from '../../db/schema.js'
import { getPaymentByReceiptId } from '../../src/data/payments.js'
import { RETRY_PREFILL_MS } from '../../src/routes/checkout-retry.js'
import type { CardOutcome } from '../../src/simulator/index.js'
import { manualClock } from '../dashboard/helpers.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'

let p: Paylinks | undefined
afterEach(async () => {
  await p?.close()
  p = undefined
})

const TYPED = {
  name: 'أمينة بن علي',
  phone: '0550123456',
  email: 'amina@example.dz',
  terms: 'yes',
}

const unescapeHtml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')

/** The value of the form's input named `name`, as the browser would fill it ('' when empty). */
function inputValue(html: string, name: string): string | undefined {
  const tag = new RegExp(`<input[^>]*\\bname="${name}"[^>]*>`).exec(html)?.[0]
  if (!tag) return undefined
  return unescapeHtml(/\bvalue="([^"]*)"/.exec(tag)?.[1] ?? '')
}

/** The href of the page's "Try again" button (the first `.actions a.btn`). */
function tryAgainHref(html: string): string {
  const href = /<div class="actions"><a class="btn" href="([^"]+)"/.exec(html)?.[1]
  if (!href) throw new Error(`no "Try again" in ${html.slice(0, 200)}`)
  return unescapeHtml(href)
}

/** Opens `url`'s form and sends it with its hidden fields (token, language) and `fields`. */
async function post(url: string, fields: Record<string, string>) {
  const page = await (await fetch(url)).text()
  const hidden: Record<string, string> = {}
  for (const [tag] of page.matchAll(/<input[^>]*type="hidden"[^>]*>/g)) {
    const name = /\bname="([^"]+)"/.exec(tag)?.[1]
    if (name) hidden[name] = inputValue(tag, name) ?? ''
  }
  const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1] ?? ''
  return fetch(new URL(action, url), {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams({ ...hidden, ...fields }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
}

/** Pays `url`'s form with `fields`, the card page ending in `outcome`; the failure page's HTML. */
async function payAndFail(
  paylinks: Paylinks,
  url: string,
  fields: Record<string, string>,
  outcome: CardOutcome,
) {
  const res = await post(url, fields)
  expect(res.status).toBe(303)
  const location = res.headers.get('location') ?? ''
  const tx = [...paylinks.simulator.state.transactions.values()].find((t) =>
    location.includes(t.orderId),
  )
  if (!tx) throw new Error(`no transaction for ${location}`)
  await paylinks.simulator.completePayment(tx.cibTransactionId, outcome)
  await paylinks.settle()
  const receiptId = new URL(tx.returnUrl ?? '').pathname.split('/').pop() ?? ''
  const failure = await fetch(tx.returnRedirect ?? '')
  expect(failure.status).toBe(200)
  return { html: await failure.text(), receiptId }
}

describe('trying again after a payment that did not go through', () => {
  it.each([
    ['declined', 'failed'],
    ['canceled', 'canceled'],
    ['session_expired', 'expired'],
  ] as const)(
    'after %s, "Try again" opens the form filled in as typed',
    async (outcome, status) => {
      p = await startPaylinks({ http: true })
      const link = await makeLink(p, {
        title: 'Don',
        amount_min: 100,
        amount_max: 5000,
        language: 'ar',
      })
      const first = `${p.url}/l/${link.slug}?ref=CMD-42&lang=fr`
      const fields = { ...TYPED, amount: '1299,50', ref: 'CMD-42' }
      const { html, receiptId } = await payAndFail(p, first, fields, outcome)
      expect((await getPaymentByReceiptId(p.deps.db, receiptId))?.status).toBe(status)

      const href = tryAgainHref(html)
      expect(href).toBe(`/l/${link.slug}?lang=fr&retry=${receiptId}`)
      // Nothing the customer typed is in the address (or the history, or a log line).
      for (const typed of ['أمينة', encodeURIComponent('أمينة'), '0550123456', 'amina', 'CMD-42'])
        expect(href).not.toContain(typed)

      const again = await fetch(new URL(href, p.url))
      expect(again.status).toBe(200)
      expect(again.headers.get('cache-control')).toContain('no-store')
      const form = await again.text()
      expect(form).toContain('lang="fr"')
      expect(inputValue(form, 'name')).toBe(TYPED.name)
      expect(inputValue(form, 'phone')).toBe(TYPED.phone)
      expect(inputValue(form, 'email')).toBe(TYPED.email)
      expect(inputValue(form, 'amount')).toBe('1299.5')
      expect(inputValue(form, 'ref')).toBe('CMD-42')
      // As on a first visit: the terms are accepted again, and the form carries a fresh token.
      expect(form).toMatch(/<input[^>]*name="terms"(?![^>]*checked)[^>]*>/)
      expect(inputValue(form, 'csrf')).toBeTruthy()

      // The refilled form pays as it stands, once the terms are ticked.
      const retried = await post(new URL(href, p.url).href, {
        name: inputValue(form, 'name') ?? '',
        phone: inputValue(form, 'phone') ?? '',
        email: inputValue(form, 'email') ?? '',
        amount: inputValue(form, 'amount') ?? '',
        ref: inputValue(form, 'ref') ?? '',
        terms: 'yes',
      })
      expect(retried.status).toBe(303)
      const rows = await p.deps.db.select().from(payments).where(eq(payments.linkId, link.id))
      expect(rows.map((r) => [r.status, r.amount, r.customerName, r.ref]).sort()).toEqual(
        [
          ['pending', 129950, TYPED.name, 'CMD-42'],
          [status, 129950, TYPED.name, 'CMD-42'],
        ].sort(),
      )
    },
  )

  it('fills the form again after the gateway refused to start the payment', async () => {
    p = await startPaylinks({ http: true })
    const link = await makeLink(p, { title: 'Commande', amount: 2500, language: 'en' })
    p.simulator.faults.set({ endpoints: { 'make-cib-transaction': { status5xx: 503, times: 1 } } })
    const refused = await post(`${p.url}/l/${link.slug}`, TYPED)
    expect(refused.status).toBe(502)
    const [row] = await p.deps.db.select().from(payments)
    expect(row?.status).toBe('error')
    const href = tryAgainHref(await refused.text())
    expect(href).toBe(`/l/${link.slug}?lang=en&retry=${row?.receiptId}`)
    const form = await (await fetch(new URL(href, p.url))).text()
    expect(inputValue(form, 'name')).toBe(TYPED.name)
    expect(inputValue(form, 'email')).toBe(TYPED.email)
    // A fixed amount has no field to fill.
    expect(inputValue(form, 'amount')).toBeUndefined()
  })

  it('shows the link’s own page when the link was completed meanwhile', async () => {
    p = await startPaylinks({ http: true })
    const link = await makeLink(p, { title: 'Unique', amount: 2500, max_payments: 1 })
    const { html } = await payAndFail(p, `${p.url}/l/${link.slug}`, TYPED, 'declined')
    const href = tryAgainHref(html)
    // Someone else pays the one place.
    const res = await post(`${p.url}/l/${link.slug}`, { ...TYPED, name: 'Karim Saadi' })
    const tx = [...p.simulator.state.transactions.values()].find((t) =>
      (res.headers.get('location') ?? '').includes(t.orderId),
    )
    await p.simulator.completePayment(tx?.cibTransactionId ?? '', 'approved')
    await p.settle()
    await fetch(tx?.returnRedirect ?? '')
    const again = await fetch(new URL(href, p.url))
    expect(again.status).toBe(410)
    const page = await again.text()
    expect(page).not.toContain('name="csrf"')
    expect(page).not.toContain(TYPED.name)
  })

  it('fills nothing from a payment that is not an unsuccessful one of this link, or is old', async () => {
    const clock = manualClock()
    p = await startPaylinks({ http: true, clock })
    const paylinks = p
    const link = await makeLink(p, { title: 'Cahier', amount: 2500, language: 'en' })
    const other = await makeLink(p, { title: 'Stylo', amount: 300, language: 'en' })
    const { receiptId } = await payAndFail(p, `${p.url}/l/${link.slug}`, TYPED, 'declined')
    const open = (slug: string, retry: string) =>
      fetch(`${paylinks.url}/l/${slug}?lang=en&retry=${encodeURIComponent(retry)}`).then(
        async (r) => ({ status: r.status, html: await r.text() }),
      )
    const filled = async (slug: string, retry: string) => {
      const page = await open(slug, retry)
      expect(page.status).toBe(200)
      return inputValue(page.html, 'name')
    }
    expect(await filled(link.slug, receiptId)).toBe(TYPED.name)
    // Another link's payment, a made-up id, a hostile one: the plain form.
    expect(await filled(other.slug, receiptId)).toBe('')
    expect(await filled(link.slug, 'A'.repeat(22))).toBe('')
    expect(await filled(link.slug, `${receiptId}' OR 1=1 --`)).toBe('')
    // A payment still under way, or paid, is no retry.
    await p.deps.db
      .update(payments)
      .set({ status: 'pending' })
      .where(eq(payments.receiptId, receiptId))
    expect(await filled(link.slug, receiptId)).toBe('')
    await p.deps.db
      .update(payments)
      .set({ status: 'paid' })
      .where(eq(payments.receiptId, receiptId))
    expect(await filled(link.slug, receiptId)).toBe('')
    await p.deps.db
      .update(payments)
      .set({ status: 'failed' })
      .where(eq(payments.receiptId, receiptId))
    // Up to a day after the payment started, then no more.
    clock.advance(RETRY_PREFILL_MS)
    expect(await filled(link.slug, receiptId)).toBe(TYPED.name)
    clock.advance(1)
    expect(await filled(link.slug, receiptId)).toBe('')
  })

  it('keeps the captcha as on a first visit', async () => {
    p = await startPaylinks({ http: true, env: { CAPTCHA: 'altcha' } })
    const link = await makeLink(p, { title: 'Cahier', amount: 2500, language: 'en' })
    const plain = await (await fetch(`${p.url}/l/${link.slug}`)).text()
    expect(plain).toContain('data-challenge=')
    // The failure page is reached through a payment row written as the checkout does.
    const row = await failedPaymentOf(p, link.id)
    const form = await (await fetch(`${p.url}/l/${link.slug}?lang=en&retry=${row}`)).text()
    expect(inputValue(form, 'name')).toBe('Amina Benali')
    expect(form).toContain('data-challenge=')
    expect(form).toContain('name="altcha"')
  })
})

/** Writes a declined payment of `linkId` (as the checkout and the check would have) and returns its receipt id. */
async function failedPaymentOf(paylinks: Paylinks, linkId: string): Promise<string> {
  const now = paylinks.deps.clock()
  const receiptId = 'R'.repeat(22)
  await paylinks.deps.db.insert(payments).values({
    id: 'pay_retry_captcha',
    receiptId,
    linkId,
    status: 'failed',
    amount: 250000,
    customerName: 'Amina Benali',
    customerPhone: '0550123456',
    customerEmail: 'amina@example.dz',
    language: 'en',
    failureCode: 'declined',
    createdAt: now,
    updatedAt: now,
  })
  return receiptId
}
