/**
 * A process that dies between a payment's write and the send loses nothing (the outbox row is
 * written by the payment's statement; the next process sends it), and endpoint URLs that point
 * into this machine's networks are refused outside simulator mode, at registration and again
 * before each attempt.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { deliveries } from '../../db/schema.js'
import { applyOutcome } from '../../src/data/payments.js'
import { createEndpoint } from '../../src/outbound-webhooks/endpoints.js'
import { type TargetPolicy, targetProblem } from '../../src/outbound-webhooks/target-check.js'
import { startPayment } from '../flows/support.js'
import { startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { T0 } from '../support/manual-time.js'
import { type Receiver, startReceiver, verify } from './receiver.js'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

async function receiverFor(): Promise<Receiver> {
  const r = await startReceiver()
  cleanups.push(() => r.close())
  return r
}

describe('a crash between the payment write and the send', () => {
  it('leaves the delivery in the outbox, and the next process sends it', async () => {
    const receiver = await receiverFor()
    const dir = mkdtempSync(join(tmpdir(), 'paylinks-crash-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    const databasePath = join(dir, 'paylinks.db')
    const now = T0
    const first = await startPaylinks({ clock: () => now, databasePath })
    const endpoint = await createEndpoint(
      first.deps.db,
      { url: receiver.url, description: null, eventTypes: ['payment.paid'], enabled: true },
      now,
    )
    const link = await makeLink(first, { title: 'Commande', amount: 2500, language: 'fr' })
    const { payment } = await startPayment(first, link.slug)
    // The payment's write alone, and the process goes before any sender runs.
    await applyOutcome(first.deps.db, payment.id, 'paid', {}, now, 'webhook')
    const [row] = await first.deps.db.select().from(deliveries)
    expect([row?.type, row?.state, row?.paymentId]).toEqual(['payment.paid', 'pending', payment.id])
    await first.close()
    expect(receiver.received).toEqual([])

    const second = await startPaylinks({ clock: () => now, databasePath })
    cleanups.push(() => second.close())
    await second.deps.outbound.run()
    expect(receiver.received).toHaveLength(1)
    const event = verify(endpoint.secret, receiver.received[0]!, now) as { data: { id: string } }
    expect(event.data.id).toBe(payment.id)
  })
})

const LIVE: TargetPolicy = { simulator: false, allowPrivate: false }

describe('endpoint targets outside simulator mode', () => {
  it.each([
    ['http://hooks.example.com/x', 'https_required'],
    ['https://127.0.0.1/', 'private_address'],
    ['https://127.1/', 'private_address'],
    ['https://2130706433/', 'private_address'],
    ['https://0x7f000001/', 'private_address'],
    ['https://017700000001/', 'private_address'],
    ['https://0/', 'private_address'],
    ['https://10.1.2.3/', 'private_address'],
    ['https://172.16.0.1/', 'private_address'],
    ['https://192.168.1.1:8443/', 'private_address'],
    ['https://169.254.169.254/latest/meta-data', 'private_address'],
    ['https://100.64.0.1/', 'private_address'],
    ['https://[::1]/', 'private_address'],
    ['https://[::]/', 'private_address'],
    ['https://[::ffff:127.0.0.1]/', 'private_address'],
    ['https://[::ffff:a9fe:a9fe]/', 'private_address'],
    ['https://[64:ff9b::a00:1]/', 'private_address'],
    ['https://[fe80::1]/', 'private_address'],
    ['https://[fd00:ec2::254]/', 'private_address'],
    ['https://[ff02::1]/', 'private_address'],
    ['https://localhost/', 'private_address'],
    ['https://api.localhost/', 'private_address'],
    ['https://intranet/', 'private_address'],
    ['https://user:pw@hooks.example.com/', 'invalid_url'],
    ['ftp://hooks.example.com/', 'invalid_url'],
    ['not a url', 'invalid_url'],
  ])('refuses %s (%s)', async (url, problem) => {
    expect(await targetProblem(url, LIVE)).toBe(problem)
  })

  it('takes public addresses, and checks every address a hostname resolves to', async () => {
    expect(await targetProblem('https://8.8.8.8/hooks', LIVE)).toBeNull()
    expect(await targetProblem('https://[2606:4700::1111]/hooks', LIVE)).toBeNull()
    const resolving = (addresses: string[]): TargetPolicy => ({
      ...LIVE,
      resolve: async () => addresses,
    })
    expect(
      await targetProblem('https://hooks.example.com/', resolving(['93.184.215.14'])),
    ).toBeNull()
    expect(
      await targetProblem('https://rebind.example.com/', resolving(['93.184.215.14', '10.0.0.7'])),
    ).toBe('private_address')
    expect(await targetProblem('https://gone.example.com/', resolving([]))).toBe('unresolvable')
    const failing: TargetPolicy = {
      ...LIVE,
      resolve: () => Promise.reject(new Error('ENOTFOUND')),
    }
    expect(await targetProblem('https://gone.example.com/', failing)).toBe('unresolvable')
  })

  it('allows private targets when told to, and loopback in simulator mode', async () => {
    expect(await targetProblem('https://10.1.2.3/', { ...LIVE, allowPrivate: true })).toBeNull()
    expect(await targetProblem('http://10.1.2.3/', { ...LIVE, allowPrivate: true })).toBe(
      'https_required',
    )
    expect(
      await targetProblem('http://127.0.0.1:9999/', { simulator: true, allowPrivate: false }),
    ).toBeNull()
  })

  it('refuses again before each attempt: an endpoint taken in simulator mode (http, loopback) gets nothing under the live rules', async () => {
    const receiver = await receiverFor()
    const now = T0
    const p = await startPaylinks({ clock: () => now })
    cleanups.push(() => p.close())
    await createEndpoint(
      p.deps.db,
      { url: receiver.url, description: null, eventTypes: ['payment.paid'], enabled: true },
      now,
    )
    Object.assign(p.deps.webhookTargets, LIVE)
    const link = await makeLink(p, { title: 'Commande', amount: 2500, language: 'fr' })
    const { tx } = await startPayment(p, link.slug)
    await p.simulator.completePayment(tx.cibTransactionId, 'approved')
    await p.settle()
    expect(receiver.received).toEqual([])
    const [row] = await p.deps.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.type, 'payment.paid'))
    expect([row?.state, row?.attempts, row?.lastError]).toEqual([
      'pending',
      1,
      'refused: https_required',
    ])
  })
})
