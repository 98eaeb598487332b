/**
 * The receipt's PDF on Node, read back with poppler's pdftotext: every language, its ids, amount
 * and merchant; Arabic in reading order; the brand's logo as an image (pdfimages); an invoice's
 * items; hostile stored values still make a one-page file.
 */

import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Payment } from '../../db/schema.js'
import { replaceLogo, saveBranding } from '../../src/data/branding.js'
import { getPaymentById } from '../../src/data/payments.js'
import { formatAmount } from '../../src/i18n/index.js'
import { startPayment } from '../flows/support.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { pngLogo, webpHeaders } from '../support/images.js'
import { makeLink } from '../support/links.js'

const POPPLER = (() => {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()

/** Fails the test with what to install, instead of passing without having looked. */
function needPoppler() {
  if (!POPPLER)
    throw new Error('pdftotext is missing: install poppler-utils (apt-get install poppler-utils)')
}

let p: Paylinks
let dir: string
beforeAll(async () => {
  p = await startPaylinks()
  dir = mkdtempSync(join(tmpdir(), 'paylinks-pdf-'))
})
afterAll(async () => {
  await p.close()
  rmSync(dir, { recursive: true, force: true })
})

async function paid(
  language: string,
  fields: Record<string, string> = {},
  link: Record<string, unknown> = { title: 'Abonnement Gold', amount: 1500.5 },
): Promise<Payment> {
  const { slug } = await makeLink(p, { ...link, language })
  const { tx, payment } = await startPayment(p, slug, fields)
  await p.simulator.completePayment(tx.cibTransactionId, 'approved')
  await p.settle()
  const settled = await getPaymentById(p.deps.db, payment.id)
  if (settled?.status !== 'paid') throw new Error('the payment did not settle')
  return settled
}

/** Downloads the PDF and reads it back: its text with spaces made plain, and its page count. */
async function readPdf(receiptId: string, lang: string) {
  const res = await p.app.request(`/r/${receiptId}/download?lang=${lang}`)
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe('application/pdf')
  expect(res.headers.get('content-disposition')).toMatch(
    /^attachment; filename="receipt-[\w.-]+\.pdf"$/,
  )
  const bytes = new Uint8Array(await res.arrayBuffer())
  expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-')
  const file = join(dir, `${receiptId}.pdf`)
  writeFileSync(file, bytes)
  needPoppler()
  const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' })
  // The page's lines as laid out: a table's row reads as one line.
  const layout = execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], {
    encoding: 'utf8',
  })
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' })
  // One line per image drawn, under two header lines.
  const images = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' })
  const plain = (t: string) => t.replace(/[\u200e\u200f\u202a-\u202e]/g, '')
  return {
    bytes,
    text: plain(text).replace(/\s+/g, ' '),
    lines: plain(layout)
      .split('\n')
      .map((line) => line.replace(/\s+/g, ' ').trim()),
    pages: Number(/Pages:\s+(\d+)/.exec(info)?.[1]),
    images: images.trim().split('\n').slice(2),
  }
}

