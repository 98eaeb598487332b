import type { Delivery, DeliveryAttempt } from '../../db/schema.js'
import { formatDateTime } from '../../src/i18n/index.js'
import type { DashContext } from './layout.js'
import { Pager } from './links-page.js'
import { Cell, StackTable } from './parts.js'
import { DeliveryStateBadge, PostButton } from './webhook-parts.js'

/** An answer in short: its HTTP status (or that there was none) and how long it took. */
function answerText(
  ctx: DashContext,
  a: { status: number | null; durationMs: number | null; error: string | null },
): string {
  const status = a.status === null ? ctx.t('whNoAnswer') : `HTTP ${a.status}`
  const parts = [status]
  if (a.durationMs !== null) parts.push(ctx.t('whMs', { ms: a.durationMs }))
  if (a.error) parts.push(a.error)
  return parts.join(' · ')
}

/** Every attempt of a delivery, oldest first, with the start of each answer (escaped text). */
function Attempts(props: { ctx: DashContext; attempts: DeliveryAttempt[] }) {
  const { ctx } = props
  if (props.attempts.length === 0) return <p class="muted">{ctx.t('whNoAttempts')}</p>
  return (
    <ol class="wh-attempts">
      {props.attempts.map((a) => (
        <li data-attempt-status={a.status === null ? 'none' : String(a.status)}>
          <span class="nowrap">{formatDateTime(a.at, ctx.lang)}</span>{' '}
          <span class="ltr">{answerText(ctx, a)}</span>
          {a.responseExcerpt ? <pre class="raw">{a.responseExcerpt}</pre> : null}
        </li>
      ))}
    </ol>
  )
}

/**
 * An endpoint's deliveries, newest first: the event and its payment, state, attempts, the last
 * answer, the next attempt, the attempts to unfold, and a button that sends it again.
 */
export function DeliveryLog(props: {
  ctx: DashContext
  endpointId: string
  deliveries: Delivery[]
  attempts: Map<number, DeliveryAttempt[]>
  nextHref: string | null
  firstHref: string | null
}) {
  const { ctx } = props
  const t = ctx.t
  const col = {
    event: t('whColEvent'),
    payment: t('whColPayment'),
    state: t('whColState'),
    attempts: t('whColAttempts'),
    last: t('whColLast'),
    next: t('whColNext'),
  }
  const base = `/dashboard/webhooks/${props.endpointId}`
  return (
    <section class="card" aria-labelledby="log-title" id="deliveries">
      <h2 id="log-title">{t('whLog')}</h2>
      {props.deliveries.length === 0 ? (
        <p class="muted">{t('whLogEmpty')}</p>
      ) : (
        <StackTable
          columns={[
            { label: col.event },
            { label: col.payment },
            { label: col.state },
            { label: col.attempts, num: true },
            { label: col.last },
            { label: col.next },
            { label: t('details') },
          ]}
        >
          {props.deliveries.map((d) => (
            <tr data-event-id={d.eventId} id={d.eventId}>
              <Cell label={col.event}>
                <code>{d.type}</code>
                <span class="sub muted ltr">{d.eventId}</span>
              </Cell>
              <Cell label={col.payment} wide>
                {d.paymentId ? (
                  <a class="ltr" href={`/dashboard/payments/${encodeURIComponent(d.paymentId)}`}>
                    {d.paymentId}
                  </a>
                ) : null}
                <a class="sub ltr" href={`/dashboard/links/${encodeURIComponent(d.linkId)}`}>
                  {d.linkId}
                </a>
              </Cell>
              <Cell label={col.state}>
                <DeliveryStateBadge ctx={ctx} state={d.state} />
              </Cell>
              <Cell label={col.attempts} num>
                {d.attempts}
              </Cell>
              <Cell label={col.last}>
                {d.lastAttemptAt === null ? (
                  t('none')
                ) : (
                  <>
                    <span class="ltr">
                      {answerText(ctx, {
                        status: d.lastStatus,
                        durationMs: d.lastDurationMs,
                        error: d.lastError,
                      })}
                    </span>
                    <span class="sub nowrap">{formatDateTime(d.lastAttemptAt, ctx.lang)}</span>
                  </>
                )}
              </Cell>
              <Cell label={col.next}>
                {d.state === 'pending' ? (
                  <span class="nowrap">{formatDateTime(d.nextAttemptAt, ctx.lang)}</span>
                ) : (
                  t('none')
                )}
              </Cell>
              <Cell label="" wide class="wh-more">
                <details>
                  <summary>{t('whAttemptsN', { n: d.attempts })}</summary>
                  <Attempts ctx={ctx} attempts={props.attempts.get(d.id) ?? []} />
                </details>
                <PostButton
                  ctx={ctx}
                  action={`${base}/deliveries/${encodeURIComponent(d.eventId)}/redeliver`}
                  label={t('whRedeliver')}
                />
              </Cell>
            </tr>
          ))}
        </StackTable>
      )}
      <Pager ctx={ctx} nextHref={props.nextHref} firstHref={props.firstHref} />
    </section>
  )
}
