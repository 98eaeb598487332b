import { formatAmount, formatDateTime } from '../src/i18n/index.js'
import type { Centimes } from '../src/lib/money.js'
import { StatusIcon } from './icons.js'
import { Layout, type PageContext } from './layout.js'

/**
 * The checkout page of an invoice link whose invoice is paid: what it was for and when it was
 * paid, in place of the form. The receipt itself is not linked: whoever holds the link's address
 * is not necessarily the customer who paid, and the receipt names them.
 */
export function InvoicePaidPage(props: {
  ctx: PageContext
  title: string
  amount: Centimes | null
  /** The receipt's date of the payment that paid it; null shows a dash. */
  paidAt: number | null
}) {
  const { ctx } = props
  const { t, lang } = ctx
  const date = props.paidAt === null ? '—' : formatDateTime(props.paidAt, lang)
  return (
    <Layout ctx={ctx} title={t('invoicePaidTitle')}>
      <section class="card outcome" aria-labelledby="paid-title" data-state="invoice-paid">
        <StatusIcon kind="ok" />
        <h1 id="paid-title">{t('invoicePaidTitle')}</h1>
        <p class="muted" dir="auto">
          {props.title}
        </p>
        {props.amount !== null ? (
          <p class="amount">
            <bdi>{formatAmount(props.amount, lang)}</bdi>
          </p>
        ) : null}
        <p>{t('invoicePaidText', { date })}</p>
      </section>
    </Layout>
  )
}
