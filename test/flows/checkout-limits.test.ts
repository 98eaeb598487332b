/**
 * The checkout form at its edges, through the app: an open amount at the ceiling of link creation
 * and one centime over it, text that is not text (control characters, invalid UTF-8 sent as %FF
 * or as raw bytes) and malformed percent-encoding. A refused form answers 400 naming the field
 * in the page's language and leaves no payment row and no gateway transaction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_AMOUNT } from '../../src/domain/amount-bounds.js'
import { formatAmount, MESSAGES } from '../../src/i18n/index.js'
import { rowCount } from '../api/helpers.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { openCheckout, submitCheckout } from './support.js'

let p: Paylinks
let open: { slug: string }
let caller = 0

beforeAll(async () => {
  p = await startPaylinks()
  open = await makeLink(p, { title: 'Don libre', amount_min: 50, language: 'fr' })
})
afterAll(async () => {
  await p.close()
})

/** Posts a raw body (text or bytes) with a fresh form token; `{csrf}` in it is replaced. */
async function postRaw(slug: string, body: string | Uint8Array, lang = 'fr') {
  const { csrf } = await openCheckout(p, slug)
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body
  const withToken = new TextDecoder('latin1').decode(bytes).replace('{csrf}', csrf ?? '')
  const latin1 = Uint8Array.from(withToken, (ch) => ch.charCodeAt(0))
  return p.app.request(`/l/${slug}?lang=${lang}`, {
    method: 'POST',
    body: new Blob([latin1]),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-test-ip': `limits-${++caller}`,
    },
  })
}

const VALID = 'phone=0550123456&email=amina%40example.dz&terms=yes&amount=1500&csrf={csrf}'

/** What the refusal of one field must look like: 400, the field marked, nothing stored or sent. */
async function expectRefused(res: Response, field: string, message: string, before: number) {
  const html = await res.text()
  expect(res.status, html.slice(0, 300)).toBe(400)
  expect(html).toContain(`id="${field}-err"`)
  expect(html).toContain(message)
  expect(rowCount(p, 'payments')).toBe(before)
  expect(p.simulator.state.transactions.size).toBe(before)
}

describe('an open amount without a maximum', () => {
  it('takes exactly the ceiling of link creation, 100 000 000 DZD', async () => {
    const before = rowCount(p, 'payments')
    const res = await submitCheckout(p, open.slug, { amount: '100000000' }, { 'x-test-ip': 'a' })
    expect(res.status).toBe(303)
    expect(rowCount(p, 'payments')).toBe(before + 1)
    const amount = p.sqlite.sqlite.prepare('SELECT max(amount) AS a FROM payments').get()
    expect(amount).toEqual({ a: MAX_AMOUNT })
  })

  it.each(['fr', 'ar', 'en'] as const)(
    'refuses one centime more with 400 in the page language (%s), and changes nothing',
    async (lang) => {
      const before = rowCount(p, 'payments')
      const res = await submitCheckout(
        p,
        open.slug,
        { amount: '100000000.01', lang },
        { 'x-test-ip': `over-${lang}` },
      )
      const message = MESSAGES[lang].errAmountRange
        .replace('{min}', formatAmount(5000, lang))
        .replace('{max}', formatAmount(MAX_AMOUNT, lang))
      const html = await res.text()
      expect(res.status).toBe(400)
      expect(html).toContain('id="amount-err"')
      expect(html).toContain(message.replaceAll("'", '&#39;'))
      expect(rowCount(p, 'payments')).toBe(before)
    },
  )

  it('refuses 9 999 999 999 999 DZD and anything under 50 DZD', async () => {
    const before = rowCount(p, 'payments')
    for (const amount of ['9999999999999', '49.99', '0']) {
      const res = await submitCheckout(p, open.slug, { amount }, { 'x-test-ip': `x-${amount}` })
      expect(res.status, amount).toBe(400)
    }
    expect(rowCount(p, 'payments')).toBe(before)
  })
})

