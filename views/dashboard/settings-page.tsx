import type { Language } from '../../src/config.js'
import type { DashKey } from '../../src/dashboard/messages.js'
import type { SettingsField, SettingsForm } from '../../src/dashboard/settings-form.js'
import { TILL_LINK_MINUTES } from '../../src/dashboard/settings-form.js'
import { MESSAGES } from '../../src/i18n/index.js'
import { CsrfField, type DashContext, DashLayout } from './layout.js'
import { described, FieldError, Notice } from './parts.js'

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

/** What follows a field: its hint (id `<field>-hint`), then its error. */
function FieldNotes(props: {
  ctx: DashContext
  field: SettingsField
  hint: DashKey | undefined
  error: string | undefined
}) {
  return (
    <>
      {props.hint ? (
        <p id={`${props.field}-hint`} class="hint muted">
          {props.ctx.t(props.hint)}
        </p>
      ) : null}
      <FieldError id={props.field} error={props.error} />
    </>
  )
}

function TextField(props: {
  ctx: DashContext
  field: SettingsField
  name: string
  label: DashKey
  value: string
  error: string | undefined
  type?: 'text' | 'tel' | 'email' | 'url'
  max: number
  placeholder?: string | undefined
  hint?: DashKey
  ltr?: boolean
}) {
  const { ctx, field } = props
  return (
    <>
      <label for={field}>{ctx.t(props.label)}</label>
      <input
        type={props.type ?? 'text'}
        id={field}
        name={props.name}
        value={props.value}
        maxlength={props.max}
        placeholder={props.placeholder}
        dir={props.ltr ? 'ltr' : 'auto'}
        class={props.ltr ? 'ltr' : undefined}
        {...described(field, props.error, props.hint ? `${field}-hint` : undefined)}
      />
      <FieldNotes ctx={ctx} field={field} hint={props.hint} error={props.error} />
    </>
  )
}

function TextArea(props: {
  ctx: DashContext
  field: SettingsField
  name: string
  label: DashKey
  value: string
  error: string | undefined
  max: number
  rows: number
  lang?: Language
  hint?: DashKey
}) {
  const { ctx, field } = props
  return (
    <>
      <label for={field}>{ctx.t(props.label)}</label>
      <textarea
        id={field}
        name={props.name}
        maxlength={props.max}
        rows={props.rows}
        dir="auto"
        lang={props.lang}
        {...described(field, props.error, props.hint ? `${field}-hint` : undefined)}
      >
        {props.value}
      </textarea>
      <FieldNotes ctx={ctx} field={field} hint={props.hint} error={props.error} />
    </>
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
  logo: { src: string; width: number; height: number } | null
  logoError?: string | undefined
  notice?: string | undefined
}) {
  const { ctx, form, errors, defaults } = props
  const t = ctx.t
  const hasErrors = Object.keys(errors).length > 0
  const field = (f: SettingsField) => ({ field: f, value: form[f], error: errors[f], ctx })
  return (
    <DashLayout ctx={ctx} title={t('stTitle')} nav="settings">
      <section class="card" aria-labelledby="settings-title">
        <h1 id="settings-title">{t('stTitle')}</h1>
        <p class="muted">{t('stIntro')}</p>
        <Notice text={props.notice} />
        {hasErrors ? (
          <p class="alert" role="alert">
            {t('fixErrors')}
          </p>
        ) : null}
      </section>
      <section class="card" aria-labelledby="logo-title" id="logo">
        <h2 id="logo-title">{t('stLogoTitle')}</h2>
        {props.logo ? (
          <figure class="logo-preview">
            <img
              src={props.logo.src}
              width={props.logo.width}
              height={props.logo.height}
              alt={t('stLogoCurrent')}
            />
          </figure>
        ) : (
          <p class="muted">{t('stLogoNone')}</p>
        )}
        <form method="post" action="/dashboard/settings/logo" enctype="multipart/form-data">
          <CsrfField ctx={ctx} />
          <label for="logo-file">{t('stFieldLogo')}</label>
          <input
            type="file"
            id="logo-file"
            name="logo"
            accept="image/png,image/jpeg,image/webp"
            required
            {...described('logo-file', props.logoError, 'logo-hint')}
          />
          <p id="logo-hint" class="hint muted">
            {t('stLogoHint')}
          </p>
          <FieldError id="logo-file" error={props.logoError} />
          <div class="actions">
            <button type="submit">{t('stLogoUpload')}</button>
          </div>
        </form>
        {props.logo ? (
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
      <form method="post" action="/dashboard/settings" novalidate>
        <CsrfField ctx={ctx} />
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
          <label for="defaultLanguage">{t('stFieldLanguage')}</label>
          <select
            id="defaultLanguage"
            name="default_language"
            {...described('defaultLanguage', errors.defaultLanguage)}
          >
            <option value="" selected={form.defaultLanguage === ''}>
              {t('stLanguageDefault', { lang: MESSAGES[defaults.language].languageName })}
            </option>
            {(['ar', 'fr', 'en'] as const).map((lang) => (
              <option value={lang} selected={form.defaultLanguage === lang}>
                {MESSAGES[lang].languageName}
              </option>
            ))}
          </select>
          <FieldError id="defaultLanguage" error={errors.defaultLanguage} />
          <TextArea
            {...field('receiptFooter')}
            name="receipt_footer"
            label="stFieldFooter"
            max={500}
            rows={2}
            hint="stFooterHint"
          />
        </section>
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
        <section class="card" aria-labelledby="terms-title">
          <h2 id="terms-title">{t('stSectionTerms')}</h2>
          <p class="muted">{t('stTermsHint')}</p>
          <TextField
            {...field('termsUrl')}
            name="terms_url"
            label="stFieldTermsUrl"
            type="url"
            max={2000}
            placeholder={defaults.termsUrl ?? 'https://'}
            ltr
          />
          {TERMS.map(({ lang, field: f, name, label }) => (
            <TextArea {...field(f)} name={name} label={label} max={20000} rows={5} lang={lang} />
          ))}
        </section>
        <section class="card" aria-labelledby="till-title">
          <h2 id="till-title">{t('stSectionTill')}</h2>
          <label for="tillLinkMinutes">{t('stFieldTillMinutes')}</label>
          <input
            type="number"
            id="tillLinkMinutes"
            name="till_link_minutes"
            value={form.tillLinkMinutes}
            min={TILL_LINK_MINUTES.min}
            max={TILL_LINK_MINUTES.max}
            step={1}
            inputmode="numeric"
            {...described('tillLinkMinutes', errors.tillLinkMinutes)}
          />
          <FieldError id="tillLinkMinutes" error={errors.tillLinkMinutes} />
          <div class="actions">
            <button type="submit">{t('stSave')}</button>
          </div>
        </section>
      </form>
    </DashLayout>
  )
}
