import { OUTBOUND_EVENT_TYPES } from '../../db/schema.js'
import { type EndpointForm, EVENT_TYPE_LABELS } from '../../src/dashboard/webhook-form.js'
import { Check, Choices, Field, FieldError } from '../field.js'
import { CsrfField, type DashContext, DashLayout } from './layout.js'

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
          <Field
            id="url"
            label={t('whFieldUrl')}
            type="url"
            attrs={{ name: 'url', value: form.url, class: 'ltr', maxlength: 2000, required: true }}
            hint={t('whUrlHint')}
            error={errors.url}
          />
          <Field
            id="description"
            label={t('whFieldDescription')}
            type="text"
            attrs={{ name: 'description', value: form.description, dir: 'auto', maxlength: 200 }}
            error={errors.description}
          />
          <Choices id="eventTypes" legend={t('whFieldEvents')} error={errors.eventTypes}>
            {OUTBOUND_EVENT_TYPES.map((type) => (
              <Check
                type="checkbox"
                attrs={{
                  name: 'event_types[]',
                  value: type,
                  checked: form.eventTypes.includes(type),
                }}
              >
                <span>
                  {t(EVENT_TYPE_LABELS[type])} <code dir="ltr">{type}</code>
                </span>
              </Check>
            ))}
          </Choices>
          <Check type="checkbox" attrs={{ name: 'enabled', value: 'on', checked: form.enabled }}>
            <span>{t('whFieldEnabled')}</span>
          </Check>
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
