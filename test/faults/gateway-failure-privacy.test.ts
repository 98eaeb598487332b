/**
 * When the gateway fails at payment creation, what Paylinks keeps of the failure (the log lines
 * and `payments.error_reason`) names the gateway URL without its query, which carries the
 * customer's name, phone and e-mail, and holds none of them.
 */
import { createServer } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { describe as describeError } from '../../src/lib/describe-error.js'
import { createSimulator, type EndpointFault } from '../../src/simulator/index.js'
import { CUSTOMER, submitCheckout } from '../flows/support.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'

const INTERNATIONAL_PHONE = `+213${CUSTOMER.phone.slice(1)}`
/** The customer's data as typed and as it travels in the gateway URL's query. */
const PERSONAL = [CUSTOMER.name, CUSTOMER.phone, INTERNATIONAL_PHONE, CUSTOMER.email].flatMap(
  (v) => [v, encodeURIComponent(v)],
)

let p: Paylinks | undefined
afterEach(async () => {
  await p?.close()
  p = undefined
})

/** Submits a checkout that the gateway fails; returns the log lines and the stored reason. */
async function failedCheckout(paylinks: Paylinks, lines: Record<string, unknown>[]) {
  const link = await makeLink(paylinks, { title: 'Privacy', amount: 1500, language: 'en' })
  const res = await submitCheckout(paylinks, link.slug)
  expect(res.status).toBe(502)
  const row = paylinks.sqlite.sqlite.prepare('SELECT status, error_reason FROM payments').get() as {
    status: string
    error_reason: string | null
  }
  expect(row.status).toBe('error')
  const transition = lines.find((l) => l.event === 'payment_transition' && l.to === 'error')
  expect(transition?.reason).toBe(row.error_reason)
  return { log: lines.map((l) => JSON.stringify(l)).join('\n'), reason: row.error_reason ?? '' }
}

function expectNoCustomerData(text: string) {
  for (const value of PERSONAL) expect(text).not.toContain(value)
}

const FAULTS: [string, EndpointFault][] = [
  ['a 503', { status5xx: 503 }],
  ['a hang past the time-out', { hang: true }],
  ['malformed JSON', { malformedJson: true }],
]

describe('a gateway failure at payment creation', () => {
  it.each(FAULTS)(
    'after %s, keeps the gateway URL without its query in the log and error_reason',
    async (_name, fault) => {
      const lines: Record<string, unknown>[] = []
      p = await startPaylinks({ log: (l) => lines.push(l), gatewayTimeoutMs: 200 })
      p.simulator.faults.set({ endpoints: { 'make-cib-transaction': fault } })
      const { log, reason } = await failedCheckout(p, lines)
      expect(reason).toContain('/make-cib-transaction/')
      expect(reason).not.toContain('?')
      expectNoCustomerData(reason)
      expectNoCustomerData(log)
    },
  )

  it('keeps them out when the gateway cannot be reached at all', async () => {
    const probe = createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
    const { port } = probe.address() as { port: number }
    await new Promise((resolve) => probe.close(resolve))
    const lines: Record<string, unknown>[] = []
    p = await startPaylinks({
      log: (l) => lines.push(l),
      env: { GATEWAY_SITE_URL: `http://127.0.0.1:${port}` },
      existingSimulator: createSimulator({ publicUrl: 'http://unused.test' }),
    })
    const { log, reason } = await failedCheckout(p, lines)
    expect(reason).toContain(
      `GatewayConnectionError: Could not reach the gateway (GET http://127.0.0.1:${port}/make-cib-transaction/)`,
    )
    expectNoCustomerData(reason)
    expectNoCustomerData(log)
  })
})

describe('describe (the log form of an error)', () => {
  it('cuts the query from any URL an error quotes', () => {
    const error = new TypeError(
      `fetch failed: https://gw.example/make-cib-transaction/?full_name=Amina%20Benali&email=a%40b.dz (and http://x.test/p?q=1)`,
    )
    expect(describeError(error)).toBe(
      'TypeError: fetch failed: https://gw.example/make-cib-transaction/ (and http://x.test/p)',
    )
    expect(describeError('see http://x.test/?phone=0550123456')).toBe('see http://x.test/')
  })
})
