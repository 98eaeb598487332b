import { afterEach, describe, expect, it } from 'vitest'
import { payments } from '../../db/schema.js'
import { getPaymentById } from '../../src/data/payments.js'
import { reconcile } from '../../src/payments/reconcile.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { CUSTOMER } from './support.js'

let p: Paylinks | undefined
afterEach(async () => {
  await p?.close()
  p = undefined
})

/** A customer's browser over real HTTP: open the form, then submit it. */
async function checkoutOverHttp(base: string, slug: string, fields: Record<string, string> = {}) {
  const page = await fetch(`${base}/l/${slug}`)
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? ''
  return fetch(`${base}/l/${slug}`, {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams({ ...CUSTOMER, csrf, ...fields }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
}

describe('the single-use race', () => {
  it('lets exactly one of 20 concurrent customers pay a max_payments 1 link', async () => {
    p = await startPaylinks({ http: true })
    const paylinks = p
    const link = await makeLink(paylinks, { title: 'Unique', amount: 5000, max_payments: 1 })
    // Prepare the 20 forms first so the submissions really race.
    const forms = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const html = await (await fetch(`${paylinks.url}/l/${link.slug}`)).text()
        return /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? ''
      }),
    )
    const answers = await Promise.all(
      forms.map((csrf, i) =>
        fetch(`${paylinks.url}/l/${link.slug}`, {
          method: 'POST',
          redirect: 'manual',
          body: new URLSearchParams({ ...CUSTOMER, email: `c${i}@example.dz`, csrf }),
          // Twenty customers on twenty phones: one address each, as the rate limiter sees them.
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            'x-test-ip': `10.0.0.${i}`,
          },
        }),
      ),
    )
    const statuses = answers.map((r) => r.status).sort()
    expect(statuses.filter((s) => s === 303)).toHaveLength(1)
    expect(statuses.filter((s) => s === 409)).toHaveLength(19)
    // The simulator approves every transaction it created: still exactly one paid payment.
    for (const tx of paylinks.simulator.state.transactions.values()) {
      await paylinks.simulator.completePayment(tx.cibTransactionId, 'approved')
    }
    await paylinks.settle()
    const rows = await paylinks.deps.db.select().from(payments)
    expect(rows.filter((r) => r.status === 'paid')).toHaveLength(1)
    expect(paylinks.simulator.state.transactions.size).toBe(1)
  })
})

describe('the gateway failing at submission', () => {
  it.each([
    ['a 503', { status5xx: 503 }],
    ['malformed JSON', { malformedJson: true }],
    ['a hang past the timeout', { hang: true }],
  ])(
    'shows the customer a retry page, never a 500, on %s, and records the payment as error',
    async (_, fault) => {
      p = await startPaylinks({ http: true, gatewayTimeoutMs: 300, simulator: { hangCapMs: 2000 } })
      const link = await makeLink(p, { title: 'Faulty', amount: 100, language: 'en' })
      p.simulator.faults.set({ endpoints: { 'make-cib-transaction': { ...fault, times: 1 } } })
      const res = await checkoutOverHttp(p.url, link.slug)
      expect(res.status).toBe(502)
      const html = await res.text()
      expect(html).toContain('The payment could not be started')
      const [row] = await p.deps.db.select().from(payments)
      expect(row?.status).toBe('error')
      expect(html).toContain(`href="/l/${link.slug}?lang=en&amp;retry=${row?.receiptId}"`)
      // The retry works once the gateway is back.
      expect((await checkoutOverHttp(p.url, link.slug)).status).toBe(303)
    },
  )

  it('still starts the payment when the gateway is slow but within the timeout', async () => {
    p = await startPaylinks({ http: true, gatewayTimeoutMs: 3000 })
    const link = await makeLink(p, { title: 'Slow', amount: 100 })
    p.simulator.faults.set({ endpoints: { 'make-cib-transaction': { latencyMs: 200 } } })
    expect((await checkoutOverHttp(p.url, link.slug)).status).toBe(303)
  })
})

describe('restart with payments pending', () => {
  it('settles every pending payment through the reconciler after a restart', async () => {
    p = await startPaylinks({ http: true })
    const first = p
    first.simulator.faults.set({ webhooks: { never: true } })
    const link = await makeLink(first, { title: 'Restart', amount: 100 })
    for (let i = 0; i < 4; i++)
      expect((await checkoutOverHttp(first.url, link.slug)).status).toBe(303)
    const outcomes = ['approved', 'declined', 'canceled', 'approved'] as const
    const txs = [...first.simulator.state.transactions.values()]
    for (const [i, tx] of txs.entries())
      await first.simulator.completePayment(tx.cibTransactionId, outcomes[i]!)
    const pending = await first.deps.db.select().from(payments)
    expect(pending.every((r) => r.status === 'pending')).toBe(true)

    // A second Paylinks process on the same database file and the same gateway.
    const restarted = await startPaylinks({
      databasePath: first.deps.config.databasePath,
      env: { GATEWAY_SITE_URL: first.deps.config.gatewaySiteUrl },
      existingSimulator: first.simulator,
      // Restarted a few minutes later, when the first re-checks are due.
      clock: () => Date.now() + 3 * 60_000,
    })
    try {
      const result = await reconcile(restarted.deps)
      expect(result).toEqual({ checked: 4, settled: 4, replayed: 0 })
      const byCib = new Map(txs.map((tx, i) => [tx.cibTransactionId, outcomes[i]]))
      for (const row of await restarted.deps.db.select().from(payments)) {
        const expected = { approved: 'paid', declined: 'failed', canceled: 'canceled' }[
          byCib.get(row.cibTransactionId ?? '')!
        ]
        expect((await getPaymentById(restarted.deps.db, row.id))?.status).toBe(expected)
      }
    } finally {
      await restarted.close()
    }
  })
})

describe('housekeeping', () => {
  it('drops rate-limit rows older than an hour when the reconciler runs', async () => {
    let now = Date.parse('2026-11-22T10:00:00Z')
    p = await startPaylinks({ clock: () => now })
    const { hitRateLimit } = await import('../../src/data/rate-limits.js')
    const { rateLimits } = await import('../../db/schema.js')
    await hitRateLimit(p.deps.db, 'checkout:10.0.0.1', 10, 60_000, now)
    now += 30 * 60_000
    await hitRateLimit(p.deps.db, 'checkout:10.0.0.2', 10, 60_000, now)
    now += 31 * 60_000
    await reconcile(p.deps)
    const keys = (await p.deps.db.select().from(rateLimits)).map((r) => r.key)
    expect(keys).toEqual(['checkout:10.0.0.2'])
  })
})
