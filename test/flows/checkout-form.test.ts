import { createHash } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { payments } from '../../db/schema.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { CUSTOMER, openCheckout, submitCheckout } from './support.js'

let p: Paylinks
beforeEach(async () => {
  p = await startPaylinks()
})
afterEach(async () => {
  await p.close()
})

describe('the checkout form', () => {
  it('prefills name, phone, e-mail, amount and keeps the merchant reference', async () => {
    const link = await makeLink(p, { title: 'Open', amount_min: 50, language: 'en' })
    const { html } = await openCheckout(
      p,
      link.slug,
      '?name=Karim%20B&phone=0661000000&email=k%40x.dz&amount=750&ref=ORDER-9',
    )
    expect(html).toContain('value="Karim B"')
    expect(html).toContain('value="0661000000"')
    expect(html).toContain('value="k@x.dz"')
    expect(html).toContain('value="750"')
    expect(html).toContain('name="ref" value="ORDER-9"')
    const res = await submitCheckout(p, link.slug, { amount: '750', ref: 'ORDER-9' })
    expect(res.status).toBe(303)
    const [row] = await p.deps.db.select().from(payments)
    expect(row?.ref).toBe('ORDER-9')
    expect(row?.amount).toBe(75000)
  })

  it.each([
    ['name', { name: '' }, 'This field is required.'],
    ['name', { name: 'x' }, 'Enter your full name'],
    ['phone', { phone: '' }, 'This field is required.'],
    ['phone', { phone: '12345' }, 'Enter a valid phone number'],
    ['email', { email: '' }, 'This field is required.'],
    ['email', { email: 'not-an-email' }, 'Enter a valid e-mail address.'],
    ['terms', { terms: '' }, 'You must accept the terms to pay.'],
  ])(
    'refuses a bad %s with a message in the page language and changes nothing',
    async (field, fields, message) => {
      const link = await makeLink(p, { title: 'Fixed', amount: 100, language: 'en' })
      const res = await submitCheckout(p, link.slug, fields)
      expect(res.status).toBe(400)
      const html = await res.text()
      expect(html).toContain(`id="${field}-err"`)
      expect(html).toContain(message)
      expect(await p.deps.db.select().from(payments)).toHaveLength(0)
      expect(p.simulator.state.transactions.size).toBe(0)
    },
  )

  it('shows validation errors in Arabic on an Arabic link', async () => {
    const link = await makeLink(p, { title: 'عربي', amount: 100, language: 'ar' })
    const res = await submitCheckout(p, link.slug, { email: 'bad' })
    const html = await res.text()
    expect(html).toContain('dir="rtl"')
    expect(html).toContain('أدخل بريدًا إلكترونيًا صحيحًا.')
  })

  it('refuses a submission without a valid CSRF token', async () => {
    const link = await makeLink(p, { title: 'Fixed', amount: 100, language: 'en' })
    const res = await p.app.request(`/l/${link.slug}`, {
      method: 'POST',
      body: new URLSearchParams({ ...CUSTOMER, csrf: 'mwr74hsn.forged' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(res.status).toBe(403)
    expect(await res.text()).toContain('This form has expired')
    expect(await p.deps.db.select().from(payments)).toHaveLength(0)
  })

  it('rate limits checkout submissions per client', async () => {
    const link = await makeLink(p, { title: 'Fixed', amount: 100 })
    const statuses: number[] = []
    for (let i = 0; i < 12; i++) {
      statuses.push(
        (await submitCheckout(p, link.slug, { email: '' }, { 'x-test-ip': '10.9.9.9' })).status,
      )
    }
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true)
    expect(statuses.slice(10)).toEqual([429, 429])
    expect(
      (await submitCheckout(p, link.slug, { email: '' }, { 'x-test-ip': '10.9.9.10' })).status,
    ).toBe(400)
  })

  it('sends a strict Content-Security-Policy and the usual security headers', async () => {
    const link = await makeLink(p, { title: 'Fixed', amount: 100 })
    const res = await p.app.request(`/l/${link.slug}`)
    const csp = res.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('x-frame-options')).toBe('DENY')
    // The page is the same for every visitor: its inline style is allowed by its hash.
    const style = /<style>([\s\S]*?)<\/style>/.exec(await res.text())?.[1] ?? ''
    const hash = createHash('sha256').update(style).digest('base64')
    expect(csp).toContain(`style-src 'self' 'sha256-${hash}';`)
    // A prefilled form is rendered for its visitor, with a nonce of its own.
    const prefilled = await p.app.request(`/l/${link.slug}?name=Amina`)
    const nonce = /'nonce-([^']+)'/.exec(
      prefilled.headers.get('content-security-policy') ?? '',
    )?.[1]
    expect(nonce).toBeTruthy()
    expect(await prefilled.text()).toContain(`<style nonce="${nonce}">`)
  })

  it('escapes what the merchant typed', async () => {
    const link = await makeLink(p, { title: '<script>alert(1)</script>', amount: 100 })
    const { html } = await openCheckout(p, link.slug)
    expect(html).not.toContain('<script>alert(1)</script>')
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
  })

  it('carries the test-mode banner in simulator mode', async () => {
    const link = await makeLink(p, { title: 'Fixed', amount: 100, language: 'en' })
    expect((await openCheckout(p, link.slug)).html).toContain('Test mode — no real money is moved')
  })
})
