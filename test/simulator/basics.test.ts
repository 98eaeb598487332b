import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { isValidAccountId, isValidSecretSeed } from '../../src/lib/strkey.js'
import { buildMessage } from '../../src/simulator/card/callback.js'
import { createIds } from '../../src/simulator/ids.js'
import {
  createSimulator,
  SIMULATOR_MERCHANT_ACCOUNT,
  SIMULATOR_SECRET_SEED,
  TEST_CARDS,
} from '../../src/simulator/index.js'
import { TestCardsTable } from '../../src/simulator/views/card-parts.js'
import { formatAmount, WORDS } from '../../src/simulator/views/i18n.js'

const luhn = (digits: string) =>
  [...digits].reverse().reduce((sum, ch, i) => {
    const d = Number(ch) * (i % 2 ? 2 : 1)
    return sum + (d > 9 ? d - 9 : d)
  }, 0) %
    10 ===
  0

describe('published test credentials', () => {
  it('are valid: the seed and account pass their StrKey checksums, the cards pass Luhn', () => {
    expect(isValidSecretSeed(SIMULATOR_SECRET_SEED)).toBe(true)
    expect(isValidAccountId(SIMULATOR_MERCHANT_ACCOUNT)).toBe(true)
    for (const card of TEST_CARDS) expect(luhn(card.number)).toBe(true)
    expect(new Set(TEST_CARDS.map((c) => c.outcome))).toEqual(
      new Set(['approved', 'insufficient_funds', 'declined', 'expired_card']),
    )
  })
})

describe('callback message', () => {
  it('is built as gateway-facts.md infers: query values, status, shortest amount', () => {
    expect(
      buildMessage('inferred', 'https://shop.dz/r?a=1212123&b=hi&c=cib', 'success', 10000),
    ).toBe('1212123hicibsuccess100')
    expect(buildMessage('inferred', null, 'failed', 129950)).toBe('failed1299.5')
  })

  it('can be switched to two decimals or to a custom builder', () => {
    expect(buildMessage('decimal', 'https://shop.dz/r?a=1', 'success', 10000)).toBe(
      '1success100.00',
    )
    const custom = buildMessage(
      (p) => `${p.paymentStatus}|${p.amount}|${p.queryValues.length}`,
      'https://x.dz/?q=1',
      'success',
      5000,
    )
    expect(custom).toBe('success|5000|1')
  })
})

describe('ids', () => {
  it('are reproducible from a seed and differ between seeds', () => {
    const a = createIds('s1')
    const b = createIds('s1')
    const c = createIds('s2')
    const seqA = [a.uuid(), a.digits(10), a.hex(64)]
    expect([b.uuid(), b.digits(10), b.hex(64)]).toEqual(seqA)
    expect(c.uuid()).not.toBe(seqA[0])
    expect(seqA[1]).toMatch(/^[1-9]\d{9}$/)
    expect(seqA[2]).toMatch(/^[0-9a-f]{64}$/)
  })

  it('make two seeded simulators answer the same creation byte for byte', async () => {
    const answer = async () => {
      const sim = createSimulator({
        publicUrl: 'http://127.0.0.1:9090',
        seed: 'same',
        clock: () => 0,
      })
      const query = new URLSearchParams({
        account: SIMULATOR_MERCHANT_ACCOUNT,
        amount: '50',
        full_name: 'A',
        phone: '1',
        email: 'a@b.dz',
        redirect: 'no',
      })
      return (await sim.app.request(`/make-cib-transaction/?${query}`)).text()
    }
    expect(await answer()).toBe(await answer())
  })
})

describe('the card page in Arabic', () => {
  // In a right-to-left line, Latin text and an amount with its currency are reordered unless
  // isolated: "D Secure-3" and "DA 3 500,00" were what a customer read.
  it('keeps "3-D Secure" and an amount with its currency in their own left-to-right order', () => {
    expect(WORDS.ar.otpTitle).toContain('\u20663-D Secure\u2069')
    expect(formatAmount('3500.00', 'ar')).toBe('\u20663\u00a0500,00 DA\u2069')
    expect(formatAmount('3500.00', 'fr')).toBe('3\u00a0500,00 DA')
  })
})

describe('the test cards table', () => {
  // On a 360 px phone in French it scrolls sideways in its box: a keyboard must reach that box,
  // and a screen reader name it (axe-core: scrollable-region-focusable).
  it('scrolls in a box the keyboard reaches, named by its caption', async () => {
    const html = String(await TestCardsTable({ lang: 'fr' }))
    expect(html).toContain(
      `<section class="scroll" tabindex="0" aria-label="${WORDS.fr.testCards}">`,
    )
  })
})

describe('mounting', () => {
  it('works under /_sim inside another app, with card-page links under the mount path', async () => {
    const sim = createSimulator({ publicUrl: 'http://localhost:8787/_sim' })
    const app = new Hono()
    app.route('/_sim', sim.app)
    const query = new URLSearchParams({
      account: SIMULATOR_MERCHANT_ACCOUNT,
      amount: '50',
      full_name: 'A',
      phone: '1',
      email: 'a@b.dz',
      redirect: 'no',
    })
    const created = (await (await app.request(`/_sim/make-cib-transaction/?${query}`)).json()) as {
      payment_url: string
    }
    expect(created.payment_url).toMatch(/^http:\/\/localhost:8787\/_sim\/pay\//)
    const page = await (await app.request(new URL(created.payment_url).pathname)).text()
    expect(page).toContain(`action="${new URL(created.payment_url).pathname}/card"`)
    expect(page).toContain('href="/_sim/assets/simulator.css"')
    expect((await app.request('/_sim/assets/simulator.css')).status).toBe(200)
    expect((await app.request('/_sim/api/v1/products')).status).toBe(401)
  })

  it('isolates the state of two instances', async () => {
    const one = createSimulator({ publicUrl: 'http://a.test' })
    const two = createSimulator({ publicUrl: 'http://b.test' })
    const query = new URLSearchParams({
      account: SIMULATOR_MERCHANT_ACCOUNT,
      amount: '50',
      full_name: 'A',
      phone: '1',
      email: 'a@b.dz',
      redirect: 'no',
    })
    await one.app.request(`/make-cib-transaction/?${query}`)
    expect(one.state.transactions.size).toBe(1)
    expect(two.state.transactions.size).toBe(0)
  })
})
