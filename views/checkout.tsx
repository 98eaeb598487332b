import { raw } from 'hono/html'
import type { DepositView } from '../src/domain/deposit.js'
import type { CustomField } from '../src/domain/order.js'
import { formatAmount } from '../src/i18n/index.js'
import type { Centimes } from '../src/lib/money.js'
import { type CheckoutCart, CheckoutCartLines, cartPayable } from './checkout-cart.js'
import { DepositAmount } from './checkout-deposit.js'
import { CheckoutFields } from './checkout-fields.js'
import { type CheckoutSummary, CheckoutSummaryBox } from './checkout-summary.js'
import { Check, described, Field, FieldError } from './field.js'
import { Layout, type PageContext } from './layout.js'
import { CardMarks } from './marks.js'
import { amountParts, PAY_AMOUNT_SCRIPT } from './pay-amount-script.js'
import { CHECKOUT_CSS } from './styles.js'

export interface CheckoutItem {
  description: string
  quantity: number
  unitPrice: Centimes
}

export interface CheckoutProps {
  ctx: PageContext
  link: {
    slug: string
    title: string
    description: string | null
    amount: Centimes | null
    amountMin: Centimes | null
    amountMax: Centimes | null
    items: CheckoutItem[] | null
  }
  values: {
    name?: string
    phone?: string
    email?: string
    amount?: string
    ref?: string
    /** The custom fields' answers, by form name (a prefill, or what was posted). */
    [answer: `cf_${string}`]: string | undefined
  }
  /** By field name: the customer's details, `form`, and the order's (`qty_<id>`, `cf_<key>`…). */
  errors: Partial<Record<string, string>>
  csrfToken: string
  onlineTermsUrl: string
  merchantTermsUrl: string
  /** Extra form fields and head elements of the captcha, when it is on. */
  captcha?: { head: unknown; field: unknown } | undefined
  /** A shop's order (a checkout's link): its reference, and the way back to the shop. */
  order?: CheckoutOrder | undefined
  /** A deposit link's total, paid so far and balance: the customer types the part to pay now. */
  deposit?: DepositView | undefined
  /** The link's questions for the customer (views/checkout-fields.tsx). */
  customFields?: readonly CustomField[] | null | undefined
  /** A cart link's products and quantities (views/checkout-cart.tsx). */
  cart?: CheckoutCart | undefined
  /** The order summary: subtotal, promo code and discount, fee, total (checkout-summary.tsx). */
  summary?: CheckoutSummary | undefined
}

/** What a shop's checkout adds to its link's page. */
export interface CheckoutOrder {
  reference: string | null
  /** The shop's `cancel_url` with the checkout's id, when it gave one. */
  backUrl: string | null
}

/** The customer's details, in the order the card network's rules list them. */
const DETAILS = [
  { name: 'name', label: 'fullName', type: 'text', autocomplete: 'name', maxlength: 100 },
  { name: 'phone', label: 'phone', type: 'tel', autocomplete: 'tel', maxlength: 20 },
  { name: 'email', label: 'email', type: 'email', autocomplete: 'email', maxlength: 254 },
] as const

