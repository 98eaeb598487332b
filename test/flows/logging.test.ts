import { afterEach, describe, expect, it } from 'vitest'
import { type Paylinks, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { startPayment } from './support.js'

let p: Paylinks
afterEach(async () => {
  await p.close()
})

describe('logs', () => {
  it('writes one structured line per request and one per payment transition, with no secret', async () => {
    const lines: Record<string, unknown>[] = []
    p = await startPaylinks({ log: (entry) => lines.push(entry) })
    const link = await makeLink(p, { title: 'Logged', amount: 100 })
    const { tx } = await startPayment(p, link.slug)
    await p.simulator.completePayment(tx.cibTransactionId, 'approved')
    await p.settle()

    const requests = lines.filter((l) => 'route' in l && 'status' in l)
    const checkoutPost = requests.find((l) => l.method === 'POST' && l.route === '/l/:slug')
    expect(checkoutPost).toMatchObject({ status: 303 })
    expect(typeof checkoutPost?.request_id).toBe('string')
    expect(typeof checkoutPost?.duration_ms).toBe('number')
    expect(Number.isNaN(Date.parse(String(checkoutPost?.time)))).toBe(false)
    const webhook = requests.find((l) => l.route === '/webhooks/gateway')
    expect(webhook).toMatchObject({ method: 'POST', status: 200 })

    const transitions = lines
      .filter((l) => l.event === 'payment_transition')
      .map((l) => `${l.from}->${l.to}`)
    expect(transitions).toEqual(['initiated->pending', 'pending->paid'])

    const all = JSON.stringify(lines)
    expect(all).not.toContain(TEST_ADMIN_TOKEN)
    expect(all).not.toContain(p.deps.secrets.sessionSecret)
    expect(all).not.toContain('SAFTAVL2T7')
    expect(all).not.toContain('amina@example.dz')
  })
})
