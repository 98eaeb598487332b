/**
 * A gateway that no longer knows an order Paylinks registered with it: the built-in simulator after
 * a restart (its state lives in memory, on Node as under `wrangler dev`), or a gateway that lost
 * it. Its check answers "not found" (src/client/card/check.ts reads that as not paid yet); the
 * payment waits as an unanswered one does, then expires and gives its place back, instead of
 * showing "Confirming your payment" for ever.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { getPaymentById } from '../../src/data/payments.js'
import { EXPIRE_UNANSWERED_AFTER_MS } from '../../src/payments/confirm.js'
import { reconcile } from '../../src/payments/reconcile.js'
import { startPayment } from '../flows/support.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'

const dir = mkdtempSync(join(tmpdir(), 'paylinks-forgot-'))
const running: Paylinks[] = []

afterEach(async () => {
  for (const p of running.splice(0)) await p.close()
  rmSync(dir, { recursive: true, force: true })
})

it('expires a pending payment whose order the restarted simulator no longer knows, after the hour an unanswered one gets', async () => {
  let now = Date.now()
  const databasePath = join(dir, 'paylinks.db')
  const first = await startPaylinks({ clock: () => now, databasePath })
  running.push(first)
  const link = await makeLink(first, { title: 'Commande', amount: 2500, max_payments: 1 })
  const { payment } = await startPayment(first, link.slug)
  expect(payment.status).toBe('pending')
  await running.pop()?.close()

  // The same database, a new simulator: the order is gone from the gateway's memory.
  const second = await startPaylinks({ clock: () => now, databasePath })
  running.push(second)
  now += 10 * 60_000
  await reconcile(second.deps)
  expect((await getPaymentById(second.deps.db, payment.id))?.status).toBe('pending')

  now = payment.createdAt + EXPIRE_UNANSWERED_AFTER_MS + 60 * 60_000
  await reconcile(second.deps)
  const after = await getPaymentById(second.deps.db, payment.id)
  expect(after?.status).toBe('expired')
  expect(after?.failureCode).toBe('session_expired')
  // Its place on the single-use link is free again: a new customer reaches a card page.
  const again = await startPayment(second, link.slug)
  expect(again.payment.status).toBe('pending')
})