/** The checkout page: merchant, title, items, the amount in DA, the customer's details. */
export function CheckoutPage(props: CheckoutProps) {
  const { ctx, link, values, errors } = props
  const { t, lang } = ctx
  const open = link.amount === null
  // The customer types the amount on an open link and a deposit link alike (the Pay button says it).
  const typed = open || props.deposit !== undefined
  // With an order summary, the Pay button says its total (a discount, a fee).
  const payTotal = props.summary ? props.summary.total : typed ? null : link.amount
  const payLabel =
    payTotal === null
      ? t('payWith', { amount: '' }).trim()
      : t('payWith', { amount: formatAmount(payTotal, lang) })
  return (
    <Layout ctx={ctx} title={link.title} css={CHECKOUT_CSS} head={props.captcha?.head as never}>
      <form method="post" action={`/l/${link.slug}`} class="card" novalidate>
        <h1 dir="auto">{link.title}</h1>
        {props.order?.reference ? (
          <p class="order-ref">
            {fillParts(t('orderReference'), { ref: <bdi>{props.order.reference}</bdi> })}
          </p>
        ) : null}
        {link.description ? (
          <p class="muted" dir="auto">
            {link.description}
          </p>
        ) : null}
        {props.cart ? <CheckoutCartLines ctx={ctx} cart={props.cart} errors={errors} /> : null}
        {link.items && link.items.length > 0 ? (
          <table>
            <caption class="muted">{t('items')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('item')}</th>
                <th scope="col" class="num">
                  {t('quantity')}
                </th>
                <th scope="col" class="num">
                  {t('total')}
                </th>
              </tr>
            </thead>
            <tbody>
              {link.items.map((item) => (
                <tr>
                  <td>
                    <bdi>{item.description}</bdi>
                    <br />
                    <span class="muted">{formatAmount(item.unitPrice, lang)}</span>
                  </td>
                  <td class="num">{item.quantity}</td>
                  <td class="num">{formatAmount(item.unitPrice * item.quantity, lang)}</td>
                </tr>
              ))}
            </tbody>
            {props.order && link.amount !== null ? (
              <tfoot>
                <tr>
                  <th scope="row" colspan={2}>
                    {t('total')}
                  </th>
                  <td class="num">{formatAmount(link.amount, lang)}</td>
                </tr>
              </tfoot>
            ) : null}
          </table>
        ) : null}
        {errors.form ? (
          <p class="alert" role="alert">
            {errors.form}
          </p>
        ) : Object.keys(errors).length > 0 ? (
          <p class="alert" role="alert">
            {t('fixErrors')}
          </p>
        ) : null}
        {props.deposit ? (
          <DepositAmount
            ctx={ctx}
            deposit={props.deposit}
            value={values.amount}
            error={errors.amount}
          />
        ) : open ? (
          <>
            <label for="amount">{t('enterAmount')}</label>
            <input
              id="amount"
              name="amount"
              type="text"
              inputmode="decimal"
              autocomplete="off"
              dir="auto"
              required
              value={values.amount ?? ''}
              aria-invalid={errors.amount ? 'true' : undefined}
              aria-describedby={errors.amount ? 'amount-hint amount-err' : 'amount-hint'}
            />
            <p class="muted" id="amount-hint">
              {link.amountMax !== null
                ? t('amountBetween', {
                    min: formatAmount(link.amountMin ?? 5000, lang),
                    max: formatAmount(link.amountMax, lang),
                  })
                : t('amountAtLeast', { min: formatAmount(link.amountMin ?? 5000, lang) })}
            </p>
            <FieldError id="amount" error={errors.amount} />
          </>
        ) : (
          <>
            <p class="amount">
              <small>{t('amountToPay')}</small>
              <bdi>{formatAmount(link.amount!, lang)}</bdi>
            </p>
            <FieldError id="amount" error={errors.amount} />
          </>
        )}
        {values.ref ? (
          <p class="muted hint">
            {fillParts(t('referenceLine'), { ref: <bdi>{values.ref}</bdi> })}
          </p>
        ) : null}
        <FieldError id="ref" error={errors.ref} />
        {props.summary ? (
          <CheckoutSummaryBox ctx={ctx} summary={props.summary} error={errors.promo_code} />
        ) : null}
        <h2>{t('yourDetails')}</h2>
        {DETAILS.map((field) => (
          <Field
            id={field.name}
            label={t(field.label)}
            attrs={{
              name: field.name,
              type: field.type,
              autocomplete: field.autocomplete,
              dir: 'auto',
              required: true,
              maxlength: field.maxlength,
              value: values[field.name] ?? '',
            }}
            error={errors[field.name]}
          />
        ))}
        <CheckoutFields ctx={ctx} fields={props.customFields} values={values} errors={errors} />
        {values.ref ? <input type="hidden" name="ref" value={values.ref} /> : null}
        <input type="hidden" name="csrf" value={props.csrfToken} />
        <input type="hidden" name="lang" value={lang} />
        <Check
          type="checkbox"
          attrs={{
            name: 'terms',
            value: 'yes',
            required: true,
            ...described('terms', errors.terms),
          }}
        >
          <span>
            {fillParts(t('acceptTerms'), {
              online: (
                <a href={props.onlineTermsUrl} target="_blank" rel="noopener">
                  {t('onlineTerms')}
                </a>
              ),
              merchant: (
                <a href={props.merchantTermsUrl} target="_blank" rel="noopener">
                  {t('merchantTerms')}
                </a>
              ),
            })}
          </span>
        </Check>
        <FieldError id="terms" error={errors.terms} />
        {props.captcha?.field as never}
        <button type="submit" class="pay" disabled={props.cart && !cartPayable(props.cart)}>
          <CardMarks />
          {typed ? (
            <span data-pay={t('payWith')} {...payParts(lang)}>
              {payLabel}
            </span>
          ) : (
            <span>{payLabel}</span>
          )}
        </button>
        {typed ? <script nonce={ctx.nonce || undefined}>{raw(PAY_AMOUNT_SCRIPT)}</script> : null}
        <p class="muted hint">{t('payHint')}</p>
      </form>
      {props.order?.backUrl ? (
        <p class="back">
          <a href={props.order.backUrl} rel="noopener">
            {t('backToShop')}
          </a>
        </p>
      ) : null}
    </Layout>
  )
}

/** The separators and unit the Pay button's script writes an amount with, as data attributes. */
function payParts(lang: CheckoutProps['ctx']['lang']) {
  const parts = amountParts(formatAmount(100_000_000, lang))
  return { 'data-group': parts.group, 'data-decimal': parts.decimal, 'data-unit': parts.unit }
}

/** Puts elements in place of `{name}` placeholders in a translated sentence. */
function fillParts(text: string, parts: Record<string, unknown>) {
  return text.split(/(\{\w+\})/).map((piece) => {
    const name = /^\{(\w+)\}$/.exec(piece)?.[1]
    return name && name in parts ? (parts[name] as never) : piece
  })
}
