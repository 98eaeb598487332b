/**
 * The outbox's webhook channel: claims each due delivery, signs and POSTs it, and writes the
 * outcome with the next attempt on the retry schedule. Endpoints are served side by side, each
 * one's deliveries one after the other, so a payment's events reach a receiver in order.
 */
import type { Delivery, WebhookEndpoint } from '../../db/schema.js'
import type { Db } from '../data/db.js'
import { describe } from '../lib/describe-error.js'
import type { Logger } from '../log.js'
import { type AttemptOutcome, claim, failedAttempt, recordAttempt } from '../outbox/deliveries.js'
import { nextAttemptAt } from '../outbox/schedule.js'
import type { OutboxChannel, SendReport } from '../outbox/sender.js'
import {
  getEndpoint,
  noteEndpointFailure,
  noteEndpointSuccess,
  signingSecrets,
} from './endpoints.js'
import { buildPayload } from './payload.js'
import { postOnce, type WebhookFetch } from './post.js'
import { signedHeaders } from './sign.js'
import { checkTarget, type TargetPolicy } from './target-check.js'

export interface SenderDeps {
  db: Db
  clock: () => number
  log: Logger
  publicUrl: string
  targets: TargetPolicy
  /** How a POST is sent; it connects to the addresses the target check passed where it can. */
  fetch: WebhookFetch
  attemptTimeoutMs?: number
}

/** The outbox's webhook channel: the rows due, endpoint by endpoint, side by side. */
export function webhookChannel(deps: SenderDeps): OutboxChannel {
  return {
    channel: 'webhook',
    async send(rows, report) {
      const byEndpoint = new Map<string, Delivery[]>()
      for (const row of rows) {
        const list = byEndpoint.get(row.endpointId ?? '') ?? []
        list.push(row)
        byEndpoint.set(row.endpointId ?? '', list)
      }
      await Promise.all(
        [...byEndpoint].map(([endpointId, due]) => sendToEndpoint(deps, endpointId, due, report)),
      )
    },
  }
}

async function sendToEndpoint(
  deps: SenderDeps,
  endpointId: string,
  rows: Delivery[],
  report: SendReport,
): Promise<void> {
  const endpoint = await getEndpoint(deps.db, endpointId)
  if (!endpoint) return
  const sentPayments = new Set<string>()
  for (const row of rows) {
    // One event per payment and round: the next waits until this one is delivered or given up.
    if (row.paymentId && sentPayments.has(row.paymentId)) continue
    if (row.paymentId) sentPayments.add(row.paymentId)
    try {
      await attempt(deps, endpoint, row, report)
    } catch (error) {
      deps.log({
        level: 'error',
        event: 'webhook_out_failed',
        delivery: row.eventId,
        error: describe(error),
      })
    }
  }
}

async function attempt(
  deps: SenderDeps,
  endpoint: WebhookEndpoint,
  row: Delivery,
  report: SendReport,
): Promise<void> {
  const now = deps.clock()
  const payload =
    row.payload ?? (await buildPayload(deps.db, row, { publicUrl: deps.publicUrl, now }))
  if (payload === null) {
    // Its payment or link is gone: nothing true to send.
    await recordAttempt(
      deps.db,
      row.id,
      failedAttempt(now, 'the payment or link no longer exists', null),
    )
    return
  }
  const claimed = await claim(deps.db, row, payload, now)
  if (!claimed?.payload) return
  report.attempted++
  // Resolved once: on Node the POST goes to the addresses checked here (a DNS-rebinding name is
  // pinned); Workers' fetch cannot be told them and resolves the name again.
  const target = await checkTarget(endpoint.url, deps.targets)
  const result = target.problem
    ? { status: null, excerpt: null, error: `refused: ${target.problem}`, durationMs: 0 }
    : await postOnce(
        deps.fetch,
        { url: endpoint.url, addresses: target.addresses },
        await signedHeaders(signingSecrets(endpoint, now), claimed.eventId, now, claimed.payload),
        claimed.payload,
        deps.attemptTimeoutMs,
      )
  const ok = result.status !== null && result.status >= 200 && result.status < 300
  const outcome: AttemptOutcome = ok
    ? {
        at: now,
        status: result.status,
        responseExcerpt: result.excerpt,
        durationMs: result.durationMs,
        error: null,
        delivered: true,
        nextAttemptAt: null,
      }
    : {
        at: now,
        status: result.status,
        responseExcerpt: result.excerpt,
        durationMs: result.durationMs,
        error: result.error,
        delivered: false,
        nextAttemptAt: nextAttemptAt(claimed.attempts + 1, now),
      }
  await recordAttempt(deps.db, row.id, outcome)
  if (ok) {
    report.delivered++
    await noteEndpointSuccess(deps.db, endpoint.id)
  } else {
    await noteEndpointFailure(deps.db, endpoint.id, now)
  }
  deps.log({
    event: 'webhook_out',
    endpoint: endpoint.id,
    delivery: claimed.eventId,
    type: claimed.type,
    attempt: claimed.attempts + 1,
    status: result.status,
    ...(ok ? {} : { error: result.error, next_attempt_at: outcome.nextAttemptAt }),
  })
}
