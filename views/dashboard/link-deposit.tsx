/**
 * A deposit link's lines on its dashboard page: the total to pay, what was paid so far (customer
 * fees apart: `paid_total`) and the balance, with the least part a customer may pay.
 */
import type { LinkWithStats } from '../../src/data/links.js'
import { depositView } from '../../src/domain/deposit.js'
import { formatAmount } from '../../src/i18n/index.js'
import type { DashContext } from './layout.js'

export function DepositRows(props: { ctx: DashContext; link: LinkWithStats }) {
  const { ctx, link } = props
  const deposit = depositView(link, link)
  if (!deposit || link.partialMinAmount === null) return null
  const rows = [
    ['detailPartialMin', link.partialMinAmount],
    ['detailAmountDue', deposit.total],
    ['detailPaidSoFar', deposit.paid],
    ['detailBalance', deposit.balance],
  ] as const
  return (
    <>
      {rows.map(([key, value]) => (
        <>
          <dt>{ctx.t(key)}</dt>
          <dd data-deposit={key}>{formatAmount(value, ctx.lang)}</dd>
        </>
      ))}
    </>
  )
}
