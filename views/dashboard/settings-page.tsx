import type { Language } from '../../src/config.js'
import type { DashKey } from '../../src/dashboard/messages.js'
import type { SettingsField, SettingsForm } from '../../src/dashboard/settings-form.js'
import { TILL_LINK_MINUTES } from '../../src/dashboard/settings-form.js'
import { MESSAGES } from '../../src/i18n/index.js'
import { Field } from '../field.js'
import { CsrfField, type DashContext, DashLayout } from './layout.js'
import { Notice } from './parts.js'

type Errors = Partial<Record<SettingsField, string>>

/** What applies while a field is empty: the server's environment. */
export interface SettingsDefaults {
  merchantName: string
  termsUrl: string | null
  language: Language
}

/** The terms of sale, one text per language of the pay pages. */
const TERMS: { lang: Language; field: SettingsField; name: string; label: DashKey }[] = [
  { lang: 'ar', field: 'termsAr', name: 'terms_ar', label: 'stFieldTermsAr' },
  { lang: 'fr', field: 'termsFr', name: 'terms_fr', label: 'stFieldTermsFr' },
  { lang: 'en', field: 'termsEn', name: 'terms_en', label: 'stFieldTermsEn' },
]

/** What each field of the settings form takes: its value and error, by its name in the form. */
interface FieldOf {
  ctx: DashContext
  field: SettingsField
  value: string
  error: string | undefined
}

function TextField(
  props: FieldOf & {
    name: string
    label: DashKey
    type?: 'text' | 'tel' | 'email' | 'url'
    max: number
    placeholder?: string | undefined
    hint?: DashKey
    ltr?: boolean
  },
) {
  const { ctx } = props
  return (
    <Field
      id={props.field}
      label={ctx.t(props.label)}
      type={props.type ?? 'text'}
      attrs={{
        name: props.name,
        value: props.value,
        maxlength: props.max,
        placeholder: props.placeholder,
        dir: props.ltr ? 'ltr' : 'auto',
        class: props.ltr ? 'ltr' : undefined,
      }}
      hint={props.hint ? ctx.t(props.hint) : undefined}
      error={props.error}
    />
  )
}

function TextArea(
  props: FieldOf & {
    name: string
    label: DashKey
    max: number
    rows: number
    lang?: Language
    hint?: DashKey
  },
) {
  const { ctx } = props
  return (
    <Field
      id={props.field}
      label={ctx.t(props.label)}
      as="textarea"
      attrs={{
        name: props.name,
        maxlength: props.max,
        rows: props.rows,
        dir: 'auto',
        lang: props.lang,
      }}
      hint={props.hint ? ctx.t(props.hint) : undefined}
      error={props.error}
    >
      {props.value}
    </Field>
  )
}

/**
 * The owner's settings: the logo (its own upload form, with a preview and a way to remove it),
 * then one form for the store's name, colour, contact details, terms of sale, default language,
 * receipt footer and the till link's lifetime. Errors sit beside their field.
 */
export function SettingsPage(props: {
  ctx: DashContext
  form: SettingsForm
  errors: Errors
  defaults: SettingsDefaults
  logo: Logo | null
  logoError?: string | undefined
  notice?: string | undefined
}) {
  const { ctx, form, errors, defaults } = props
  const t = ctx.t
  const field = (f: SettingsField): FieldOf => ({ field: f, value: form[f], error: errors[f], ctx })
  return (
    <DashLayout ctx={ctx} title={t('stTitle')} nav="settings">
      <section class="card" aria-labelledby="settings-title">
        <h1 id="settings-title">{t('stTitle')}</h1>
        <p class="muted">{t('stIntro')}</p>
        <Notice text={props.notice} />
        {Object.keys(errors).length > 0 ? (
          <p class="alert" role="alert">
            {t('fixErrors')}
          </p>
        ) : null}
      </section>
      <LogoSection ctx={ctx} logo={props.logo} error={props.logoError} />
      <form method="post" action="/dashboard/settings" novalidate>
        <CsrfField ctx={ctx} />
        <StoreSection ctx={ctx} field={field} defaults={defaults} />
        <ContactsSection ctx={ctx} field={field} />
        <TermsSection ctx={ctx} field={field} defaults={defaults} />
        <FeeSection ctx={ctx} field={field('customerFeePercent')} />
        <TillSection ctx={ctx} field={field('tillLinkMinutes')} />
      </form>
    </DashLayout>
  )
}

type Logo = { src: string; width: number; height: number }

/** The logo: a preview of the current one, the upload form, and removing it. */
function LogoSection(props: { ctx: DashContext; logo: Logo | null; error: string | undefined }) {
  const { ctx, logo } = props
  const t = ctx.t
  return (
    <section class="card" aria-labelledby="logo-title" id="logo">
      <h2 id="logo-title">{t('stLogoTitle')}</h2>
      {logo ? (
        <figure class="logo-preview">
          <img src={logo.src} width={logo.width} height={logo.height} alt={t('stLogoCurrent')} />
        </figure>
      ) : (
        <p class="muted">{t('stLogoNone')}</p>
      )}
      <form method="post" action="/dashboard/settings/logo" enctype="multipart/form-data">
        <CsrfField ctx={ctx} />
        <Field
          id="logo-file"
          label={t('stFieldLogo')}
          type="file"
          attrs={{
            name: 'logo',
            accept: 'image/png,image/jpeg,image/webp',
            required: true,
            // A refused file: the page opens on the field and its message, far below the top on a phone.
            autofocus: props.error ? true : undefined,
          }}
          hint={t('stLogoHint')}
          hintId="logo-hint"
          error={props.error}
        />
        <div class="actions">
          <button type="submit">{t('stLogoUpload')}</button>
        </div>
      </form>
      {logo ? (
        <form method="post" action="/dashboard/settings/logo/delete">
          <CsrfField ctx={ctx} />
          <div class="actions">
            <button type="submit" class="secondary">
              {t('stLogoRemove')}
            </button>
          </div>
        </form>
      ) : null}
    </section>
  )
}

