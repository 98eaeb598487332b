/**
 * The dashboard's search: the payments page's box finds payments (with the other filters, paged,
 * in the CSV export too) and the links whose title matches; the links page's box finds links; a
 * text too short is refused in the page's language, and FTS5 syntax is only text.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Link } from '../../db/schema.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { storeLink } from '../support/links.js'
import { type Browser, signedIn, storePayment, T0 } from './helpers.js'

let paylinks: Paylinks
let browser: Browser
let coffee: Link
let tea: Link

beforeEach(async () => {
  paylinks = await startPaylinks({ clock: () => T0 })
  browser = await signedIn(paylinks)
  coffee = await storeLink(paylinks, { title: 'Café du matin' })
  tea = await storeLink(paylinks, { title: 'شاي بالنعناع', amount: 50000 })
})
afterEach(() => paylinks.close())

const paymentRows = (html: string) =>
  [...html.matchAll(/<tr data-payment-id="([^"]+)"/g)].map((m) => m[1]!)
const linkRows = (html: string) =>
  [...html.matchAll(/<tr data-link-id="([^"]+)"/g)].map((m) => m[1]!)
const page = async (path: string, lang?: string) => {
  const res = await browser.get(path, lang ? { 'accept-language': lang } : {})
  return { status: res.status, html: await res.text() }
}

describe('searching on the payments page', () => {
  it('finds payments by name and partial phone, keeps the filters, and shows matching links', async () => {
    const amina = await storePayment(paylinks, coffee, {
      at: T0 - 3000,
      name: 'أمينة بن علي',
      phone: '0661234567',
    })
    const karim = await storePayment(paylinks, tea, {
      at: T0 - 2000,
      name: 'Karim Haddad',
      phone: '+213661239999',
      status: 'failed',
    })
    await storePayment(paylinks, coffee, { at: T0 - 1000, name: 'Lina Saidi', phone: '0770000000' })

    const byName = await page(`/dashboard/payments?q=${encodeURIComponent('بن علي')}`)
    expect(byName.status).toBe(200)
    expect(paymentRows(byName.html)).toEqual([amina.id])
    expect(byName.html).toContain('value="بن علي"')

    const byPhone = await page(`/dashboard/payments?q=${encodeURIComponent('0661 23')}`)
    expect(paymentRows(byPhone.html)).toEqual([karim.id, amina.id])
    const filtered = await page(`/dashboard/payments?q=0661+23&status=failed`)
    expect(paymentRows(filtered.html)).toEqual([karim.id])
    const onLink = await page(`/dashboard/payments?q=0661+23&link=${coffee.id}`)
    expect(paymentRows(onLink.html)).toEqual([amina.id])

    const links = await page(`/dashboard/payments?q=${encodeURIComponent('café')}`)
    expect(linkRows(links.html)).toEqual([coffee.id])
    expect(paymentRows(links.html)).toEqual([])
  })

  it('pages through the matches with the search kept in the next link and in the export', async () => {
    const made = []
    for (let i = 0; i < 55; i++) {
      made.push(await storePayment(paylinks, coffee, { at: T0 - 100_000 + i, name: `Walid ${i}` }))
    }
    await storePayment(paylinks, coffee, { at: T0, name: 'Meriem Mansouri' })
    const first = await page('/dashboard/payments?q=walid')
    expect(paymentRows(first.html)).toEqual(
      made
        .slice(5)
        .reverse()
        .map((p) => p.id),
    )
    const next = /<a href="([^"]+)" rel="next"/.exec(first.html)?.[1]?.replaceAll('&amp;', '&')
    expect(next).toContain('q=walid')
    const second = await page(next!)
    expect(paymentRows(second.html)).toEqual(
      made
        .slice(0, 5)
        .reverse()
        .map((p) => p.id),
    )

    const csv = await (await browser.get('/dashboard/payments.csv?q=walid')).text()
    expect(csv.trim().split('\r\n')).toHaveLength(1 + 55)
    expect(csv).not.toContain('Meriem')
  })

  it('refuses fewer than three characters, in the page language, and lists nothing', async () => {
    await storePayment(paylinks, coffee, { name: 'Amina Benali' })
    const en = await page('/dashboard/payments?q=am')
    expect(en.status).toBe(400)
    expect(en.html).toContain('Type at least 3 characters to search.')
    expect(paymentRows(en.html)).toEqual([])
    expect((await page('/dashboard/payments?q=am', 'fr')).html).toContain('au moins 3 caractères')
    expect((await page('/dashboard/payments?q=am', 'ar')).html).toContain('3 أحرف على الأقل')
    const csv = await browser.get('/dashboard/payments.csv?q=am')
    expect(csv.status).toBe(400)
    expect(await csv.text()).toBe('Type at least 3 characters to search.')
  })

  it('reads FTS5 syntax as text, never a server error', async () => {
    await storePayment(paylinks, coffee, { name: 'Amina Benali' })
    for (const text of ['"', '"""', '* OR *', 'NEAR(a b)', 'Amina OR x', 'q:"a"', '%00abc']) {
      const res = await browser.get(`/dashboard/payments?q=${encodeURIComponent(text)}`)
      expect([200, 400], text).toContain(res.status)
      expect(paymentRows(await res.text()), text).toEqual([])
    }
  })
})

describe('searching on the links page', () => {
  it('finds links by a part of the title, in Arabic and Latin', async () => {
    const arabic = await page(`/dashboard/links?q=${encodeURIComponent('النعن')}`)
    expect(arabic.status).toBe(200)
    expect(linkRows(arabic.html)).toEqual([tea.id])
    expect(linkRows((await page('/dashboard/links?q=MATIN')).html)).toEqual([coffee.id])
    const none = await page('/dashboard/links?q=zzz')
    expect(linkRows(none.html)).toEqual([])
    expect(none.html).toContain('No link title matches this search.')
    const short = await page('/dashboard/links?q=ca')
    expect(short.status).toBe(400)
    expect(short.html).toContain('Type at least 3 characters to search.')
  })
})
