import { LANGUAGES } from '../../src/config.js'
import type { LinkForm, Pricing } from '../../src/dashboard/link-form.js'
import type { DashKey } from '../../src/dashboard/messages.js'
import { Check, Field } from '../field.js'
import { CsrfField, type DashContext, DashLayout, LANGUAGE_NAMES } from './layout.js'
import { type CartChoice, LinkFormCart } from './link-form-cart.js'

export type { CartChoice }

type Errors = Record<string, string>

/** Form fields that have a place on the page; an error for any other field goes in the summary. */
export const FORM_FIELDS = new Set<string>([
  'title',
  'description',
  'amount',
  'invoice_id',
  'amount_min',
  'amount_max',
  'items',
  'cart',
  'max_payments',
  'expires_at',
  'language',
  'memo',
  'success_message',
  'success_url',
  'active',
  'inactive_message',
  'partial_min_amount',
  'custom_fields',
])

/** A text-like field of the link form, in a cell of its own. */
function Input(props: {
  ctx: DashContext
  name: keyof LinkForm & string
  label: DashKey
  form: LinkForm
  errors: Errors
  type?: string
  inputmode?: 'decimal' | 'numeric'
  maxlength?: number
  required?: boolean
  ltr?: boolean
  hint?: DashKey
}) {
  const { name } = props
  return (
    <Field
      id={name}
      label={props.ctx.t(props.label)}
      type={props.type ?? 'text'}
      attrs={{
        name,
        value: String(props.form[name]),
        inputmode: props.inputmode,
        maxlength: props.maxlength,
        required: props.required,
        class: props.ltr ? 'ltr' : undefined,
        dir: props.ltr ? undefined : 'auto',
      }}
      hint={props.hint ? props.ctx.t(props.hint) : undefined}
      error={props.errors[name]}
      wrap
    />
  )
}

/** A multi-line field of the link form, in a cell of its own. */
function TextArea(props: {
  ctx: DashContext
  name: 'description' | 'success_message' | 'inactive_message' | 'items' | 'custom_fields'
  label: DashKey
  form: LinkForm
  errors: Errors
  hint?: DashKey
}) {
  const { name } = props
  return (
    <Field
      id={name}
      label={props.ctx.t(props.label)}
      as="textarea"
      attrs={{
        name,
        class: name === 'items' || name === 'custom_fields' ? 'items' : undefined,
        dir: 'auto',
      }}
      hint={props.hint ? props.ctx.t(props.hint) : undefined}
      error={props.errors[name]}
      wrap
    >
      {props.form[name]}
    </Field>
  )
}

function PricingChoice(props: {
  ctx: DashContext
  value: Pricing
  label: DashKey
  form: LinkForm
  children: unknown
}) {
  return (
    <fieldset class="choice">
      <legend>
        <label>
          <input
            type="radio"
            name="pricing"
            value={props.value}
            checked={props.form.pricing === props.value}
          />
          {props.ctx.t(props.label)}
        </label>
      </legend>
      <div class="fields">{props.children}</div>
    </fieldset>
  )
}