/** The parts of the settings form, each given the fields by name. */
interface SectionProps {
  ctx: DashContext
  field: (f: SettingsField) => FieldOf
}

/** The store: its name, colour, pay pages' default language and receipt footer. */
function StoreSection(props: SectionProps & { defaults: SettingsDefaults }) {
  const { ctx, field, defaults } = props
  const t = ctx.t
  const language = field('defaultLanguage')
  return (
    <section class="card" aria-labelledby="store-title">
      <h2 id="store-title">{t('stSectionStore')}</h2>
      <TextField
        {...field('merchantName')}
        name="merchant_name"
        label="stFieldName"
        max={100}
        placeholder={defaults.merchantName}
      />
      <TextField
        {...field('brandColor')}
        name="brand_color"
        label="stFieldColor"
        max={7}
        placeholder="#0b5cad"
        hint="stColorHint"
        ltr
      />
      <Field
        id="defaultLanguage"
        label={t('stFieldLanguage')}
        as="select"
        attrs={{ name: 'default_language' }}
        error={language.error}
      >
        <option value="" selected={language.value === ''}>
          {t('stLanguageDefault', { lang: MESSAGES[defaults.language].languageName })}
        </option>
        {(['ar', 'fr', 'en'] as const).map((lang) => (
          <option value={lang} selected={language.value === lang}>
            {MESSAGES[lang].languageName}
          </option>
        ))}
      </Field>
      <TextArea
        {...field('receiptFooter')}
        name="receipt_footer"
        label="stFieldFooter"
        max={500}
        rows={2}
        hint="stFooterHint"
      />
    </section>
  )
}

/** How customers reach the store: phone, e-mail, address. */
function ContactsSection(props: SectionProps) {
  const { ctx, field } = props
  const t = ctx.t
  return (
    <section class="card" aria-labelledby="contacts-title">
      <h2 id="contacts-title">{t('stSectionContacts')}</h2>
      <p class="muted">{t('stContactsHint')}</p>
      <TextField
        {...field('contactPhone')}
        name="contact_phone"
        label="stFieldPhone"
        type="tel"
        max={30}
        ltr
      />
      <TextField
        {...field('contactEmail')}
        name="contact_email"
        label="stFieldEmail"
        type="email"
        max={254}
        ltr
      />
      <TextArea
        {...field('contactAddress')}
        name="contact_address"
        label="stFieldAddress"
        max={500}
        rows={3}
      />
    </section>
  )
}

/** The terms of sale: an address, or a text in each language of the pay pages. */
function TermsSection(props: SectionProps & { defaults: SettingsDefaults }) {
  const { ctx, field } = props
  const t = ctx.t
  return (
    <section class="card" aria-labelledby="terms-title">
      <h2 id="terms-title">{t('stSectionTerms')}</h2>
      <p class="muted">{t('stTermsHint')}</p>
      <TextField
        {...field('termsUrl')}
        name="terms_url"
        label="stFieldTermsUrl"
        type="url"
        max={2000}
        placeholder={props.defaults.termsUrl ?? 'https://'}
        ltr
      />
      {TERMS.map(({ lang, field: f, name, label }) => (
        <TextArea {...field(f)} name={name} label={label} max={20000} rows={5} lang={lang} />
      ))}
    </section>
  )
}

/** The fee a customer pays on the links that pass it on (`customer_fee`), as a percent. */
function FeeSection(props: { ctx: DashContext; field: FieldOf }) {
  const { ctx, field } = props
  const t = ctx.t
  return (
    <section class="card" aria-labelledby="fee-title">
      <h2 id="fee-title">{t('stFeePercent')}</h2>
      <Field
        id="customerFeePercent"
        label={t('stFeePercent')}
        type="text"
        attrs={{
          name: 'customer_fee_percent',
          value: field.value,
          inputmode: 'decimal',
          maxlength: 5,
          dir: 'ltr',
        }}
        hint={t('stFeePercentHint')}
        error={field.error}
      />
    </section>
  )
}

/** The till: how long a sale's link can be paid; and the form's one save button. */
function TillSection(props: { ctx: DashContext; field: FieldOf }) {
  const { ctx, field } = props
  const t = ctx.t
  return (
    <section class="card" aria-labelledby="till-title">
      <h2 id="till-title">{t('stSectionTill')}</h2>
      <Field
        id="tillLinkMinutes"
        label={t('stFieldTillMinutes')}
        type="number"
        attrs={{
          name: 'till_link_minutes',
          value: field.value,
          min: TILL_LINK_MINUTES.min,
          max: TILL_LINK_MINUTES.max,
          step: 1,
          inputmode: 'numeric',
        }}
        error={field.error}
      />
      <div class="actions">
        <button type="submit">{t('stSave')}</button>
      </div>
    </section>
  )
}
