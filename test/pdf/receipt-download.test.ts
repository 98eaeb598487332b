/**
 * The receipt's PDF on Node, read back with poppler's pdftotext: every language, its ids, amount
 * and merchant; hostile stored values still make a one-page file.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Payment } from '../../db/schema.js'
import { getPaymentById } from '../../src/data/payments.js'
import { formatAmount } from '../../src/i18n/index.js'
import { startPayment } from '../flows/support.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
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

async function paid(language: string, fields: Record<string, string> = {}): Promise<Payment> {
  const link = await makeLink(p, { title: 'Abonnement Gold', amount: 1500.5, language })
  const { tx, payment } = await startPayment(p, link.slug, fields)
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
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' })
  return {
    bytes,
    text: text.replace(/[\s\u200e\u200f\u202a-\u202e]+/g, ' '),
    pages: Number(/Pages:\s+(\d+)/.exec(info)?.[1]),
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

  it('carries each Arabic line’s own letters for copying and search', async () => {
    const payment = await paid('ar')
    const pdf = await readPdf(payment.receiptId, 'ar')
    // Drawn, ب is a dotless base and a dot; read back from the glyphs alone "الطلب" came out as
    // "الطلت". poppler puts a right-to-left line's text back to front, so either order is taken.
    expect(pdf.text).toMatch(/بلطلا مقر|رقم الطلب/)
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
  })

  it('is not offered for a payment that is not paid', async () => {
    const link = await makeLink(p, { title: 'Atelier', amount: 800, language: 'en' })
    const { receiptId } = await startPayment(p, link.slug)
    expect((await p.app.request(`/r/${receiptId}/download`)).status).toBe(404)
  })
})
