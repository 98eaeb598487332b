/** The CSV export is streamed: a page of payments at a time, never the whole file at once. */
import { afterEach, beforeEach, expect, it } from 'vitest'
import { CSV_HEADER, csvLine } from '../../src/dashboard/csv.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { storeLink } from '../support/links.js'
import { type Browser, signedIn, storePayment, T0 } from './helpers.js'

let paylinks: Paylinks
let browser: Browser

beforeEach(async () => {
  paylinks = await startPaylinks({ clock: () => T0 })
  browser = await signedIn(paylinks)
})
afterEach(() => paylinks.close())

it('sends the header first, then the payments one page (200) at a time', async () => {
  const link = await storeLink(paylinks, { title: 'Café' })
  for (let i = 0; i < 450; i++) await storePayment(paylinks, link, { at: T0 - i * 1000 })
  const response = await browser.get('/dashboard/payments.csv')
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toMatch(/^text\/csv/)
  const reader = response.body!.getReader()
  // Keeping the byte order mark, which decoders drop by default.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true })
  const chunks: string[] = []
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    chunks.push(decoder.decode(next.value, { stream: true }))
  }
  expect(chunks[0]).toBe(`\ufeff${csvLine(CSV_HEADER)}`)
  const rowsPerChunk = chunks.slice(1).map((chunk) => chunk.split('\r\n').length - 1)
  expect(rowsPerChunk).toEqual([200, 200, 50])
})

it('answers an empty export with the header alone', async () => {
  const bytes = await (await browser.get('/dashboard/payments.csv?status=paid')).arrayBuffer()
  expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)).toBe(
    `\ufeff${csvLine(CSV_HEADER)}`,
  )
})

it("names every payment's link, each sale on its own link, across pages", async () => {
  // As a till's sales are: 250 payments, each on a link of its own, over two pages of the export.
  const titles = new Map<string, string>()
  for (let i = 0; i < 250; i++) {
    const link = await storeLink(paylinks, { title: `Vente ${i}` })
    titles.set(link.id, link.title)
    await storePayment(paylinks, link, { at: T0 - i * 1000 })
  }
  const text = await (await browser.get('/dashboard/payments.csv')).text()
  const [header, ...rows] = text
    .replace(/^\ufeff/, '')
    .trimEnd()
    .split('\r\n')
  const columns = header!.split(',')
  const [idAt, titleAt] = [columns.indexOf('link_id'), columns.indexOf('link_title')]
  expect(rows).toHaveLength(250)
  for (const row of rows) {
    const cells = row.split(',')
    expect(cells[titleAt]).toBe(titles.get(cells[idAt]!))
  }
})
