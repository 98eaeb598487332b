/**
 * The sender: takes due deliveries from the outbox, claims each, signs and POSTs it (or hands a
 * mail row to the mail channel), and writes the outcome with the next attempt on the retry
 * schedule. Endpoints are served side by side, each one's deliveries one after the other, so a
 * payment's events reach a receiver in order.
 */
import type { Delivery, WebhookEndpoint } from '../../db/schema.js'
import type { Db } from '../data/db.js'
import { describe } from '../lib/describe-error.js'
import type { Logger } from '../log.js'
import { MailSendError } from '../mail/types.js'
import { type AttemptOutcome, claim, listDue, recordAttempt } from '../outbox/deliveries.js'
import { nextAttemptAt } from '../outbox/schedule.js'
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

/**
 * Sends a mail delivery (the mail feature's `deliverPaymentMails`): 'skipped' when there was
 * nothing to send; throws to be retried, or a MailSendError marked permanent to give up.
 */
export type MailChannel = (delivery: Delivery) => Promise<'sent' | 'skipped'>

export interface SenderDeps {
  db: Db
  clock: () => number
  log: Logger
  publicUrl: string
  targets: TargetPolicy
  /** How a POST is sent; it connects to the addresses the target check passed where it can. */
  fetch: WebhookFetch
  /** Where mail rows go; without it they wait in the outbox. */
  mail?: MailChannel | undefined
  attemptTimeoutMs?: number
}

export interface SendReport {
  attempted: number
  delivered: number
}

const BATCH = 50

/** Sends what is due now; rounds repeat while they deliver (a payment's next event becomes due). */
export async function deliverDue(deps: SenderDeps, maxRounds = 5): Promise<SendReport> {
  const report: SendReport = { attempted: 0, delivered: 0 }
  for (let round = 0; round < maxRounds; round++) {
    const before = report.delivered
    const due = await listDue(deps.db, 'webhook', deps.clock(), BATCH)
    const mail = deps.mail ? await listDue(deps.db, 'mail', deps.clock(), BATCH) : []
    if (due.length + mail.length === 0) break
    const byEndpoint = new Map<string, Delivery[]>()
    for (const row of due) {
      const list = byEndpoint.get(row.endpointId ?? '') ?? []
      list.push(row)
      byEndpoint.set(row.endpointId ?? '', list)
    }
    await Promise.all([
      ...[...byEndpoint].map(([endpointId, rows]) =>
        sendToEndpoint(deps, endpointId, rows, report),
      ),
      sendMail(deps, mail, report),
    ])
    if (report.delivered === before) break
  }
  return report
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
    await recordAttempt(deps.db, row.id, failure(now, 'the payment or link no longer exists', null))
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

function failure(at: number, error: string, next: number | null): AttemptOutcome {
  return {
    at,
    status: null,
    responseExcerpt: null,
    durationMs: 0,
    error,
    delivered: false,
    nextAttemptAt: next,
  }
}

async function sendMail(deps: SenderDeps, rows: Delivery[], report: SendReport): Promise<void> {
  const mail = deps.mail
  if (!mail) return
  for (const row of rows) {
    const now = deps.clock()
    const claimed = await claim(deps.db, row, '', now)
    if (!claimed) continue
    report.attempted++
    const started = performance.now()
    let outcome: AttemptOutcome
    try {
      const result = await mail(claimed)
      outcome = {
        ...failure(now, '', null),
        error: null,
        responseExcerpt: result === 'skipped' ? 'skipped' : null,
        durationMs: Math.round(performance.now() - started),
        delivered: true,
      }
      report.delivered++
    } catch (error) {
      // The error names no address (MailSendError); anything else is described, its URLs cut.
      const refused = error instanceof MailSendError ? error : null
      const next = refused?.permanent ? null : nextAttemptAt(claimed.attempts + 1, now)
      outcome = {
        ...failure(now, describe(error).slice(0, 200), next),
        status: refused?.smtpCode ?? null,
        durationMs: Math.round(performance.now() - started),
      }
    }
    await recordAttempt(deps.db, row.id, outcome)
    deps.log({
      event: 'mail_out',
      delivery: claimed.eventId,
      kind: claimed.mailKind,
      payment_id: claimed.paymentId,
      attempt: claimed.attempts + 1,
      status: outcome.status,
      ...(outcome.delivered
        ? {}
        : { failed: outcome.nextAttemptAt === null, next_attempt_at: outcome.nextAttemptAt }),
    })
  }
}
