import type { Delivery, DeliveryAttempt, WebhookEndpoint } from '../../db/schema.js'
import { formatDateTime } from '../../src/i18n/index.js'
import { CsrfField, type DashContext, DashLayout } from './layout.js'
import { Notice } from './parts.js'
import { DeliveryLog } from './webhook-deliveries.js'
import { EventTypes, HealthBadge, PostButton, SecretBox, SendingBadge } from './webhook-parts.js'

/**
 * One webhook endpoint: its address, state and settings; the secret on the answer that made it;
 * turning it on or off, rotating its secret (with the 24 hours' overlap said), deleting it after a
 * confirmation; then its delivery log.
 */
export function WebhookEndpointPage(props: {
  ctx: DashContext
  endpoint: WebhookEndpoint
  /** The secret just created or rotated: shown on this answer only. */
  secret?: { value: string; note?: string | undefined } | undefined
  notice?: { text: string; kind?: 'ok' | 'error' } | undefined
  deliveries: Delivery[]
  attempts: Map<number, DeliveryAttempt[]>
  nextHref: string | null
  firstHref: string | null
}) {
  const { ctx, endpoint: e } = props
  const t = ctx.t
  const base = `/dashboard/webhooks/${e.id}`
  const previous =
    e.previousSecret && e.previousSecretExpiresAt !== null ? e.previousSecretExpiresAt : null
  return (
    <DashLayout ctx={ctx} title={t('whTitle')} nav="webhooks" script="share">
      <section class="card" aria-labelledby="wh-title" data-endpoint-id={e.id}>
        <div class="head">
          <h1 id="wh-title" class="ltr wh-url">
            {e.url}
          </h1>
          <span>
            <SendingBadge ctx={ctx} endpoint={e} /> <HealthBadge ctx={ctx} endpoint={e} />
          </span>
        </div>
        {e.description ? <p dir="auto">{e.description}</p> : null}
        <Notice text={props.notice?.text} kind={props.notice?.kind} />
        {props.secret ? (
          <SecretBox ctx={ctx} secret={props.secret.value} note={props.secret.note} />
        ) : null}
        <dl class="kv">
          <dt>{t('whColEvents')}</dt>
          <dd>
            <EventTypes types={e.eventTypes} />
          </dd>
          {e.failingSince !== null ? (
            <>
              <dt>{t('whFailingSince')}</dt>
              <dd>{formatDateTime(e.failingSince, ctx.lang)}</dd>
            </>
          ) : null}
          <dt>{t('whConsecutive')}</dt>
          <dd>{e.consecutiveFailures}</dd>
          {previous !== null ? (
            <>
              <dt>{t('whPreviousUntil')}</dt>
              <dd>{formatDateTime(previous, ctx.lang)}</dd>
            </>
          ) : null}
          <dt>{t('colCreated')}</dt>
          <dd>{formatDateTime(e.createdAt, ctx.lang)}</dd>
        </dl>
        <div class="actions">
          <a class="btn small" href={`${base}/edit`}>
            {t('edit')}
          </a>
          {e.enabled ? (
            <PostButton ctx={ctx} action={`${base}/disable`} label={t('whDisable')} />
          ) : (
            <PostButton ctx={ctx} action={`${base}/enable`} label={t('whEnable')} />
          )}
        </div>
        <div class="wh-rotate">
          <p class="hint muted" id="rotate-hint">
            {t('whRotateHint')}
          </p>
          <PostButton ctx={ctx} action={`${base}/rotate`} label={t('whRotate')} />
        </div>
        <details class="wh-delete">
          <summary>{t('whDelete')}</summary>
          <p>{t('whDeleteConfirm')}</p>
          <form method="post" action={`${base}/delete`}>
            <CsrfField ctx={ctx} />
            <button type="submit" class="small danger">
              {t('whDeleteYes')}
            </button>
          </form>
        </details>
      </section>
      <DeliveryLog
        ctx={ctx}
        endpointId={e.id}
        deliveries={props.deliveries}
        attempts={props.attempts}
        nextHref={props.nextHref}
        firstHref={props.firstHref}
      />
    </DashLayout>
  )
}
