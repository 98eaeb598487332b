/** The hosted card page: the card form, the 3-D Secure step and the result. Props in, HTML out. */
import type { Language } from '../state.js'
import {
  EndButtons,
  LanguageLinks,
  type PaymentView,
  Summary,
  TestCardsTable,
} from './card-parts.js'
import { fill, WORDS } from './i18n.js'
import { Layout } from './layout.js'

export type { PaymentView } from './card-parts.js'

export interface CardFormProps {
  view: PaymentView
  error?: string | undefined
  errorField?: 'pan' | 'expiry' | 'cvv' | undefined
  values?: { pan?: string; expiry?: string; cvv?: string } | undefined
}

/** Step one: the card form. */
export function CardFormPage({ view, error, errorField, values }: CardFormProps) {
  const w = WORDS[view.lang]
  const invalid = (field: string) => (errorField === field ? 'true' : undefined)
  const described = (field: string) => (errorField === field ? 'form-error' : undefined)
  return (
    <Layout lang={view.lang} title={w.title} banner={w.banner} base={view.base}>
      <h1>{w.title}</h1>
      <LanguageLinks view={view} w={w} />
      <Summary view={view} w={w} />
      <form method="post" action={`${view.path}/card${view.langQuery}`} class="card" novalidate>
        {error ? (
          <p id="form-error" class="error" role="alert">
            {error}
          </p>
        ) : null}
        <label for="pan">{w.cardNumber}</label>
        <input
          id="pan"
          name="pan"
          inputmode="numeric"
          autocomplete="cc-number"
          dir="ltr"
          required
          value={values?.pan ?? ''}
          aria-invalid={invalid('pan')}
          aria-describedby={described('pan')}
        />
        <label for="expiry">{w.expiry}</label>
        <input
          id="expiry"
          name="expiry"
          inputmode="numeric"
          autocomplete="cc-exp"
          placeholder="MM/YY"
          dir="ltr"
          required
          value={values?.expiry ?? ''}
          aria-invalid={invalid('expiry')}
          aria-describedby={described('expiry')}
        />
        <label for="cvv">{w.cvv}</label>
        <input
          id="cvv"
          name="cvv"
          inputmode="numeric"
          autocomplete="cc-csc"
          dir="ltr"
          required
          value={values?.cvv ?? ''}
          aria-invalid={invalid('cvv')}
          aria-describedby={described('cvv')}
        />
        <button type="submit">
          {w.pay} {view.amount}
        </button>
      </form>
      <EndButtons view={view} w={w} />
      <p class="hint">{fill(w.expiresAt, { time: view.expiresAt })}</p>
      <TestCardsTable lang={view.lang} />
    </Layout>
  )
}

/** Step two: the 3-D Secure one-time code. */
export function OtpPage({
  view,
  otp,
  error,
  cardNumber,
}: {
  view: PaymentView
  otp: string
  error?: boolean
  cardNumber: string
}) {
  const w = WORDS[view.lang]
  return (
    <Layout lang={view.lang} title={w.otpTitle} banner={w.banner} base={view.base}>
      <h1>{w.otpTitle}</h1>
      <Summary view={view} w={w} />
      <form method="post" action={`${view.path}/otp${view.langQuery}`} class="card" novalidate>
        <p dir="ltr">
          <code>{cardNumber}</code>
        </p>
        {error ? (
          <p id="otp-error" class="error" role="alert">
            {w.invalidOtp}
          </p>
        ) : null}
        <p id="otp-hint" class="hint">
          {fill(w.otpHint, { otp })}
        </p>
        <label for="otp">{w.otp}</label>
        <input
          id="otp"
          name="otp"
          inputmode="numeric"
          autocomplete="one-time-code"
          dir="ltr"
          required
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? 'otp-hint otp-error' : 'otp-hint'}
        />
        <button type="submit">{w.confirm}</button>
      </form>
      <EndButtons view={view} w={w} />
    </Layout>
  )
}

/** The end of a payment: its outcome and the way back to the merchant. */
export function ResultPage({
  view,
  success,
  message,
  returnRedirect,
}: {
  view: PaymentView
  success: boolean
  message: string
  returnRedirect: string | null
}) {
  const w = WORDS[view.lang]
  return (
    <Layout lang={view.lang} title={w.resultTitle} banner={w.banner} base={view.base}>
      <h1>{w.resultTitle}</h1>
      <p class={success ? 'outcome-ok' : 'outcome-ko'} role="status">
        <strong>{message}</strong>
      </p>
      <Summary view={view} w={w} />
      {returnRedirect ? (
        <p>
          <a href={returnRedirect}>{w.back}</a>
        </p>
      ) : (
        <p>{w.noReturn}</p>
      )}
    </Layout>
  )
}

/** A card page for a payment that does not exist. */
export function NotFoundPage({ lang, base }: { lang: Language; base: string }) {
  const w = WORDS[lang]
  return (
    <Layout lang={lang} title={w.title} banner={w.banner} base={base}>
      <h1>{w.title}</h1>
      <p role="alert">{w.notFound}</p>
    </Layout>
  )
}
