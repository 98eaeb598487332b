import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Language, payments } from '../../db/schema.js'
import { getPaymentById } from '../../src/data/payments.js'
import { MESSAGES } from '../../src/i18n/index.js'
import { OUTCOMES } from '../../src/simulator/card/outcomes.js'
import { TEST_CARDS, TEST_OTP } from '../../src/simulator/constants.js'
import { FAILURE_REASON_KEYS } from '../../views/receipt.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { pathOf, startPayment } from './support.js'

let p: Paylinks
beforeEach(async () => {
  p = await startPaylinks()
})
afterEach(async () => {
  await p.close()
})

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  body: new URLSearchParams(fields),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
})

/** HTML-escapes as the page does, to find a text in it. */
const escaped = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')

const LANGUAGES: Language[] = ['ar', 'fr', 'en']
const DECLINING = TEST_CARDS.filter((card) => card.outcome !== 'approved')

describe('the failure page says why, in the customer’s language, with the gateway’s message', () => {
  for (const lang of LANGUAGES)
    for (const card of DECLINING)
      it(`${lang}: ${card.label}`, async () => {
        const link = await makeLink(p, { title: 'Commande', amount: 2500, language: lang })
        const { location, payment } = await startPayment(p, link.slug)
        const page = pathOf(location)
        const step1 = await p.app.request(
          `${page}/card`,
          form({ pan: card.number, expiry: card.expiry, cvv: card.cvv }),
        )
        expect(step1.status).toBe(303)
        const step2 = await p.app.request(`${page}/otp`, form({ otp: TEST_OTP }))
        expect(step2.status).toBe(303)
        // The customer's browser comes back; the return confirms through the check endpoint.
        const res = await p.app.request(pathOf(step2.headers.get('location') ?? ''))
        const html = await res.text()
        const settled = await getPaymentById(p.deps.db, payment.id)
        expect(settled).toMatchObject({
          status: 'failed',
          failureCode: card.outcome,
          statusCause: 'return',
        })
        const t = MESSAGES[lang]
        expect(html).toContain(`<html lang="${lang}"`)
        expect(html).toContain(escaped(t.failureReason))
        expect(html).toContain(escaped(t[FAILURE_REASON_KEYS[settled!.failureCode!]]))
        // SATIM's respCode_desc, in the language the card page was shown in, isolated.
        expect(html).toContain(`<bdi>${escaped(OUTCOMES[card.outcome].respCodeDesc![lang])}</bdi>`)
        expect(html).toContain('3020')
      })

  it.each([
    ['canceled', 'canceled_by_customer'],
    ['session_expired', 'session_expired'],
  ] as const)(
    '%s: the reason and actionCodeDescription (respCode_desc is empty)',
    async (outcome, code) => {
      const link = await makeLink(p, { title: 'Order', amount: 2500, language: 'en' })
      const { tx, payment } = await startPayment(p, link.slug)
      await p.simulator.completePayment(tx.cibTransactionId, outcome)
      await p.settle()
      expect((await getPaymentById(p.deps.db, payment.id))?.failureCode).toBe(code)
      const html = await (await p.app.request(pathOf(tx.returnRedirect ?? ''))).text()
      expect(html).toContain(escaped(MESSAGES.en[FAILURE_REASON_KEYS[code]]))
      expect(html).toContain(`<bdi>${OUTCOMES[outcome].actionCodeDescription.en}</bdi>`)
    },
  )

  it('shows a hostile gateway message escaped, cut and without direction overrides', async () => {
    const link = await makeLink(p, { title: 'Order', amount: 2500, language: 'en' })
    const { payment, receiptId } = await startPayment(p, link.slug)
    const hostile = `<img src=x onerror=alert(1)>\u202e${'x'.repeat(500)}`
    await p.deps.db
      .update(payments)
      .set({ status: 'failed', failureCode: 'declined', checkResponse: { respCode_desc: hostile } })
      .where(eq(payments.id, payment.id))
    const html = await (await p.app.request(`/r/${receiptId}`)).text()
    expect(html).not.toContain('<img src=x')
    expect(html).not.toContain('\u202e')
    const shown = /<bdi>(&lt;img[^<]*)<\/bdi>/.exec(html)?.[1] ?? ''
    expect(shown).toMatch(/^&lt;img src=x onerror=alert\(1\)&gt; x+…$/)
    expect(shown.replaceAll('&lt;', '<').replaceAll('&gt;', '>').length).toBe(200)
    expect(html).toContain(MESSAGES.en.reasonDeclined)
  })
})
