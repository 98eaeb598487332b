import type { Delivery, DeliveryAttempt } from '../../db/schema.js'
import { formatDateTime } from '../../src/i18n/index.js'
import type { DashContext } from './layout.js'
import { Pager } from './links-page.js'
import { Cell, StackTable } from './parts.js'
import { DeliveryStateBadge, PostButton } from './webhook-parts.js'

/**
 * An answer in short: its HTTP status (or that there was none), how long it took, and the
 * sender's error (in English, as stored), each isolated so that none reorders another in Arabic.
 */
function Answer(props: {
  ctx: DashContext
  status: number | null
  durationMs: number | null
  error: string | null
}) {
  const { ctx } = props
  return (
    <span class="wh-answer">
      {props.status === null ? (
        <bdi>{ctx.t('whNoAnswer')}</bdi>
      ) : (
        <bdi dir="ltr">HTTP {props.status}</bdi>
      )}
      {props.durationMs !== null ? (
        <>
          {' · '}
          <bdi>{ctx.t('whMs', { ms: props.durationMs })}</bdi>
        </>
      ) : null}
      {props.error ? (
        <>
          {' · '}
          <bdi dir="ltr">{props.error}</bdi>
        </>
      ) : null}
    </span>
  )
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
          <Answer ctx={ctx} status={a.status} durationMs={a.durationMs} error={a.error} />
          {a.responseExcerpt ? (
            <pre class="raw" dir="ltr">
              {a.responseExcerpt}
            </pre>
          ) : null}
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
                    <Answer
                      ctx={ctx}
                      status={d.lastStatus}
                      durationMs={d.lastDurationMs}
                      error={d.lastError}
                    />
                    <span class="sub">{formatDateTime(d.lastAttemptAt, ctx.lang)}</span>
                  </>
                )}
              </Cell>
              <Cell label={col.next}>
                {d.state === 'pending' ? formatDateTime(d.nextAttemptAt, ctx.lang) : t('none')}
              </Cell>
              <Cell label="" wide class="wh-more">
                <details>
                  <summary>{t('whAttemptsN', { n: d.attempts })}</summary>
                  <p class="wh-id muted ltr">webhook-id: {d.eventId}</p>
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