describe('the receipt PDF', () => {
  for (const lang of ['ar', 'fr', 'en'] as const) {
    it(`holds the amount, merchant, ids and approval code in ${lang}, on one page`, async () => {
      const payment = await paid(lang, { ref: 'CMD-2025/77' })
      const pdf = await readPdf(payment.receiptId, lang)
      const digits = formatAmount(payment.amount, lang)
        .replace(/[^\d.,\s\u202f\u00a0]/g, '')
        .trim()
      expect(pdf.text).toContain(digits.replace(/[\s\u202f\u00a0]+/g, ' '))
      expect(pdf.text).toContain('Boutique Test')
      for (const id of [payment.orderNumber, payment.orderId, payment.approvalCode, 'CMD-2025/77'])
        expect(pdf.text).toContain(id ?? 'missing')
      expect(pdf.text).toContain('3020')
      expect(pdf.pages).toBe(1)
      // Fonts are subset: a few dozen KB, not the fonts' full size.
      expect(pdf.bytes.length).toBeLessThan(60_000)
    })
  }

  it('gives Arabic back in reading order, each letter itself, for copying and search', async () => {
    await saveBranding(p.deps.db, { merchantName: 'متجر الأمينة للتجارة' } as never, p.deps.clock())
    try {
      const payment = await paid(
        'ar',
        { name: 'أمينة بن علي' },
        { title: 'اشتراك شهري Gold', amount: 1500.5 },
      )
      const pdf = await readPdf(payment.receiptId, 'ar')
      for (const words of [
        'أمينة بن علي',
        'متجر الأمينة للتجارة',
        'اشتراك شهري Gold',
        'تمت عملية الدفع بنجاح',
        // Drawn, ب is a dotless base and a dot: read back from the glyphs alone, "الطلب" came out
        // as "الطلت".
        'رقم الطلب',
        'اتصل بالرقم الأخضر لساتيم 3020',
      ])
        expect(pdf.text).toContain(words)
    } finally {
      await saveBranding(p.deps.db, { merchantName: null } as never, p.deps.clock())
    }
  })

  it('draws the brand’s PNG logo as an image; none without a logo or with a WebP one', async () => {
    const payment = await paid('fr')
    expect((await readPdf(payment.receiptId, 'fr')).images).toEqual([])
    const logo = async (contentType: string, bytes: Uint8Array) => {
      const sha256 = createHash('sha256').update(bytes).digest('hex')
      await replaceLogo(
        p.deps.db,
        { sha256, contentType, bytes, width: 240, height: 96 },
        p.deps.clock(),
      )
    }
    try {
      await logo('image/png', pngLogo(240, 96))
      for (const lang of ['fr', 'ar']) {
        const pdf = await readPdf(payment.receiptId, lang)
        expect(pdf.images).toHaveLength(1)
        expect(pdf.images[0]).toMatch(/^\s*1\s+0\s+image\s+240\s+96\s+rgb\b/)
        expect(pdf.text).toContain('Boutique Test')
        expect(pdf.pages).toBe(1)
      }
      // pdfkit draws PNG and JPEG only: a WebP logo leaves the merchant's name alone.
      await logo('image/webp', webpHeaders(240, 96))
      const webp = await readPdf(payment.receiptId, 'fr')
      expect(webp.images).toEqual([])
      expect(webp.text).toContain('Boutique Test')
    } finally {
      await replaceLogo(p.deps.db, null, p.deps.clock())
    }
  })

  it('lists an invoice link’s items with quantity, unit price, line total and the total', async () => {
    const items = [
      { description: 'Cartouche d’encre noire', quantity: 3, unit_price: 1250 },
      { description: 'Ramette papier A4', quantity: 2, unit_price: 600.25 },
    ]
    const payment = await paid('fr', {}, { title: 'Facture 2025-11', invoice_items: items })
    expect(payment.amount).toBe(495050)
    for (const lang of ['fr', 'ar'] as const) {
      const pdf = await readPdf(payment.receiptId, lang)
      // Amounts compared without their spaces: poppler puts the space between an Arabic amount's
      // number and its currency on the number's other side.
      const squash = (text: string) => text.replace(/\s+/g, '')
      const money = (centimes: number) => squash(formatAmount(centimes, lang))
      const row = (description: string, quantity: number, unit: number) =>
        pdf.lines.find(
          (line) =>
            line.includes(description) &&
            line.includes(` ${quantity} `) &&
            squash(line).includes(money(unit)) &&
            squash(line).includes(money(unit * quantity)),
        )
      expect(row('Cartouche d’encre noire', 3, 125000)).toBeDefined()
      expect(row('Ramette papier A4', 2, 60025)).toBeDefined()
      const total = lang === 'fr' ? 'Total' : 'المجموع'
      expect(pdf.lines.some((l) => l.includes(total) && squash(l).includes(money(495050)))).toBe(
        true,
      )
      expect(pdf.pages).toBe(1)
    }
  })

  it('goes on to a second page for a long list of items, the last item, total and foot kept', async () => {
    const items = Array.from({ length: 40 }, (_, i) => ({
      description: `Article ${i + 1}`,
      quantity: 1,
      unit_price: 100,
    }))
    const payment = await paid('en', {}, { title: 'Big order', invoice_items: items })
    const pdf = await readPdf(payment.receiptId, 'en')
    expect(pdf.pages).toBe(2)
    expect(pdf.lines.some((l) => /^Article 40 1 100\.00 DA 100\.00 DA$/.test(l))).toBe(true)
    expect(pdf.lines.some((l) => /^Total 4,000\.00 DA$/.test(l))).toBe(true)
    expect(pdf.text).toContain(`/r/${payment.receiptId}?lang=en`)
  })

  it('stays one page with very long, multi-script and unprintable stored text', async () => {
    const payment = await paid('ar')
    const long = `${'محمد Ali (Oran) '.repeat(200)}😀\u0007\u202e`
    p.sqlite.sqlite
      .prepare('UPDATE payments SET customer_name = ?, message = ?, ref = ? WHERE id = ?')
      .run(long, long, 'R'.repeat(5000), payment.id)
    p.sqlite.sqlite.prepare('UPDATE links SET title = ? WHERE id = ?').run(long, payment.linkId)
    const pdf = await readPdf(payment.receiptId, 'ar')
    expect(pdf.pages).toBe(1)
    expect(pdf.text).toContain('…')
    // The foot is on the page, not under its edge.
    expect(pdf.text).toContain(`/r/${payment.receiptId}?lang=ar`)
  })

  it('is not offered for a payment that is not paid', async () => {
    const link = await makeLink(p, { title: 'Atelier', amount: 800, language: 'en' })
    const { receiptId } = await startPayment(p, link.slug)
    expect((await p.app.request(`/r/${receiptId}/download`)).status).toBe(404)
  })
})
