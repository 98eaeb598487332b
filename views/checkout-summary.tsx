/**
 * The order summary of the checkout page: the subtotal, the promo code's discount, the customer's
 * fee and the total, with the promo code's field and its "Apply" button. Without script, "Apply"
 * submits the form (`apply_promo`) and the server answers the same page with the discount shown,
 * no payment started; with script (order-total-script.ts) the figures follow the amount and the
 * quantities as they are typed, and "Apply" asks the server for the code's terms. The server
 * prices the order again when the customer pays (src/payments/order.ts): these figures are shown,
 * never read back.
 */
import { raw } from 'hono/html'
import { formatAmount } from '../src/i18n/index.js'
import type { Centimes } from '../src/lib/money.js'
import { FieldError } from './field.js'
import type { PageContext } from './layout.js'
import { ORDER_TOTAL_SCRIPT } from './order-total-script.js'
import { amountParts } from './pay-amount-script.js'

/** What the summary shows; the server's figures, in centimes. */
export interface CheckoutSummary {
  /** The subtotal, or null while an open amount is not typed yet. */
  subtotal: Centimes | null
  discount: Centimes
  fee: Centimes
  /** subtotal − discount + fee, or null with the subtotal. */
  total: Centimes | null
  /** The fee's rate in hundredths of a percent (250: 2.5 %); 0 when the customer pays none. */
  feeHundredths: number
  /** The link takes promo codes: the field and its button are shown. */
  promo: boolean
  /** The code in the field, as the customer typed it. */
  typed: string
  /** The code applied (as the merchant wrote it) and its terms, for the script. */
  applied: {
    code: string
    percentOff: number | null
    amountOff: Centimes | null
    minAmount: Centimes | null
  } | null
  /** Where the script asks for a code's terms: `/l/<slug>/promo`. */
  termsUrl: string
  /** The card's least payment, which a discount never goes under. */
  cardMin: Centimes
}

/** The percent as the page writes it: `2.5` (`2,5` in French and Arabic). */
function percentText(hundredths: number, lang: PageContext['lang']): string {
  const whole = Math.trunc(hundredths / 100)
  const rest = hundredths % 100
  const text =
    rest === 0 ? String(whole) : `${whole}.${String(rest).padStart(2, '0').replace(/0$/, '')}`
  return lang === 'en' ? text : text.replace('.', ',')
}

/** The summary, with the promo code's field when the link takes codes. */
export function CheckoutSummaryBox(props: {
  ctx: PageContext
  summary: CheckoutSummary
  error: string | undefined
}) {
  const { ctx, summary: s, error } = props
  const { t, lang } = ctx
  const money = (v: Centimes | null) => (v === null ? '—' : formatAmount(v, lang))
  const parts = amountParts(formatAmount(100_000_000, lang))
  const applied = s.applied
  const code = applied?.code ?? ''
  return (
    <section
      id="order-summary"
      class="summary"
      aria-labelledby="order-summary-title"
      data-subtotal={s.subtotal ?? ''}
      data-fee-percent={s.feeHundredths}
      data-discount-percent={applied?.percentOff ?? ''}
      data-discount-amount={applied?.amountOff ?? ''}
      data-min-amount={applied?.minAmount ?? ''}
      data-card-min={s.cardMin}
      data-code={code}
      data-terms-url={s.termsUrl}
      data-discount-label={t('discountLine')}
      data-applied-text={t('promoApplied')}
      data-pay={t('payWith')}
      data-group={parts.group}
      data-decimal={parts.decimal}
      data-unit={parts.unit}
    >
      <h2 id="order-summary-title">{t('orderSummary')}</h2>
      {s.promo ? (
        <>
          <label for="promo_code">{t('promoCode')}</label>
          <div class="promo-row">
            <input
              id="promo_code"
              name="promo_code"
              type="text"
              autocomplete="off"
              autocapitalize="characters"
              spellcheck={false}
              dir="ltr"
              maxlength={40}
              value={s.typed}
              aria-invalid={error ? 'true' : undefined}
              aria-describedby={error ? 'promo_code-err' : undefined}
            />
            <button type="submit" name="apply_promo" value="1" class="secondary" formnovalidate>
              {t('applyPromo')}
            </button>
          </div>
          <FieldError id="promo_code" error={error} />
          <p class="ok-note" id="promo-status" role="status">
            {applied && s.discount > 0
              ? t('promoApplied', { code: applied.code, discount: money(s.discount) })
              : ''}
          </p>
        </>
      ) : null}
      <dl class="totals">
        <dt>{t('subtotal')}</dt>
        <dd data-out="subtotal">
          <bdi>{money(s.subtotal)}</bdi>
        </dd>
        <dt data-row="discount" hidden={s.discount > 0 ? undefined : true}>
          <span data-out="discount-label">{t('discountLine', { code })}</span>
        </dt>
        <dd data-row="discount" data-out="discount" hidden={s.discount > 0 ? undefined : true}>
          <bdi>{`−${money(s.discount)}`}</bdi>
        </dd>
        {s.feeHundredths > 0 ? (
          <>
            <dt>{t('feeLine', { percent: percentText(s.feeHundredths, lang) })}</dt>
            <dd data-out="fee">
              <bdi>{money(s.fee)}</bdi>
            </dd>
          </>
        ) : null}
        <dt class="total">{t('total')}</dt>
        <dd class="total" data-out="total">
          <bdi>{money(s.total)}</bdi>
        </dd>
      </dl>
      <script nonce={ctx.nonce || undefined}>{raw(ORDER_TOTAL_SCRIPT)}</script>
    </section>
  )
}
