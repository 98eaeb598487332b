/**
 * What customers and merchants type, as the customer pages take and show it: digits from an
 * Arabic or Persian keyboard, text of either direction kept in its own, the favicon on every page,
 * and the language switcher on every refusal.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { payments } from '../../db/schema.js'
import { FAVICON_PATH } from '../../views/favicon.js'
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

const switcher = (html: string) =>
  [
    ...(/<nav class="lang"[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '').matchAll(
      /href="([^"]+)"/g,
    ),
  ].map((m) => m[1])

describe('digits from an Arabic or Persian keyboard', () => {
  it('pay ١٥٠٠ on an open link as 1,500.00 DA, from phone ٠٦٦١٢٣٤٥٦٧ stored as 0661234567', async () => {
    const link = await makeLink(p, { title: 'Don', amount_min: 50, language: 'ar' })
    const { html } = await openCheckout(p, link.slug)
    // Nothing in the fields refuses them before the server sees them.
    const amountInput = /<input id="amount"[^>]*>/.exec(html)?.[0] ?? ''
    expect(amountInput).toContain('inputmode="decimal"')
    expect(html).not.toMatch(/<input[^>]*pattern=/)
    const { payment, tx } = await startPayment(p, link.slug, {
      amount: '١٥٠٠',
      phone: '٠٦٦١٢٣٤٥٦٧',
    })
    expect(payment.amount).toBe(150_000)
    expect(payment.customerPhone).toBe('0661234567')
    expect(tx.amount).toBe(150_000)
  })

  it('still refuse an amount they do not make a number of, naming the field in Arabic', async () => {
    const link = await makeLink(p, { title: 'Don', amount_min: 50, language: 'ar' })
    const res = await submitCheckout(p, link.slug, { amount: '١٥س' })
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('id="amount-err"')
    expect(await p.deps.db.select().from(payments)).toHaveLength(0)
  })
})

describe('text typed by the merchant or the customer', () => {
  it('keeps its own direction on the checkout page of an Arabic link: title, description, items, fields', async () => {
    const link = await makeLink(p, {
      title: 'https://boutique.dz/offre',
      description: 'Livraison comprise.',
      invoice_items: [{ description: 'Café moulu', quantity: 1, unit_price: 300 }],
      language: 'ar',
    })
    const { html } = await openCheckout(p, link.slug)
    expect(html).toContain('<h1 dir="auto">https://boutique.dz/offre</h1>')
    expect(html).toContain('<p class="muted" dir="auto">Livraison comprise.</p>')
    expect(html).toContain('<bdi>Café moulu</bdi>')
    expect(html).toMatch(/<span class="merchant" dir="auto">/)
    for (const field of ['name', 'phone', 'email']) {
      expect(
        /<input id="(\w+)"[^>]*>/g.exec(html.slice(html.indexOf(`id="${field}"`) - 7))?.[0],
      ).toContain('dir="auto"')
    }
  })

  it('keeps its own direction on the receipt: the link title, the merchant message, the details', async () => {
    const link = await makeLink(p, {
      title: 'Abonnement https://club.dz',
      amount: 1500,
      language: 'ar',
      success_message: 'Merci pour votre achat.',
    })
    const { tx } = await startPayment(p, link.slug, { ref: 'CMD-42' })
    await p.simulator.completePayment(tx.cibTransactionId, 'approved')
    await p.settle()
    const html = await (await p.app.request(pathOf(tx.returnRedirect ?? ''))).text()
    expect(html).toContain('<p class="muted" dir="auto">Abonnement https://club.dz</p>')
    expect(html).toContain('<p class="card ok" dir="auto">Merci pour votre achat.</p>')
    expect(html).toContain('<bdi>Amina Benali</bdi>')
  })

  it('keeps its own direction in a merchant message about an inactive link', async () => {
    const link = await makeLink(p, {
      title: 'Fermé',
      amount: 1500,
      language: 'ar',
      active: false,
      inactive_message: 'Fermé pour inventaire.',
    })
    const html = await (await p.app.request(`/l/${link.slug}`)).text()
    expect(html).toContain('<p dir="auto">Fermé pour inventaire.</p>')
  })
})

describe('the favicon', () => {
  it('is linked from the checkout, receipt, terms, error and dashboard pages', async () => {
    const link = await makeLink(p, { title: 'Icon', amount: 1500 })
    const tag = `<link rel="icon" type="image/svg+xml" href="${FAVICON_PATH}"/>`
    for (const path of [
      `/l/${link.slug}`,
      `/l/${link.slug}`,
      '/terms',
      '/nowhere',
      '/dashboard/login',
    ]) {
      expect(await (await p.app.request(path)).text(), path).toContain(tag)
    }
  })

  it('is a small SVG cached for a year at its hashed address, and served at /favicon.ico', async () => {
    expect(FAVICON_PATH).toMatch(/^\/favicon-[0-9a-f]{8}\.svg$/)
    const res = await p.app.request(FAVICON_PATH)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/svg+xml')
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const svg = await res.text()
    expect(svg.startsWith('<svg')).toBe(true)
    expect(svg.length).toBeLessThan(600)
    expect((await p.app.request('/favicon.ico')).headers.get('content-type')).toBe('image/svg+xml')
  })
})

describe('the language switcher on every refusal', () => {
  it('is on the 404, 410 and 403 pages, each language leading to the same address', async () => {
    expect(switcher(await (await p.app.request('/nowhere?lang=fr')).text())).toEqual([
      '/nowhere?lang=ar',
      '/nowhere?lang=fr',
      '/nowhere?lang=en',
    ])
    const expired = await makeLink(p, { title: 'Old', amount: 1500, language: 'fr' })
    await p.sqlite.sqlite.prepare('UPDATE links SET expires_at = 1 WHERE id = ?').run(expired.id)
    const gone = await p.app.request(`/l/${expired.slug}`)
    expect(gone.status).toBe(410)
    expect(switcher(await gone.text())).toContain(`/l/${expired.slug}?lang=ar`)
  })

  it('is on the 413 of a form, leading back to the form in each language', async () => {
    const link = await makeLink(p, { title: 'Big', amount: 1500, language: 'en' })
    const big = await p.app.request(`/l/${link.slug}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `name=${'x'.repeat(100_000)}`,
    })
    expect(big.status).toBe(413)
    expect(switcher(await big.text())).toEqual([
      `/l/${link.slug}?lang=ar`,
      `/l/${link.slug}?lang=fr`,
      `/l/${link.slug}?lang=en`,
    ])
  })
})
