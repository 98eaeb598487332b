/** The two ways a delivery reaches the inbox — read-then-write, and Node's group commit — agree. */
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { webhookEvents } from '../../db/schema.js'
import { inboxKey, type RecordDelivery, recordDelivery } from '../../src/data/gateway-inbox.js'
import { reservePayment } from '../../src/data/payment-reserve.js'
import { groupCommitInbox } from '../../src/runtime/node/inbox.js'
import { storeLink } from '../support/links.js'
import { openTestDb, paymentRequest, T0, type TestDb } from './helpers.js'

let t: TestDb
const driver = createRequire(import.meta.url).resolve('better-sqlite3')
beforeEach(() => {
  t = openTestDb()
})
afterEach(() => t.cleanup())

async function payment(cib: string, status: string) {
  const link = await storeLink(t.db)
  const reserved = await reservePayment(t.db, paymentRequest(link), T0)
  if (!reserved.ok) throw new Error('not reserved')
  t.sqlite
    .prepare('UPDATE payments SET cib_transaction_id = ?, status = ? WHERE id = ?')
    .run(cib, status, reserved.payment.id)
  return reserved.payment.id
}

const delivery = (key: string, cib: string | null) => ({
  signedKey: key,
  cibTransactionId: cib,
  paymentStatus: 'success',
  payload: `{"k":"${key}"}`,
})

describe.each([
  ['read, then write', (d: TestDb): RecordDelivery => recordDelivery(d.db)],
  ['group commit (Node)', (d: TestDb): RecordDelivery => groupCommitInbox(d)],
])('recording a delivery: %s', (_name, make) => {
  it('starts each event in the state its payment calls for', async () => {
    const record = make(t)
    const pending = await payment('cib-pending', 'pending')
    const paid = await payment('cib-paid', 'paid')
    const [a, b, c, d] = await Promise.all([
      record(delivery('a', 'cib-pending'), T0),
      record(delivery('b', 'cib-paid'), T0),
      record(delivery('c', 'cib-unknown'), T0),
      record(delivery('d', null), T0),
    ])
    expect(a).toMatchObject({ isNew: true, payment: { id: pending, status: 'pending' } })
    expect(b).toMatchObject({ isNew: true, payment: { id: paid, status: 'paid' } })
    expect(c).toMatchObject({ isNew: true, payment: null })
    expect(d).toMatchObject({ isNew: true, payment: null })
    const rows = await t.db.select().from(webhookEvents)
    const byKey = Object.fromEntries(rows.map((r) => [r.dedupeKey, r]))
    // Known transactions: the signed pair and the transaction; unknown ones: the signed pair.
    expect(Object.keys(byKey).sort()).toEqual(['a:cib-pending', 'b:cib-paid', 'c', 'd'])
    expect(byKey['a:cib-pending']).toMatchObject({
      status: 'received',
      paymentId: pending,
      attempts: 0,
    })
    expect(byKey['b:cib-paid']).toMatchObject({
      status: 'processed',
      paymentId: paid,
      processedAt: T0,
    })
    expect(byKey.c).toMatchObject({ status: 'ignored', paymentId: null, attempts: 1 })
    expect(byKey.d?.lastError).toBe('no payment with this cib_transaction_id')
  })

  it('records 60 simultaneous deliveries with duplicates once per key', async () => {
    const record = make(t)
    await payment('cib-1', 'pending')
    const keys = Array.from({ length: 60 }, (_, i) => `key-${i % 20}`)
    const results = await Promise.all(keys.map((k) => record(delivery(k, 'cib-1'), T0)))
    expect(results.filter((r) => r.isNew)).toHaveLength(20)
    const rows = await t.db.select().from(webhookEvents)
    expect(rows).toHaveLength(20)
    // Every answer names the row of its key.
    const idByKey = new Map(rows.map((r) => [r.dedupeKey, r.id]))
    for (const [i, r] of results.entries()) expect(r.event.id).toBe(idByKey.get(`${keys[i]}:cib-1`))
  })

  it('keys a signed pair once whatever unknown transaction it names, and once per known one', async () => {
    const record = make(t)
    await payment('cib-a', 'pending')
    await payment('cib-b', 'pending')
    const named = [
      'cib-a',
      'cib-b',
      'cib-a',
      ...Array.from({ length: 20 }, (_, i) => `made-up-${i}`),
    ]
    const results = await Promise.all(named.map((cib) => record(delivery('pair', cib), T0)))
    expect(results.filter((r) => r.isNew)).toHaveLength(3)
    const keys = (await t.db.select().from(webhookEvents)).map((r) => r.dedupeKey).sort()
    expect(keys).toEqual(['pair', 'pair:cib-a', 'pair:cib-b'])
    expect(inboxKey(delivery('pair', 'made-up-7'), null)).toBe('pair')
  })

  it('keeps an unknown transaction whose signed message names a receipt received, for adoption', async () => {
    const record = make(t)
    const [named, unnamed] = await Promise.all([
      record({ ...delivery('named', 'cib-lost'), namesReceipt: true }, T0),
      record({ ...delivery('unnamed', 'cib-lost'), namesReceipt: false }, T0),
    ])
    expect(named).toMatchObject({ isNew: true, event: { status: 'received' }, payment: null })
    expect(unnamed).toMatchObject({ isNew: true, event: { status: 'ignored' }, payment: null })
    const rows = await t.db.select().from(webhookEvents)
    expect(rows.find((r) => r.dedupeKey === 'named')).toMatchObject({
      status: 'received',
      paymentId: null,
      attempts: 0,
      processedAt: null,
      lastError: null,
    })
  })
})

