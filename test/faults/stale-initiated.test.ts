/**
 * A process that dies between writing a payment and hearing from the gateway leaves the payment
 * `initiated`. The reconciler must end it, or it holds its link's place for ever.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { getPaymentById, reservePayment } from '../../src/data/payments.js'
import { INITIATED_TIMEOUT_MS } from '../../src/domain/check-schedule.js'
import { reconcile } from '../../src/payments/reconcile.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { formToken, postCheckout } from './support.js'

let p: Paylinks | undefined
afterEach(async () => {
  await p?.close()
  p = undefined
})

describe('a payment left initiated by a crash', () => {
  it('becomes error after the initiation timeout and gives its single-use link back', async () => {
    let now = Date.UTC(2026, 5, 1, 10, 0, 0)
    p = await startPaylinks({ clock: () => now })
    const link = await makeLink(p, { title: 'Single use', amount: 900, max_payments: 1 })
    // What the crash leaves: the row, written before the gateway call that never answered.
    const reserved = await reservePayment(
      p.deps.db,
      {
        linkId: link.id,
        amount: 90_000,
        customerName: 'Amina Benali',
        customerPhone: '0550123456',
        customerEmail: 'amina@example.dz',
        language: 'fr',
      },
      now,
    )
    if (!reserved.ok) throw new Error('not reserved')
    const csrf = await formToken(p, link.slug)
    expect((await postCheckout(p, link.slug, csrf, 1)).status).toBe(409)

    // Not before the timeout: the gateway call could still be answering.
    now += INITIATED_TIMEOUT_MS - 1000
    expect(await reconcile(p.deps)).toEqual({ checked: 0, settled: 0, replayed: 0 })
    expect((await getPaymentById(p.deps.db, reserved.payment.id))?.status).toBe('initiated')

    now += 2000
    expect(await reconcile(p.deps)).toEqual({ checked: 0, settled: 1, replayed: 0 })
    const ended = await getPaymentById(p.deps.db, reserved.payment.id)
    expect(ended).toMatchObject({ status: 'error', errorReason: 'gateway_timeout' })
    expect((await postCheckout(p, link.slug, await formToken(p, link.slug), 2)).status).toBe(303)
  })
})
