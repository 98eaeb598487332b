/**
 * The link's custom fields on the checkout page, after the customer's details: each question in
 * the merchant's words (their language, so `dir="auto"`), an optional one marked so in the page's
 * language, the control its type asks for, and the answer given back after an error. The server
 * reads the answers (src/domain/custom-fields.ts); nothing here is trusted.
 */
import { ANSWER_MAX, answerName } from '../src/domain/custom-fields.js'
import type { CustomField } from '../src/domain/order.js'
import { WILAYAS, wilayaName } from '../src/domain/wilayas.js'
import { Field } from './field.js'
import type { PageContext } from './layout.js'

export function CheckoutFields(props: {
  ctx: PageContext
  fields: readonly CustomField[] | null | undefined
  /** What the form is filled with, by form name (`cf_<key>`): a prefill, or the answers posted. */
  values: Partial<Record<string, string>>
  errors: Partial<Record<string, string>>
}) {
  const { ctx, fields } = props
  if (!fields || fields.length === 0) return null
  const { t, lang } = ctx
  return (
    <>
      <h2>{t('moreDetails')}</h2>
      {fields.map((field) => {
        const name = answerName(field.key)
        const id = `cf-${field.key}`
        const value = props.values[name] ?? ''
        const label = (
          <>
            <bdi dir="auto">{field.label}</bdi>
            {field.required ? null : <span class="muted"> {t('fieldOptional')}</span>}
          </>
        )
        const common = { name, required: field.required || undefined }
        const error = props.errors[name]
        switch (field.type) {
          case 'select':
          case 'wilaya': {
            const choices =
              field.type === 'wilaya'
                ? WILAYAS.map((w) => ({
                    value: w.code,
                    text: `${w.code} — ${wilayaName(w, lang)}`,
                  }))
                : (field.options ?? []).map((o) => ({ value: o, text: o }))
            return (
              <Field
                id={id}
                label={label}
                as="select"
                attrs={{ ...common, dir: field.type === 'select' ? 'auto' : undefined }}
                error={error}
              >
                <option value="" selected={value === ''}>
                  {t('fieldChoose')}
                </option>
                {choices.map((c) => (
                  <option value={c.value} selected={c.value === value}>
                    {c.text}
                  </option>
                ))}
              </Field>
            )
          }
          case 'address':
            return (
              <Field
                id={id}
                label={label}
                as="textarea"
                attrs={{
                  ...common,
                  rows: 3,
                  maxlength: ANSWER_MAX.address,
                  autocomplete: 'street-address',
                  dir: 'auto',
                }}
                error={error}
              >
                {value}
              </Field>
            )
          case 'number':
            return (
              <Field
                id={id}
                label={label}
                type="text"
                attrs={{ ...common, inputmode: 'decimal', dir: 'auto', maxlength: 30, value }}
                error={error}
              />
            )
          default:
            return (
              <Field
                id={id}
                label={label}
                type="text"
                attrs={{ ...common, dir: 'auto', maxlength: ANSWER_MAX.text, value }}
                error={error}
              />
            )
        }
      })}
    </>
  )
}
