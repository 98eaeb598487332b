/**
 * The overview page in the app, signed in: first in the navigation at /dashboard, in Arabic,
 * French and English, its charts' bars and their table giving the same numbers, and an empty
 * state that says what to do.
 */
import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Link, type PaymentStatus, payments } from '../../db/schema.js'
import { formatAmount } from '../../src/i18n/index.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { storeLink } from '../support/links.js'
import { type Browser, signedIn, storePayment } from './helpers.js'

const DAY = 86_400_000
const NOW = Date.UTC(2026, 0, 15, 10, 0, 0)

let p: Paylinks
let browser: Browser
let link: Link

beforeEach(async () => {
  p = await startPaylinks({ clock: () => NOW })
  browser = await signedIn(p)
  link = await storeLink(p, { title: 'Atelier <b>poterie</b>' }, NOW - 60 * DAY)
})
afterEach(() => p.close())

async function pay(at: number, status: PaymentStatus = 'paid', amount = 150_000) {
  const payment = await storePayment(p, link, { at, status, amount })
  if (status === 'failed')
    await p.deps.db
      .update(payments)
      .set({ failureCode: 'insufficient_funds' })
      .where(eq(payments.id, payment.id))
}

/** The attribute values of every element matching `pattern` (its first group). */
const all = (html: string, pattern: RegExp) => [...html.matchAll(pattern)].map((m) => m[1]!)

async function page(lang = 'en'): Promise<string> {
  const res = await browser.get(`/dashboard?lang=${lang}`)
  expect(res.status).toBe(200)
  return res.text()
}