describe('text that is not text in the checkout form', () => {
  it('refuses a NUL in the name, naming the field in French', async () => {
    const before = rowCount(p, 'payments')
    const res = await postRaw(open.slug, `name=Amina%00Benali&${VALID}`)
    await expectRefused(res, 'name', MESSAGES.fr.errText, before)
  })

  it('refuses invalid UTF-8 sent as %FF, in Arabic', async () => {
    const before = rowCount(p, 'payments')
    const res = await postRaw(open.slug, `name=Amina%FF%FEBenali&${VALID}`, 'ar')
    await expectRefused(res, 'name', MESSAGES.ar.errText, before)
  })

  it('refuses invalid UTF-8 sent as raw 0xFF bytes, in English', async () => {
    const before = rowCount(p, 'payments')
    const head = new TextEncoder().encode('name=Amina+Benali&phone=0550123456&email=amina')
    const tail = new TextEncoder().encode('%40example.dz&terms=yes&amount=1500&csrf={csrf}')
    const res = await postRaw(open.slug, new Uint8Array([...head, 0xff, 0xc3, ...tail]), 'en')
    await expectRefused(res, 'email', MESSAGES.en.errText, before)
  })

  it('refuses a control character in the amount and a lone surrogate (as UTF-8 bytes) in the phone', async () => {
    const before = rowCount(p, 'payments')
    const amount = await postRaw(
      open.slug,
      `name=Amina+Benali&phone=0550123456&email=a%40b.dz&terms=yes&amount=15%1B00&csrf={csrf}`,
    )
    await expectRefused(amount, 'amount', MESSAGES.fr.errText, before)
    // ED A0 80 is how a lone U+D800 would be written in UTF-8: invalid, decoded as U+FFFD.
    const phone = await postRaw(
      open.slug,
      `name=Amina+Benali&${VALID.replace('0550', '%ED%A0%800550')}`,
    )
    await expectRefused(phone, 'phone', MESSAGES.fr.errText, before)
  })

  it('refuses a reference with a control character, with its own message', async () => {
    const before = rowCount(p, 'payments')
    const res = await postRaw(open.slug, `name=Amina+Benali&ref=INV%0D%0A1&${VALID}`, 'en')
    await expectRefused(res, 'ref', MESSAGES.en.errRefText, before)
  })

  it('still takes names in any script, with spaces around them', async () => {
    const res = await postRaw(
      open.slug,
      `name=+%D8%A3%D9%85%D9%8A%D9%86%D8%A9+%F0%9F%99%82+&${VALID}`,
    )
    expect(res.status).toBe(303)
  })
})

describe('malformed percent-encoding in the form body', () => {
  it.each([
    'name=%&',
    'name=%Z&',
    'name=Amina%ZZBenali&',
    'name=%E0%A4&',
    'name=%%%%&',
    '%=x&%FF=%FF&',
    'name=Amina%2',
  ])('never answers a 5xx (%s)', async (part) => {
    const before = rowCount(p, 'payments')
    const res = await postRaw(open.slug, `${part}&${VALID}`)
    expect(res.status).toBeLessThan(500)
    await res.text()
    if (res.status !== 303) expect(rowCount(p, 'payments')).toBe(before)
  })

  it('reads a % that starts no escape literally, as a lenient browser would have meant it', async () => {
    const res = await postRaw(open.slug, `name=Amina+100%+Benali&${VALID}`)
    expect(res.status).toBe(303)
    const row = p.sqlite.sqlite
      .prepare('SELECT customer_name AS name FROM payments ORDER BY rowid DESC LIMIT 1')
      .get()
    expect(row).toEqual({ name: 'Amina 100% Benali' })
  })

  it('refuses an escape that decodes to invalid UTF-8 by naming the field', async () => {
    const before = rowCount(p, 'payments')
    const res = await postRaw(open.slug, `name=Amina%E0%A4Benali&${VALID}`, 'en')
    await expectRefused(res, 'name', MESSAGES.en.errText, before)
  })
})