/** The create and edit form; field errors sit under their fields, others in the summary. */
export function LinkFormPage(props: {
  ctx: DashContext
  form: LinkForm
  errors: Errors
  /** Absent for a new link. */
  link?: { id: string; title: string }
  /** A problem with the whole form (the gateway refused the invoice). */
  alert?: string | undefined
  /** The products a cart may sell (the catalogue's on sale, and those the form names). */
  products?: CartChoice[]
}) {
  const { ctx, form, errors } = props
  const t = ctx.t
  const common = { ctx, form, errors }
  const title = props.link ? t('editLinkTitle') : t('newLinkTitle')
  const others = Object.entries(errors).filter(([field]) => !FORM_FIELDS.has(field))
  const hasErrors = Object.keys(errors).length > 0
  return (
    <DashLayout ctx={ctx} title={title} nav={props.link ? undefined : 'new'}>
      <section class="card" aria-labelledby="form-title">
        <h1 id="form-title">{title}</h1>
        {props.alert || hasErrors ? (
          <div class="alert" role="alert">
            <p>{props.alert ?? t('fixErrors')}</p>
            {others.length > 0 ? (
              <ul>
                {others.map(([, message]) => (
                  <li>{message}</li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
        <form
          method="post"
          action={props.link ? `/dashboard/links/${props.link.id}` : '/dashboard/links'}
          novalidate
        >
          <CsrfField ctx={ctx} />
          <Input {...common} name="title" label="fieldTitle" maxlength={200} required />
          <TextArea {...common} name="description" label="fieldDescription" />
          <h2>{t('pricing')}</h2>
          <PricingChoice ctx={ctx} form={form} value="fixed" label="pricingFixed">
            <div class="grid">
              <Input {...common} name="amount" label="fieldAmount" inputmode="decimal" ltr />
              <Input {...common} name="invoice_id" label="fieldInvoiceId" maxlength={100} ltr />
            </div>
          </PricingChoice>
          <PricingChoice ctx={ctx} form={form} value="open" label="pricingOpen">
            <div class="grid">
              <Input {...common} name="amount_min" label="fieldAmountMin" inputmode="decimal" ltr />
              <Input {...common} name="amount_max" label="fieldAmountMax" inputmode="decimal" ltr />
            </div>
          </PricingChoice>
          <PricingChoice ctx={ctx} form={form} value="items" label="pricingItems">
            <TextArea {...common} name="items" label="fieldItems" hint="itemsHint" />
          </PricingChoice>
          <Input
            {...common}
            name="partial_min_amount"
            label="fieldPartialMin"
            inputmode="decimal"
            hint="partialMinHint"
            ltr
          />
          <PricingChoice ctx={ctx} form={form} value="cart" label="pricingCart">
            <LinkFormCart
              ctx={ctx}
              form={form}
              products={props.products ?? []}
              error={errors.cart}
            />
          </PricingChoice>
          <fieldset>
            <legend>{t('sectionAvailability')}</legend>
            <div class="grid">
              <Input
                {...common}
                name="max_payments"
                label="fieldMaxPayments"
                inputmode="numeric"
                hint="maxPaymentsHint"
              />
              <Input {...common} name="expires_at" label="fieldExpiresAt" type="datetime-local" />
            </div>
            <Check type="checkbox" attrs={{ name: 'active', value: 'on', checked: form.active }}>
              <span>{t('fieldActive')}</span>
            </Check>
            <TextArea {...common} name="inactive_message" label="fieldInactiveMessage" />
            <Check
              type="checkbox"
              attrs={{ name: 'allow_promo_codes', value: 'on', checked: form.allow_promo_codes }}
            >
              <span>{t('lfAllowPromo')}</span>
            </Check>
            <Check
              type="checkbox"
              attrs={{ name: 'customer_fee', value: 'on', checked: form.customer_fee }}
            >
              <span>{t('lfCustomerFee')}</span>
            </Check>
          </fieldset>
          <fieldset>
            <legend>{t('sectionCustomFields')}</legend>
            <TextArea
              {...common}
              name="custom_fields"
              label="fieldCustomFields"
              hint="customFieldsHint"
            />
          </fieldset>
          <fieldset>
            <legend>{t('sectionAfter')}</legend>
            <Field
              id="language"
              label={t('fieldLanguage')}
              as="select"
              attrs={{ name: 'language' }}
              error={errors.language}
            >
              {LANGUAGES.map((lang) => (
                <option value={lang} selected={form.language === lang}>
                  {LANGUAGE_NAMES[lang]}
                </option>
              ))}
            </Field>
            <Input {...common} name="memo" label="fieldMemo" maxlength={200} hint="memoHint" />
            <TextArea {...common} name="success_message" label="fieldSuccessMessage" />
            <Input {...common} name="success_url" label="fieldSuccessUrl" type="url" ltr />
          </fieldset>
          <div class="actions">
            <button type="submit">{props.link ? t('saveLink') : t('createLink')}</button>
            <a
              class="btn secondary"
              href={props.link ? `/dashboard/links/${props.link.id}` : '/dashboard/links'}
            >
              {t('cancel')}
            </a>
          </div>
        </form>
      </section>
    </DashLayout>
  )
}