describe('the overview page', () => {
  it('is the first page and the first entry of the navigation; the links list moved', async () => {
    await pay(NOW)
    const html = await page()
    const nav = /<nav class="main"[^>]*>(.*?)<\/nav>/s.exec(html)?.[1] ?? ''
    expect(all(nav, /<a href="([^"]+)"/g).slice(0, 5)).toEqual([
      '/dashboard',
      '/dashboard/links',
      '/dashboard/products',
      '/dashboard/promo-codes',
      '/dashboard/payments',
    ])
    expect(nav).toMatch(/<a href="\/dashboard" aria-current="page">Overview<\/a>/)
    const links = await (await browser.get('/dashboard/links')).text()
    expect(links).toContain(`data-link-id="${link.id}"`)
  })

  it('shows the totals, the failure rate, the reasons, the top link and the pending payments', async () => {
    await pay(NOW)
    await pay(NOW - 3 * DAY, 'paid', 250_000)
    await pay(NOW - 3 * DAY, 'failed')
    await pay(NOW, 'pending')
    const html = await page()
    const figure = (id: string) =>
      new RegExp(`<li data-figure="${id}">(.*?)</li>`, 's').exec(html)?.[1] ?? ''
    expect(figure('today')).toContain(formatAmount(150_000, 'en'))
    expect(figure('today')).toContain('Paid payments: 1')
    expect(figure('week')).toContain(formatAmount(400_000, 'en'))
    expect(figure('month')).toContain('Paid payments: 2')
    expect(figure('failure-rate')).toContain('33.3%')
    expect(figure('failure-rate')).toContain('1 of 3 settled payments')
    expect(figure('pending')).toContain('<strong class="big">1</strong>')
    expect(figure('pending')).toContain('href="/dashboard/payments?status=pending"')
    expect(html).toMatch(/data-reason="insufficient_funds"><span>Insufficient funds<\/span>/)
    expect(html).toContain(`href="/dashboard/links/${link.id}">Atelier &lt;b&gt;poterie&lt;/b&gt;`)
    expect(html).not.toContain('<b>poterie</b>')
  })

  it('draws one bar a day for 30 days, and its table holds the same numbers', async () => {
    await pay(NOW, 'paid', 150_000)
    await pay(NOW - DAY, 'paid', 20_000)
    await pay(NOW - DAY, 'failed')
    await pay(NOW - 10 * DAY, 'expired')
    await pay(NOW - 29 * DAY, 'paid', 70_000)
    const html = await page()
    const collected = /<svg class="chart" id="chart-collected".*?<\/svg>/s.exec(html)?.[0] ?? ''
    const outcomes = /<svg class="chart" id="chart-outcomes".*?<\/svg>/s.exec(html)?.[0] ?? ''
    expect(collected).toMatch(/role="img"/)
    expect(collected).toMatch(/aria-labelledby="chart-collected-title"/)
    expect(collected).toContain(`${formatAmount(240_000, 'en')} in all`)
    expect(outcomes).toContain('3 paid, 1 failed, 1 other')
    const bars = all(collected, /<rect class="bar money" data-date="([^"]+)"/g)
    expect(bars).toHaveLength(30)
    expect(bars.at(-1)).toBe('2026-01-15')
    expect(all(outcomes, /<g class="day" data-date="([^"]+)"/g)).toHaveLength(30)
    // Bar by bar, the table says the same.
    const table = /<table class="ov-table">.*?<\/table>/s.exec(html)?.[0] ?? ''
    const rows = new Map(
      [...table.matchAll(/<tr data-date="([^"]+)">(.*?)<\/tr>/gs)].map((m) => [m[1]!, m[2]!]),
    )
    expect(rows.size).toBe(30)
    let checked = 0
    for (const [, date, value] of collected.matchAll(
      /data-date="([^"]+)" data-value="(\d+)"/g,
    ) as Iterable<[string, string, string]>) {
      expect(rows.get(date)).toContain(`data-value="${value}"`)
      expect(rows.get(date)).toContain(formatAmount(Number(value), 'en'))
      checked++
    }
    expect(checked).toBe(30)
    const day = (date: string) =>
      all(rows.get(date) ?? '', /<td class="num"[^>]*>([^<]*)<\/td>/g).slice(1)
    expect(day('2026-01-14')).toEqual(['1', '1', '0'])
    expect(day('2026-01-05')).toEqual(['0', '0', '1'])
    const segments = (date: string) =>
      new RegExp(`<g class="day" data-date="${date}">(.*?)</g>`, 's').exec(outcomes)?.[1] ?? ''
    expect(all(segments('2026-01-14'), /data-kind="(\w+)"/g)).toEqual(['paid', 'failed'])
    expect(all(segments('2026-01-05'), /data-kind="(\w+)"/g)).toEqual(['other'])
    expect(rows.get('2026-01-14')).toContain(
      'href="/dashboard/payments?from=2026-01-14&amp;to=2026-01-14"',
    )
  })

  it('speaks Arabic right to left, with the oldest day on the right, and French', async () => {
    await pay(NOW, 'paid', 150_000)
    const ar = await page('ar')
    expect(ar).toContain('<html lang="ar" dir="rtl">')
    expect(ar).toContain('نظرة عامة')
    expect(ar).toContain(formatAmount(150_000, 'ar'))
    expect(ar).toContain('direction="rtl"')
    const x = (html: string, date: string) =>
      Number(new RegExp(`data-date="${date}" data-value="\\d+" x="([\\d.]+)"`).exec(html)?.[1])
    expect(x(ar, '2025-12-17')).toBeGreaterThan(x(ar, '2026-01-15'))
    const en = await page('en')
    expect(x(en, '2025-12-17')).toBeLessThan(x(en, '2026-01-15'))
    const fr = await page('fr')
    expect(fr).toContain('<html lang="fr" dir="ltr">')
    expect(fr).toContain('Encaissé aujourd’hui')
    expect(fr).toContain(formatAmount(150_000, 'fr'))
  })

  it('with no payments, says what to do instead of empty charts', async () => {
    for (const lang of ['en', 'fr', 'ar']) {
      const html = await page(lang)
      expect(html).toContain('data-empty="overview"')
      expect(html).toContain('href="/dashboard/links/new"')
      expect(html).not.toContain('<svg class="chart"')
    }
    expect(await page('en')).toContain('Create a payment link')
  })
})
