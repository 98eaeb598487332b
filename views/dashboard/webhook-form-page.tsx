import { OUTBOUND_EVENT_TYPES } from '../../db/schema.js'
import type { EndpointForm } from '../../src/dashboard/webhook-form.js'
import { CsrfField, type DashContext, DashLayout } from './layout.js'
import { described, FieldError } from './parts.js'

type Errors = Partial<Record<keyof EndpointForm, string>>

/**
 * A webhook endpoint's form, new or edited: address, description, the events as checkboxes,
 * sending on or off. Errors sit beside their field; `alert` is a problem of the whole form.
 */
export function WebhookFormPage(props: {
  ctx: DashContext
  form: EndpointForm
  errors: Errors
  /** The endpoint edited; absent for a new one. */
  endpoint?: { id: string } | undefined
  alert?: string | undefined
}) {
  const { ctx, form, errors } = props
  const t = ctx.t
  const title = props.endpoint ? t('whEditTitle') : t('whNew')
  const action = props.endpoint ? `/dashboard/webhooks/${props.endpoint.id}` : '/dashboard/webhooks'
  const hasErrors = Object.keys(errors).length > 0
  return (
    <DashLayout ctx={ctx} title={title} nav="webhooks">
      <section class="card" aria-labelledby="form-title">
        <h1 id="form-title">{title}</h1>
        {props.alert || hasErrors ? (
          <p class="alert" role="alert">
            {props.alert ?? t('fixErrors')}
          </p>
        ) : null}
        <form method="post" action={action} novalidate>
          <CsrfField ctx={ctx} />
          <label for="url">{t('whFieldUrl')}</label>
          <input
            type="url"
            id="url"
            name="url"
            value={form.url}
            class="ltr"
            maxlength={2000}
            required
            {...described('url', errors.url, 'url-hint')}
          />
          <p id="url-hint" class="hint muted">
            {t('whUrlHint')}
          </p>
          <FieldError id="url" error={errors.url} />
          <label for="description">{t('whFieldDescription')}</label>
          <input
            type="text"
            id="description"
            name="description"
            value={form.description}
            dir="auto"
            maxlength={200}
            {...described('description', errors.description)}
          />
          <FieldError id="description" error={errors.description} />
          <fieldset {...described('eventTypes', errors.eventTypes)}>
            <legend>{t('whFieldEvents')}</legend>
            {OUTBOUND_EVENT_TYPES.map((type) => (
              <label class="check">
                <input
                  type="checkbox"
                  name="event_types[]"
                  value={type}
                  checked={form.eventTypes.includes(type)}
                />
                <code>{type}</code>
              </label>
            ))}
            <FieldError id="eventTypes" error={errors.eventTypes} />
          </fieldset>
          <label class="check">
            <input type="checkbox" name="enabled" value="on" checked={form.enabled} />
            <span>{t('whFieldEnabled')}</span>
          </label>
          <FieldError id="enabled" error={errors.enabled} />
          <div class="actions">
            <button type="submit">{props.endpoint ? t('whSave') : t('whCreate')}</button>
            <a
              class="btn secondary"
              href={
                props.endpoint ? `/dashboard/webhooks/${props.endpoint.id}` : '/dashboard/webhooks'
              }
            >
              {t('cancel')}
            </a>
          </div>
        </form>
      </section>
    </DashLayout>
  )
}
