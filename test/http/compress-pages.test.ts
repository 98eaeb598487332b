/**
 * Pages rendered per request are compressed when the browser asks (brotli first, then gzip), and
 * sent as they are otherwise; prepared checkout pages keep their own gzip form.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { chooseCoding } from '../../src/http/compress-pages.js'
import { pathOf, startPayment } from '../flows/support.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'

let p: Paylinks
beforeEach(async () => {
  p = await startPaylinks()
})
afterEach(async () => {
  await p.close()
})

async function fetchAs(path: string, acceptEncoding?: string) {
  const res = await p.app.request(path, {
    headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
  })
  const bytes = Buffer.from(await res.arrayBuffer())
  const encoding = res.headers.get('content-encoding')
  const text = (
    encoding === 'br'
      ? brotliDecompressSync(bytes)
      : encoding === 'gzip'
        ? gunzipSync(bytes)
        : bytes
  ).toString()
  return { res, encoding, size: bytes.length, text }
}

/** A paid payment's receipt path. */
async function receiptPath() {
  const link = await makeLink(p, { title: 'Abonnement mensuel', amount: 1500, language: 'fr' })
  const { tx } = await startPayment(p, link.slug)
  await p.simulator.completePayment(tx.cibTransactionId, 'approved')
  await p.settle()
  return pathOf(tx.returnRedirect ?? '')
}

describe('compressed pages', () => {
  it('sends the receipt brotli- or gzip-compressed as asked, the same page, and plain otherwise', async () => {
    const path = await receiptPath()
    const plain = await fetchAs(path)
    expect(plain.encoding).toBeNull()
    expect(plain.text).toContain('Paiement réussi')
    expect(plain.res.headers.get('vary')).toContain('Accept-Encoding')
    const br = await fetchAs(path, 'gzip, deflate, br')
    expect(br.encoding).toBe('br')
    expect(br.size).toBeLessThan(plain.size / 2)
    const gzip = await fetchAs(path, 'gzip, deflate')
    expect(gzip.encoding).toBe('gzip')
    expect(gzip.size).toBeLessThan(plain.size / 2)
    // Receipts carry the payment's own nonce and ids: compare without the nonce.
    const same = (text: string) => text.replace(/nonce="[^"]+"/g, '')
    expect(same(br.text)).toBe(same(plain.text))
    expect(same(gzip.text)).toBe(same(plain.text))
    expect(br.res.headers.get('content-security-policy')).toContain("'nonce-")
  })

  it('compresses the terms and error pages too, and leaves the prepared checkout page to its own gzip form', async () => {
    expect((await fetchAs('/terms?lang=en', 'br')).encoding).toBe('br')
    const missing = await fetchAs('/l/nothing-here', 'gzip')
    expect(missing.res.status).toBe(404)
    expect(missing.encoding).toBe('gzip')
    const link = await makeLink(p, { title: 'Prepared', amount: 1500 })
    await p.app.request(`/l/${link.slug}`)
    const prepared = await fetchAs(`/l/${link.slug}`, 'gzip, br')
    expect(prepared.encoding).toBe('gzip')
    expect(prepared.text).toContain('Prepared')
  })

  it('honours q=0 and prefers brotli, as Accept-Encoding says', () => {
    const both = ['br', 'gzip'] as const
    expect(chooseCoding('gzip, deflate, br', both)).toBe('br')
    expect(chooseCoding('br;q=0, gzip', both)).toBe('gzip')
    expect(chooseCoding('*', both)).toBe('br')
    expect(chooseCoding('*, br;q=0', both)).toBe('gzip')
    expect(chooseCoding('identity', both)).toBeNull()
    expect(chooseCoding('gzip;q=0, br;q=0', both)).toBeNull()
    expect(chooseCoding('br', ['gzip'])).toBeNull()
    expect(chooseCoding(undefined, both)).toBeNull()
  })
})
