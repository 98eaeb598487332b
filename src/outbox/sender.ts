/**
 * The outbox's sender: takes the rows due on each channel and hands them to that channel, in
 * rounds that repeat while they deliver (a payment's next event becomes due once the one before it
 * is delivered or given up). A channel claims each row, attempts it and records the outcome with
 * the queries of deliveries.ts; the channels are the outbound webhooks
 * (src/outbound-webhooks/sender.ts) and mail (src/mail/outbox-channel.ts), plugged in by the start.
 */
import type { Delivery, DeliveryChannel } from '../../db/schema.js'
import type { Db } from '../data/db.js'
import type { SendReport } from '../deps.js'
import { listDue } from './deliveries.js'

export type { SendReport }

/** One kind of outbox row and how its due rows are sent. */
export interface OutboxChannel {
  channel: DeliveryChannel
  /** Claims, attempts and records each row, counting in `report` what it attempted and delivered. */
  send(rows: Delivery[], report: SendReport): Promise<void>
}

/** What reading the rows due needs. */
export interface OutboxDeps {
  db: Db
  clock: () => number
}

const BATCH = 50

/** Sends what is due now on `channels`; rounds repeat while they deliver. */
export async function deliverDue(
  deps: OutboxDeps,
  channels: readonly OutboxChannel[],
  maxRounds = 5,
): Promise<SendReport> {
  const report: SendReport = { attempted: 0, delivered: 0 }
  for (let round = 0; round < maxRounds; round++) {
    const before = report.delivered
    const due: Delivery[][] = []
    for (const { channel } of channels)
      due.push(await listDue(deps.db, channel, deps.clock(), BATCH))
    if (due.every((rows) => rows.length === 0)) break
    // Side by side: a slow receiver does not hold the e-mails back, nor the other way round.
    await Promise.all(channels.map((channel, i) => channel.send(due[i] ?? [], report)))
    if (report.delivered === before) break
  }
  return report
}
