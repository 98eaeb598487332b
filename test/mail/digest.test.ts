/**
 * The merchant's daily digest (MERCHANT_NOTIFY=daily) through a real SMTP server on loopback:
 * payments paid through the checkout on both sides of Algiers midnights, the digest sent by the
 * Node wiring's timer check, once per day, also across a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { settings } from '../../db/schema.js'
import { formatAmount } from '../../src/i18n/index.js'
import type { Centimes } from '../../src/lib/money.js'
import { dailyDigestTicker, previousAlgiersDay } from '../../src/mail/daily-digest.js'
import { mailWordsInCode } from '../../src/mail/messages.js'
import { nodeMail } from '../../src/runtime/node/mail.js'
import { nodemailerTransport } from '../../src/runtime/node/mail-transport.js'
import { startPayment } from '../flows/support.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { type Inbox, startInbox } from './support.js'

let now = 0
let dir: string
let inbox: Inbox
let open: Paylinks[] = []
let logged: Array<Record<string, unknown>> = []

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paylinks-digest-'))
  inbox = await startInbox()
  logged = []
})
afterEach(async () => {
  for (const p of open) await p.close()
  open = []
  await inbox.close()
  rmSync(dir, { recursive: true, force: true })
})

/** Paylinks on this test's database file (the same file on each call: a restart). */
async function start(): Promise<Paylinks> {
  const p = await startPaylinks({
    clock: () => now,
    databasePath: join(dir, 'paylinks.db'),
    env: {
      SMTP_URL: inbox.url,
      MAIL_FROM: 'Boutique Test <receipts@boutique.test>',
      MERCHANT_EMAIL: 'owner@boutique.test',
      MERCHANT_NOTIFY: 'daily',
      DEFAULT_LANGUAGE: 'fr',
    },
  })
  open.push(p)
  return p
}

/** A payment paid through the checkout at `at` (ms). */
async function payAt(p: Paylinks, at: number, amount: number, ref: string) {
  now = at
  const link = await makeLink(p, { title: `Commande ${ref}`, amount, language: 'fr' })
  const { tx } = await startPayment(p, link.slug, { ref })
  await p.simulator.completePayment(tx.cibTransactionId, 'approved')
  await p.settle()
}

/** What the Node process does at its start: the digest's first check, then its stop. */
async function nodeDigestCheck(p: Paylinks) {
  const mail = await nodeMail({
    db: p.deps.db,
    config: p.deps.config,
    log: () => {},
    clock: () => now,
  })
  await mail.startDigest()()
  mail.close()
}

const digests = () => inbox.received.filter((m) => /^Paiements reçus le/.test(m.subject ?? ''))
const digestDay = async (p: Paylinks) =>
  (await p.deps.db.select().from(settings).where(eq(settings.key, 'mail_digest_day')))[0]?.value

describe('the daily digest', () => {
  it('covers the previous Algiers day, from one Algiers midnight to the next', () => {
    // 00:20 on 11 March in Algiers (UTC+1).
    const day = previousAlgiersDay(Date.UTC(2026, 2, 10, 23, 20))
    expect(day).toEqual({
      day: '2026-03-10',
      from: Date.UTC(2026, 2, 9, 23, 0),
      to: Date.UTC(2026, 2, 10, 23, 0),
    })
  })

  it('is sent once for the day with its count and total, not again on a later check nor after a restart', async () => {
    const p = await start()
    await payAt(p, Date.UTC(2026, 2, 9, 22, 50), 700, 'VEILLE') // 23:50 on the 9th in Algiers
    await payAt(p, Date.UTC(2026, 2, 9, 23, 30), 1500, 'MATIN') // 00:30 on the 10th
    await payAt(p, Date.UTC(2026, 2, 10, 22, 30), 2500.5, 'SOIR') // 23:30 on the 10th
    await payAt(p, Date.UTC(2026, 2, 10, 23, 10), 900, 'LENDEMAIN') // 00:10 on the 11th
    inbox.received.length = 0 // the receipts
    now = Date.UTC(2026, 2, 10, 23, 20)
    await nodeDigestCheck(p)
    expect(digests()).toHaveLength(1)
    const mail = digests()[0]!
    expect(mail.to).toMatchObject({ text: 'owner@boutique.test' })
    expect(mail.subject).toBe(
      `Paiements reçus le 10 mars 2026 : 2, ${formatAmount(400050 as Centimes, 'fr')}`,
    )
    expect(mail.text).toContain('MATIN')
    expect(mail.text).toContain('SOIR')
    expect(mail.text).not.toContain('VEILLE')
    expect(mail.text).not.toContain('LENDEMAIN')
    expect(await digestDay(p)).toBe('2026-03-10')

    now += 60 * 60_000
    await nodeDigestCheck(p)
    await p.close()
    open = []
    const restarted = await start()
    await nodeDigestCheck(restarted)
    expect(digests()).toHaveLength(1)

    // The next day has its own.
    now = Date.UTC(2026, 2, 11, 23, 5)
    await nodeDigestCheck(restarted)
    expect(digests().map((m) => m.subject)).toEqual([
      mail.subject,
      `Paiements reçus le 11 mars 2026 : 1, ${formatAmount(90000 as Centimes, 'fr')}`,
    ])
  })

  it('gives the day back when sending fails, and sends it on a check after the outbox’s first wait', async () => {
    const p = await start()
    now = Date.UTC(2026, 2, 10, 23, 20)
    const transport = nodemailerTransport(p.deps.config.mail!)
    const tick = dailyDigestTicker(
      {
        db: p.deps.db,
        config: p.deps.config,
        transport,
        mailWords: mailWordsInCode,
        log: (e) => logged.push(e),
      },
      () => now,
    )
    inbox.refuse = 'Try again later'
    await tick()
    expect(await digestDay(p)).toBeUndefined()
    expect(logged.map((l) => l.event)).toEqual(['mail_digest_failed'])
    inbox.refuse = null
    now += 4_000
    await tick()
    expect(digests()).toHaveLength(0)
    now += 1_000
    await tick()
    await tick()
    transport.close()
    expect(digests()).toHaveLength(1)
    expect(digests()[0]?.text).toContain('Aucun paiement reçu le 10 mars 2026.')
    expect(await digestDay(p)).toBe('2026-03-10')
  })
})
