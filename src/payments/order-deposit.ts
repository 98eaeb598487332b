/**
 * Step 1 of pricing for a deposit link (`allow_partial`): the subtotal is the part the customer
 * chose (`amount` on the form), at least the link's least part (or the whole balance when that is
 * less) and at most the balance, read from the link's row as this request read it. The INSERT
 * that starts the payment checks the balance again, atomically (src/data/payment-reserve.ts):
 * a part paid meanwhile makes it refuse with `balance_changed`.
 */
import type { Link, LinkCounters } from '../../db/schema.js'
import { typedAmountText } from '../domain/checkout-input.js'
import { checkDepositPart, depositView } from '../domain/deposit.js'
import type { MessageKey } from '../i18n/index.js'

/** The `amount` field's refusal, as src/payments/order.ts's OrderErrors holds it. */
type AmountError = { key: MessageKey; params?: Record<string, number> }

export type DepositSubtotal =
  | { ok: true; subtotal: number }
  | { ok: false; errors: { amount: AmountError } }

/** The deposit's part as the subtotal, or the `amount` field's refusal; null for other links. */
export function depositSubtotal(
  /** The row as read from the table, with its counters (`Link` leaves them out of its type). */
  link: Link & Partial<Pick<LinkCounters, 'paidTotal'>>,
  form: Record<string, unknown>,
): DepositSubtotal | null {
  if (link.partialMinAmount === null) return null
  if (link.paidTotal === undefined) throw new TypeError('A deposit link is priced from its row')
  const view = depositView(link, { paidTotal: link.paidTotal })
  if (!view) return null
  const raw = typeof form.amount === 'string' ? form.amount.slice(0, 40) : ''
  const entered = typedAmountText(raw)
  const check = checkDepositPart(view, entered)
  if (check.ok) return { ok: true, subtotal: check.part }
  const amount: AmountError =
    check.reason === 'required'
      ? { key: 'errRequired' as const }
      : check.reason === 'invalid'
        ? { key: 'errAmount' as const }
        : check.reason === 'below_min'
          ? { key: 'errDepositMin' as const, params: { min: view.min } }
          : { key: 'errDepositMax' as const, params: { max: view.max } }
  return { ok: false, errors: { amount } }
}
