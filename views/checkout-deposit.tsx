/**
 * The amount part of a deposit link's checkout page (`allow_partial`): the whole to pay, what was
 * paid so far and the balance, then the part to pay now (`amount`), prefilled with the balance and
 * bounded by the least part (the balance when it is less) and the balance. The server checks the
 * part again (src/payments/order-deposit.ts); the bounds here only guide the customer.
 */
import type { DepositView } from '../src/domain/deposit.js'
import { formatAmount } from '../src/i18n/index.js'
import { centimesToDzdShort } from '../src/lib/money.js'
import { FieldError } from './field.js'
import type { PageContext } from './layout.js'

export function DepositAmount(props: {
  ctx: PageContext
  deposit: DepositView
  /** What the customer typed, shown again after a refusal; else the balance. */
  value: string | undefined
  error: string | undefined
}) {
  const { ctx, deposit } = props
  const { t, lang } = ctx
  const rows = [
    ['depositTotal', deposit.total],
    ['depositPaid', deposit.paid],
    ['depositBalance', deposit.balance],
  ] as const
  return (
    <>
      <table class="deposit" data-balance={deposit.balance}>
        <caption class="muted">{t('depositCaption')}</caption>
        <tbody>
          {rows.map(([key, value]) => (
            <tr>
              <th scope="row">{t(key)}</th>
              <td class="num">
                <bdi>{formatAmount(value, lang)}</bdi>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <label for="amount">{t('depositAmount')}</label>
      <input
        id="amount"
        name="amount"
        type="text"
        inputmode="decimal"
        autocomplete="off"
        dir="auto"
        required
        value={props.value ?? centimesToDzdShort(deposit.balance)}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={props.error ? 'amount-hint amount-err' : 'amount-hint'}
      />
      <p class="muted" id="amount-hint">
        {deposit.min < deposit.max
          ? t('amountBetween', {
              min: formatAmount(deposit.min, lang),
              max: formatAmount(deposit.max, lang),
            })
          : t('depositWholeBalance', { max: formatAmount(deposit.max, lang) })}
      </p>
      <FieldError id="amount" error={props.error} />
    </>
  )
}
