/**
 * A link's custom fields through the real app over loopback HTTP, with the simulator: a required
 * wilaya left empty is refused by its field in the page's language (Arabic, French, English) with
 * the other answers kept and no payment started; good answers are stored on the payment and shown
 * on the receipt, the payment object, its outbound event, the dashboard's payment page and the CSV.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { getLinkById } from '../../src/data/links.js'
import { getPaymentByReceiptId } from '../../src/data/payments.js'
import { receiptView } from '../../src/domain/receipt-view.js'
import { translator } from '../../src/i18n/index.js'
import { composeCustomerReceipt } from '../../src/mail/compose.js'
import { MAIL_TABLES } from '../../src/mail/messages.js'
import { buildPayload } from '../../src/outbound-webhooks/payload.js'
import { api, rowCount } from '../api/helpers.js'
import { signedIn } from '../dashboard/helpers.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { postLink } from '../support/links.js'

let p: Paylinks
beforeEach(async () => {
  p = await startPaylinks({ http: true })
})
afterEach(() => p.close())

const FIELDS = [
  { key: 'wilaya', label: 'Wilaya de livraison', type: 'wilaya', required: true },
  { key: 'address', label: 'Adresse', type: 'address' },
  { key: 'size', label: 'Taille', type: 'select', options: ['S', 'M', 'L'], required: true },
  { key: 'count', label: 'Nombre de personnes', type: 'number' },
]

const CUSTOMER = {
  name: 'Amina Benali',
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

/** Opens `url`'s form and sends it with its hidden fields (token, language) and `fields`. */
async function post(url: string, fields: Record<string, string>) {
  const page = await (await fetch(url)).text()
  const hidden: Record<string, string> = {}
  for (const [tag] of page.matchAll(/<input[^>]*type="hidden"[^>]*>/g)) {
    const name = /\bname="([^"]+)"/.exec(tag)?.[1]
    const value = /\bvalue="([^"]*)"/.exec(tag)?.[1]
    if (name) hidden[name] = unescapeHtml(value ?? '')
  }
  return fetch(url.split('?')[0]!, {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams({ ...hidden, ...fields }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
}

describe('custom fields on the checkout form', () => {
  it.each(['ar', 'fr', 'en'] as const)(
    'refuses a required wilaya left empty, named in %s, keeping the other answers',
    async (lang) => {
      const link = await postLink(p, { title: 'T-shirt', amount: 2500, custom_fields: FIELDS })
      const res = await post(`${p.url}/l/${link.slug}?lang=${lang}`, {
        ...CUSTOMER,
        cf_address: '12 rue Didouche Mourad\nAlger',
        cf_size: 'M',
      })
      expect(res.status).toBe(400)
      const html = await res.text()
      const t = translator(lang)
      expect(html).toContain(`<p class="err" id="cf-wilaya-err">${t('errRequired')}</p>`)
      expect(html).toMatch(/<select[^>]*id="cf-wilaya"[^>]*aria-invalid="true"/)
      // The answers given stay in the form.
      expect(html).toContain('>12 rue Didouche Mourad\nAlger</textarea>')
      expect(html).toContain('<option value="M" selected="">M</option>')
      expect(html).not.toContain('id="cf-size-err"')
      expect(rowCount(p, 'payments')).toBe(0)
    },
  )

  it('names a wrong wilaya, option and number by their fields', async () => {
    const link = await postLink(p, { title: 'T-shirt', amount: 2500, custom_fields: FIELDS })
    const res = await post(`${p.url}/l/${link.slug}?lang=fr`, {
      ...CUSTOMER,
      cf_wilaya: '59',
      cf_size: 'XXL',
      cf_count: 'deux',
    })
    expect(res.status).toBe(400)
    const html = await res.text()
    const t = translator('fr')
    expect(html).toContain(`id="cf-wilaya-err">${t('errFieldWilaya')}<`)
    expect(html).toContain(`id="cf-size-err">${t('errFieldChoice')}<`)
    expect(html).toContain(`id="cf-count-err">${t('errFieldNumber')}<`)
    expect(rowCount(p, 'payments')).toBe(0)
  })

  it('stores good answers, shown on the receipt, the payment object, its event, the payment page and the CSV', async () => {
    const link = await postLink(p, { title: 'T-shirt', amount: 2500, custom_fields: FIELDS })
    // The wilaya comes prefilled from the link's query; the form shows it chosen.
    const prefilled = await (await fetch(`${p.url}/l/${link.slug}?lang=fr&cf_wilaya=16`)).text()
    expect(prefilled).toContain('<option value="16" selected="">16 — Alger</option>')
    const res = await post(`${p.url}/l/${link.slug}?lang=fr`, {
      ...CUSTOMER,
      cf_wilaya: '16',
      cf_address: ' 12 rue Didouche Mourad\r\nAlger ',
      cf_size: 'L',
      cf_count: '3,0',
      cf_unknown: 'ignored',
    })
    expect(res.status).toBe(303)
    const location = res.headers.get('location') ?? ''
    const tx = [...p.simulator.state.transactions.values()].find((t) =>
      location.includes(t.orderId),
    )
    if (!tx) throw new Error(`no transaction for ${location}`)
    await p.simulator.completePayment(tx.cibTransactionId, 'approved')
    await p.settle()
    const receiptId = new URL(tx.returnUrl ?? '').pathname.split('/').pop() ?? ''
    const payment = await getPaymentByReceiptId(p.deps.db, receiptId)
    expect(payment?.status).toBe('paid')
    const answers = {
      wilaya: '16',
      address: '12 rue Didouche Mourad\nAlger',
      size: 'L',
      count: '3',
    }
    expect(payment?.customFields).toEqual(answers)

    const receipt = await (await fetch(tx.returnRedirect ?? '')).text()
    expect(receipt).toContain('<dt>Wilaya de livraison</dt><dd><bdi>16 — Alger</bdi></dd>')
    expect(receipt).toContain('<dt>Adresse</dt><dd><bdi>12 rue Didouche Mourad, Alger</bdi></dd>')
    expect(receipt).toContain('<dt>Taille</dt><dd><bdi>L</bdi></dd>')
    const arabic = await (await fetch(`${p.url}/r/${receiptId}?lang=ar`)).text()
    expect(arabic).toContain('<bdi>16 — الجزائر</bdi>')

    const object = await api(p, 'GET', `/api/v1/payments/${payment!.id}`)
    expect(object.body.custom_fields).toEqual(answers)
    const event = await buildPayload(
      p.deps.db,
      { type: 'payment.paid', paymentId: payment!.id, linkId: link.id, occurredAt: Date.now() },
      { publicUrl: p.url, now: Date.now() },
    )
    expect(JSON.parse(event ?? '{}').data.custom_fields).toEqual(answers)

    const browser = await signedIn(p)
    const page = await (await browser.get(`/dashboard/payments/${payment!.id}`)).text()
    expect(page).toContain('data-custom-fields')
    expect(page).toContain('<bdi>16 — Alger</bdi>')
    const csv = await (await browser.get('/dashboard/payments.csv')).text()
    const [header, row] = csv.replace(/^\ufeff/, '').split('\r\n')
    expect(header!.split(',').at(-1)).toBe('custom_fields')
    expect(
      row!.endsWith(',"wilaya=16 — Alger; address=12 rue Didouche Mourad, Alger; size=L; count=3"'),
    ).toBe(true)
  })

  it('lists the answers on the receipt PDF and e-mail, a wilaya by code and name in their language', async () => {
    const link = await postLink(p, { title: 'T-shirt', amount: 2500, custom_fields: FIELDS })
    const res = await post(`${p.url}/l/${link.slug}?lang=ar`, {
      ...CUSTOMER,
      cf_wilaya: '31',
      cf_address: 'حي السلام\nوهران',
      cf_size: 'S',
    })
    expect(res.status).toBe(303)
    const tx = [...p.simulator.state.transactions.values()].at(-1)!
    await p.simulator.completePayment(tx.cibTransactionId, 'approved')
    await p.settle()
    const receiptId = new URL(tx.returnUrl ?? '').pathname.split('/').pop() ?? ''
    const payment = (await getPaymentByReceiptId(p.deps.db, receiptId))!
    const stored = await getLinkById(p.deps.db, link.id)
    const view = receiptView(payment, 'T-shirt', link.slug, null, null, stored?.customFields)
    for (const lang of ['ar', 'fr'] as const) {
      const mail = composeCustomerReceipt({
        to: 'amina@example.dz',
        lang,
        merchantName: 'Boutique Test',
        testMode: true,
        receipt: view,
        receiptUrl: `${p.url}/r/${receiptId}`,
        file: null,
        words: MAIL_TABLES[lang],
      })
      const wilaya = lang === 'ar' ? '31 — وهران' : '31 — Oran'
      expect(mail.text).toContain(`Wilaya de livraison: ${wilaya}`)
      expect(mail.text).toContain('Adresse: حي السلام, وهران')
      expect(mail.html).toContain(wilaya)
    }
    const pdf = await fetch(`${p.url}/r/${receiptId}/download?lang=fr`)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    const file = join(mkdtempSync(join(tmpdir(), 'paylinks-fields-')), 'receipt.pdf')
    writeFileSync(file, new Uint8Array(await pdf.arrayBuffer()))
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' })
      .replace(/[\u200e\u200f\u202a-\u202e]/g, '')
      .replace(/\s+/g, ' ')
    expect(text).toContain('Wilaya de livraison')
    expect(text).toContain('31 — Oran')
    expect(text).toContain('Taille')
    rmSync(file, { force: true })
  })

  it('fills the answers in again when the customer tries again after a declined card', async () => {
    const link = await postLink(p, { title: 'T-shirt', amount: 2500, custom_fields: FIELDS })
    const res = await post(`${p.url}/l/${link.slug}?lang=fr`, {
      ...CUSTOMER,
      cf_wilaya: '58',
      cf_address: 'Cité 100 logements\nEl Meniaa',
      cf_size: 'S',
    })
    expect(res.status).toBe(303)
    const tx = [...p.simulator.state.transactions.values()].at(-1)!
    await p.simulator.completePayment(tx.cibTransactionId, 'declined')
    await p.settle()
    const receiptId = new URL(tx.returnUrl ?? '').pathname.split('/').pop() ?? ''
    const again = await (await fetch(`${p.url}/l/${link.slug}?lang=fr&retry=${receiptId}`)).text()
    expect(again).toContain('<option value="58" selected="">58 — El Meniaa</option>')
    expect(again).toContain('>Cité 100 logements\nEl Meniaa</textarea>')
    expect(again).toContain('<option value="S" selected="">S</option>')
  })

  it('keeps a spreadsheet from reading an answer as a formula in the CSV', async () => {
    const link = await postLink(p, {
      title: 'Note',
      amount: 2500,
      custom_fields: [{ key: 'note', label: 'Note', type: 'text' }],
    })
    const res = await post(`${p.url}/l/${link.slug}?lang=en`, {
      ...CUSTOMER,
      cf_note: 'x;=HYPERLINK("http://evil.example")',
    })
    expect(res.status).toBe(303)
    const browser = await signedIn(p)
    const csv = await (await browser.get('/dashboard/payments.csv')).text()
    expect(csv).toContain(`"note=x;'=HYPERLINK(""http://evil.example"")"`)
  })
})
