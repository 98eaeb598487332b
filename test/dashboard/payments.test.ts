/** The payments list with its filters and paging, and the CSV export. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Link } from '../../db/schema.js'
import { csvAmount, csvCell } from '../../src/dashboard/csv.js'
import { formatAmount } from '../../src/i18n/index.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { storeLink } from '../support/links.js'
import { Browser, signedIn, storePayment, T0 } from './helpers.js'

let paylinks: Paylinks
let browser: Browser
let coffee: Link
let tea: Link

const HOUR = 60 * 60_000

beforeEach(async () => {
  paylinks = await startPaylinks({ clock: () => T0 })
  browser = await signedIn(paylinks)
  coffee = await storeLink(paylinks, { title: 'Café' })
  tea = await storeLink(paylinks, { title: 'Thé', amount: 50000 })
})
afterEach(() => paylinks.close())

/** The ids of the payment rows on a page, in order. */
function rowIds(html: string): string[] {
  return [...html.matchAll(/<tr data-payment-id="([^"]+)"/g)].map((m) => m[1]!)
}

/** Parses RFC 4180 CSV (quoted fields, doubled quotes, CRLF) for the assertions. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let cell = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"'
        i++
      } else if (ch === '"') quoted = false
      else cell += ch
    } else if (ch === '"') quoted = true
    else if (ch === ',') {
      row.push(cell)
      cell = ''
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell)
      rows.push(row)
      row = []
      cell = ''
      i++
    } else cell += ch
  }
  if (cell !== '' || row.length > 0) throw new Error('CSV does not end with CRLF')
  return rows
}

describe('the payments list', () => {
  it('lists payments newest first with link, customer, amount and status', async () => {
    const older = await storePayment(paylinks, coffee, { at: T0 - 2 * HOUR, name: 'Amina <b>' })
    const newer = await storePayment(paylinks, tea, { at: T0 - HOUR, status: 'failed' })
    const html = await (await browser.get('/dashboard/payments')).text()
    expect(rowIds(html)).toEqual([newer.id, older.id])
    expect(html).toContain('Amina &lt;b&gt;')
    expect(html).toContain(`<td class="num" data-label="Amount">${formatAmount(150000, 'en')}</td>`)
    expect(html).toContain('data-status="failed"')
    expect(html).toContain(`href="/dashboard/links/${tea.id}">Thé</a>`)
    // Each row opens the payment's own page (which links to the public receipt).
    expect(html).toContain(`href="/dashboard/payments/${older.id}"`)
    expect(html).not.toContain(`href="/r/${older.receiptId}"`)
  })

  it('filters by status, by link and by Algiers dates', async () => {
    // 2026-01-14 23:30 UTC is already 15 January in Algiers (UTC+1).
    const lateNight = await storePayment(paylinks, coffee, {
      at: Date.UTC(2026, 0, 14, 23, 30),
    })
    const dayBefore = await storePayment(paylinks, coffee, {
      at: Date.UTC(2026, 0, 14, 22, 30),
      status: 'canceled',
    })
    const onTea = await storePayment(paylinks, tea, { at: T0 - HOUR, status: 'pending' })
    const ids = async (query: string) =>
      rowIds(await (await browser.get(`/dashboard/payments${query}`)).text())
    expect(await ids('?status=canceled')).toEqual([dayBefore.id])
    expect(await ids(`?link=${tea.id}`)).toEqual([onTea.id])
    expect(await ids('?from=2026-01-15')).toEqual([onTea.id, lateNight.id])
    expect(await ids('?to=2026-01-14')).toEqual([dayBefore.id])
    expect(await ids(`?from=2026-01-15&to=2026-01-15&link=${coffee.id}`)).toEqual([lateNight.id])
    const page = await (
      await browser.get(`/dashboard/payments?status=pending&link=${tea.id}`)
    ).text()
    expect(page).toContain('<option value="pending" selected="">')
    expect(page).toContain(`<option value="${tea.id}" selected="">`)
    expect(page).toContain(`href="/dashboard/payments.csv?status=pending&amp;link=${tea.id}"`)
  })

  it('answers 400 and lists nothing for a filter that is not valid', async () => {
    await storePayment(paylinks, coffee)
    for (const query of ['?status=refunded', '?from=2026-13-01', '?link=%3Cx%3E', '?cursor=nope']) {
      const response = await browser.get(`/dashboard/payments${query}`)
      expect(response.status, query).toBe(400)
      const html = await response.text()
      expect(rowIds(html), query).toEqual([])
      expect(html).toContain('This filter is not valid')
    }
  })

  it('pages through payments, keeping the filters', async () => {
    const made: string[] = []
    for (let i = 0; i < 52; i++) {
      made.push((await storePayment(paylinks, coffee, { at: T0 - (i + 1) * 60_000 })).id)
    }
    await storePayment(paylinks, tea)
    const first = await (await browser.get(`/dashboard/payments?link=${coffee.id}`)).text()
    expect(rowIds(first)).toEqual(made.slice(0, 50))
    const next = /href="([^"]+)" rel="next"/.exec(first)?.[1]?.replaceAll('&amp;', '&')
    expect(next).toContain(`link=${coffee.id}`)
    const second = await (await browser.get(next!)).text()
    expect(rowIds(second)).toEqual(made.slice(50))
    expect(second).not.toContain('rel="next"')
  })
})

describe('the CSV export', () => {
  it('exports the filtered payments with amounts in DZD and an RFC 4180 shape', async () => {
    const paid = await storePayment(paylinks, coffee, {
      at: T0 - HOUR,
      amount: 150050,
      name: 'Benali, "Amina"\nLigne 2',
      ref: 'CMD-7',
    })
    await storePayment(paylinks, tea, { at: T0 - 2 * HOUR, status: 'failed' })
    const response = await browser.get(`/dashboard/payments.csv?status=paid`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/csv; charset=utf-8/)
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="paylinks-payments-2026-01-15.csv"',
    )
    const bytes = new Uint8Array(await response.arrayBuffer())
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const text = new TextDecoder().decode(bytes.slice(3))
    expect(text).toContain('"Benali, ""Amina""\nLigne 2"')
    const rows = parseCsv(text)
    expect(rows).toHaveLength(2)
    const [header, row] = rows as [string[], string[]]
    expect(header.slice(0, 6)).toEqual([
      'created_at',
      'payment_id',
      'link_id',
      'link_title',
      'status',
      'amount_dzd',
    ])
    const record = Object.fromEntries(header.map((h, i) => [h, row[i]]))
    expect(record).toMatchObject({
      created_at: '2026-01-15T10:00:00+01:00',
      payment_id: paid.id,
      link_id: coffee.id,
      link_title: 'Café',
      status: 'paid',
      amount_dzd: '1500.50',
      currency: 'DZD',
      customer_name: 'Benali, "Amina"\nLigne 2',
      ref: 'CMD-7',
      paid_at: '2026-01-15T10:00:00+01:00',
      receipt_url: `${paylinks.url}/r/${paid.receiptId}`,
      discount: '0.00',
      promo_code: '',
      fee: '0.00',
    })
  })

  it('defuses cells a spreadsheet would run as formulas', async () => {
    await storePayment(paylinks, coffee, {
      name: '=HYPERLINK("http://evil.example","x")',
      phone: '+213550123456',
      email: '@SUM(A1:A2)',
      ref: '-2+3',
    })
    const text = await (await browser.get('/dashboard/payments.csv')).text()
    const [header, row] = parseCsv(text.replace(/^\ufeff/, '')) as [string[], string[]]
    const record = Object.fromEntries(header.map((h, i) => [h, row[i]]))
    expect(record.customer_name).toBe(`'=HYPERLINK("http://evil.example","x")`)
    expect(record.customer_phone).toBe(`'+213550123456`)
    expect(record.customer_email).toBe(`'@SUM(A1:A2)`)
    expect(record.ref).toBe(`'-2+3`)
  })

  it('quotes and guards single cells', () => {
    expect(csvCell('plain')).toBe('plain')
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell('a\r\nb')).toBe('"a\r\nb"')
    expect(csvCell('\tcmd')).toBe(`"'\tcmd"`)
    expect(csvCell('=1+1,2')).toBe(`"'=1+1,2"`)
    expect(csvCell(null)).toBe('')
    expect(csvCell(12)).toBe('12')
  })

  it('quotes every separator of every locale and guards each place a cell could start', () => {
    // French and Arabic Excel split on ';': a cell holding one is quoted like one holding ','.
    expect(csvCell('a;b')).toBe('"a;b"')
    expect(csvCell('a\tb')).toBe('"a\tb"')
    expect(csvCell(';=1+1')).toBe(`";'=1+1"`)
    expect(csvCell(',=1+1')).toBe(`",'=1+1"`)
    expect(csvCell('Amina; -2+3')).toBe(`"Amina;' -2+3"`)
    expect(csvCell('\t=1')).toBe(`"'\t'=1"`)
    expect(csvCell('x\n@SUM(A1)')).toBe(`"x\n'@SUM(A1)"`)
    // A quote or spaces before the formula do not hide it.
    expect(csvCell('"=1+1')).toBe(`"'""=1+1"`)
    expect(csvCell(';  =1')).toBe(`";'  =1"`)
    // Text that only holds these characters further in is left as it is.
    expect(csvCell('CMD-42 a+b=c')).toBe('CMD-42 a+b=c')
    expect(csvCell('2026-01-15T10:00:00+01:00')).toBe('2026-01-15T10:00:00+01:00')
  })

  it('writes the amounts it formats itself as numbers, and guards anything else in their place', () => {
    expect(csvCell(csvAmount('1500.50'))).toBe('1500.50')
    expect(csvCell(csvAmount('-12.50'))).toBe('-12.50')
    expect(csvCell(csvAmount(''))).toBe('')
    expect(csvCell(csvAmount(null))).toBe('')
    expect(csvCell(csvAmount('-2+3'))).toBe(`'-2+3`)
    expect(csvCell(csvAmount('1;=1'))).toBe(`"1;'=1"`)
  })

  it('leaves no field starting a formula when the export is split on , ; or tab as a locale would', async () => {
    const hostile = [
      ';=1+1',
      ',=1+1',
      '\t=1',
      '-2+3',
      '@SUM(A1)',
      '=HYPERLINK("http://evil.example","x")',
      "Amina;=cmd|' /C calc'!A0",
      '"=1+1',
    ]
    for (const text of hostile) await storePayment(paylinks, coffee, { name: text, ref: text })
    // And as any customer can, from the checkout form, without paying.
    const link = await storeLink(paylinks, { title: 'Form', amount: 150000 })
    const page = await (await paylinks.app.request(`/l/${link.slug}`)).text()
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? ''
    const submitted = await paylinks.app.request(`/l/${link.slug}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        name: ';=1+1',
        phone: '0550123456',
        email: 'a@b.dz',
        ref: ',=1+1',
        terms: 'yes',
        csrf,
      }),
    })
    expect(submitted.status).toBe(303)
    const text = (await (await browser.get('/dashboard/payments.csv')).text()).replace(
      /^\ufeff/,
      '',
    )
    const [header, ...rows] = parseCsv(text) as [string[], ...string[][]]
    expect(rows).toHaveLength(hostile.length + 1)
    const names = rows.map((row) => row[header.indexOf('customer_name')])
    expect(names).toContain(`;'=1+1`)
    expect(names).toContain(`'-2+3`)
    for (const separator of [',', ';', '\t']) {
      const fields = text.split(/\r\n|\r|\n/).flatMap((line) => line.split(separator))
      // A reader may drop the quote a naive split leaves at a field's start, and leading spaces.
      const formulas = fields.filter((f) => /^[ "]*[=+\-@\t\r]/.test(f))
      expect(formulas, `split on ${JSON.stringify(separator)}`).toEqual([])
    }
  })

  it('exports every matching payment, beyond one page of the list', async () => {
    for (let i = 0; i < 205; i++) await storePayment(paylinks, coffee, { at: T0 - i * 1000 })
    await storePayment(paylinks, tea)
    const text = await (await browser.get(`/dashboard/payments.csv?link=${coffee.id}`)).text()
    expect(parseCsv(text.replace(/^\ufeff/, ''))).toHaveLength(206)
  })

  it('refuses a bad filter with 400 and a signed-out browser with a redirect', async () => {
    expect((await browser.get('/dashboard/payments.csv?to=yesterday')).status).toBe(400)
    const anon = new Browser(paylinks)
    expect((await anon.get('/dashboard/payments.csv')).status).toBe(303)
  })
})