describe('group commit when the transaction fails', () => {
  it('fails every delivery of the batch, writes none of them, and takes the next batch', async () => {
    const record = groupCommitInbox(t)
    const broken = { ...delivery('bad', null), payload: null as unknown as string }
    const results = await Promise.allSettled([
      record(delivery('ok-1', null), T0),
      record(broken, T0),
      record(delivery('ok-2', null), T0),
    ])
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected'])
    expect(await t.db.select().from(webhookEvents)).toHaveLength(0)
    // Redelivered (as the gateway does after a 5xx), the good ones are recorded.
    const again = await Promise.all([
      record(delivery('ok-1', null), T0 + 1),
      record(delivery('ok-2', null), T0 + 1),
    ])
    expect(again.every((r) => r.isNew)).toBe(true)
    expect(await t.db.select().from(webhookEvents)).toHaveLength(2)
  })
})

describe('group commit beside another process writing to the same file', () => {
  it('waits for the write lock before reading, so its batch is not refused mid-way', async () => {
    const record = groupCommitInbox(t)
    await payment('cib-1', 'pending')
    // Another process takes the write lock, holds it 300 ms, writes and commits. A transaction that
    // read first would find its snapshot stale when it came to write, and SQLite refuses that
    // upgrade at once (SQLITE_BUSY_SNAPSHOT) instead of waiting.
    const other = spawn(
      process.execPath,
      [
        '-e',
        `const db = new (require(${JSON.stringify(driver)}))(${JSON.stringify(t.path)})
         db.pragma('busy_timeout = 5000')
         db.exec('BEGIN IMMEDIATE')
         process.stdout.write('locked\\n')
         Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300)
         db.prepare("INSERT INTO settings (key, value, created_at) VALUES ('other', 'x', 1)").run()
         db.exec('COMMIT')`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    await new Promise<void>((resolve) => other.stdout.once('data', () => resolve()))
    const recorded = await record(delivery('during-lock', 'cib-1'), T0)
    await new Promise((resolve) => other.once('exit', resolve))
    expect(recorded.isNew).toBe(true)
    expect(await t.db.select().from(webhookEvents)).toHaveLength(1)
  })
})
