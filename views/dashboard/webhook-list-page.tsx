import type { Delivery, WebhookEndpoint } from '../../db/schema.js'
import { formatDateTime } from '../../src/i18n/index.js'
import { type DashContext, DashLayout } from './layout.js'
import { Cell, Notice, StackTable } from './parts.js'
import { DeliveryStateBadge, EventTypes, HealthBadge, SendingBadge } from './webhook-parts.js'

/**
 * The webhook endpoints: address (and description), events, sending on or off, failing or not,
 * the latest delivery; a way to a new one.
 */
export function WebhookListPage(props: {
  ctx: DashContext
  endpoints: WebhookEndpoint[]
  latest: Map<string, Delivery>
  notice?: string | undefined
}) {
  const { ctx } = props
  const t = ctx.t
  const columns = {
    url: t('whColUrl'),
    events: t('whColEvents'),
    sending: t('whColSending'),
    state: t('whColHealth'),
    last: t('whColLastDelivery'),
  }
  return (
    <DashLayout ctx={ctx} title={t('whTitle')} nav="webhooks">
      <section class="card" aria-labelledby="wh-title">
        <div class="head">
          <h1 id="wh-title">{t('whTitle')}</h1>
          <a class="btn small" href="/dashboard/webhooks/new">
            {t('whNew')}
          </a>
        </div>
        <Notice text={props.notice} />
        <p class="muted">{t('whIntro')}</p>
        {props.endpoints.length === 0 ? (
          <p class="muted">{t('whNone')}</p>
        ) : (
          <StackTable
            columns={[
              { label: columns.url },
              { label: columns.events },
              { label: columns.sending },
              { label: columns.state },
              { label: columns.last },
            ]}
          >
            {props.endpoints.map((e) => {
              const last = props.latest.get(e.id)
              return (
                <tr data-endpoint-id={e.id}>
                  <Cell label={columns.url} wide>
                    <a class="ltr wh-url" href={`/dashboard/webhooks/${e.id}`}>
                      {e.url}
                    </a>
                    {e.description ? (
                      <span class="sub muted" dir="auto">
                        {e.description}
                      </span>
                    ) : null}
                  </Cell>
                  <Cell label={columns.events}>
                    <EventTypes types={e.eventTypes} />
                  </Cell>
                  <Cell label={columns.sending}>
                    <SendingBadge ctx={ctx} endpoint={e} />
                  </Cell>
                  <Cell label={columns.state}>
                    <HealthBadge ctx={ctx} endpoint={e} />
                  </Cell>
                  <Cell label={columns.last}>
                    {last ? (
                      <>
                        <DeliveryStateBadge ctx={ctx} state={last.state} />
                        <span class="sub">
                          {formatDateTime(last.lastAttemptAt ?? last.createdAt, ctx.lang)}
                        </span>
                      </>
                    ) : (
                      <span class="muted">{t('whNeverSent')}</span>
                    )}
                  </Cell>
                </tr>
              )
            })}
          </StackTable>
        )}
      </section>
    </DashLayout>
  )
}
