import type { DeliveryState, WebhookEndpoint } from '../../db/schema.js'
import type { DashKey } from '../../src/dashboard/messages.js'
import { CsrfField, type DashContext } from './layout.js'
import { CopyButton } from './link-share.js'

const STATE_KEYS: Record<DeliveryState, DashKey> = {
  pending: 'whStatePending',
  delivered: 'whStateDelivered',
  failed: 'whStateFailed',
}
// The badge colours of the payment states that read the same way.
const STATE_CLASS: Record<DeliveryState, string> = {
  pending: 'pending',
  delivered: 'paid',
  failed: 'failed',
}

/** A delivery's state as a coloured label. */
export function DeliveryStateBadge(props: { ctx: DashContext; state: DeliveryState }) {
  return (
    <span class={`badge ${STATE_CLASS[props.state]}`} data-state={props.state}>
      {props.ctx.t(STATE_KEYS[props.state])}
    </span>
  )
}

/** Whether an endpoint is sent to. */
export function SendingBadge(props: { ctx: DashContext; endpoint: WebhookEndpoint }) {
  const { enabled } = props.endpoint
  return (
    <span class={enabled ? 'badge active' : 'badge inactive'} data-enabled={String(enabled)}>
      {props.ctx.t(enabled ? 'whOn' : 'whOff')}
    </span>
  )
}

/** Whether an endpoint is failing (five failed attempts in a row) or working. */
export function HealthBadge(props: { ctx: DashContext; endpoint: WebhookEndpoint }) {
  const failing = props.endpoint.failingSince !== null
  return (
    <span class={failing ? 'badge failed' : 'badge paid'} data-failing={String(failing)}>
      {props.ctx.t(failing ? 'whFailing' : 'whWorking')}
    </span>
  )
}

/** The event types as code, one per line where they wrap. */
export function EventTypes(props: { types: readonly string[] }) {
  return (
    <ul class="wh-types">
      {props.types.map((type) => (
        <li>
          <code>{type}</code>
        </li>
      ))}
    </ul>
  )
}

/**
 * The signing secret, on the one answer that shows it (creation or rotation): never stored in a
 * page anyone can reload, never shown again.
 */
export function SecretBox(props: { ctx: DashContext; secret: string; note?: string | undefined }) {
  const t = props.ctx.t
  return (
    <div class="wh-secret" data-secret-shown="true">
      <h2 id="wh-secret-title">{t('whSecretTitle')}</h2>
      <p>{t('whSecretOnce')}</p>
      {props.note ? <p class="muted">{props.note}</p> : null}
      <div class="url-row">
        <input
          type="text"
          id="wh-secret"
          class="ltr"
          value={props.secret}
          aria-labelledby="wh-secret-title"
          readonly
        />
        <CopyButton ctx={props.ctx} target="wh-secret" label={t('whCopySecret')} />
      </div>
    </div>
  )
}

/** A one-button form that posts to `action` with the session's form token. */
export function PostButton(props: {
  ctx: DashContext
  action: string
  label: string
  kind?: 'danger' | 'secondary' | 'primary'
}) {
  const kind = props.kind ?? 'secondary'
  return (
    <form class="inline" method="post" action={props.action}>
      <CsrfField ctx={props.ctx} />
      <button type="submit" class={kind === 'primary' ? 'small' : `small ${kind}`}>
        {props.label}
      </button>
    </form>
  )
}
