import { raw } from 'hono/html'
import type { Centimes } from '../src/client/core/money.js'
import { formatAmount, formatDateTime } from '../src/i18n/index.js'
import { Layout, type PageContext } from './layout.js'

export interface ReceiptView {
  receiptId: string
  status: 'initiated' | 'pending' | 'paid' | 'failed' | 'canceled' | 'expired' | 'error'
  amount: Centimes
  linkTitle: string
  linkSlug: string
  gatewayMessage: string | null
  orderId: string | null
  orderNumber: string | null
  approvalCode: string | null
  paidAt: number | null
  updatedAt: number
  ref: string | null
  customerName: string
  successMessage: string | null
  successUrl: string | null
}

/** The receipt (success) page with the card network's required elements. */
export function ReceiptPage(props: { ctx: PageContext; receipt: ReceiptView }) {
  const { ctx, receipt } = props
  const { t, lang } = ctx
  const rows: Array<[string, string | null]> = [
    [t('gatewayMessage'), receipt.gatewayMessage],
    [t('orderId'), receipt.orderId],
    [t('orderNumber'), receipt.orderNumber],
    [t('approvalCode'), receipt.approvalCode],
    [t('dateTime'), formatDateTime(receipt.paidAt ?? receipt.updatedAt, lang)],
    [t('amountPaid'), formatAmount(receipt.amount, lang)],
    [t('paymentMethod'), t('cardMethod')],
    [t('merchant'), ctx.merchantName],
    [t('customer'), receipt.customerName],
    [t('reference'), receipt.ref],
  ]
  return (
    <Layout ctx={ctx} title={t('receiptTitle')}>
      <section class="card" aria-labelledby="receipt-title">
        <p class="status" aria-hidden="true">
          ✓
        </p>
        <h1 id="receipt-title">{t('receiptTitle')}</h1>
        <p class="muted">{receipt.linkTitle}</p>
        <p class="amount">
          <bdi>{formatAmount(receipt.amount, lang)}</bdi>
        </p>
        <dl class="kv">
          {rows
            .filter((row): row is [string, string] => row[1] !== null && row[1] !== '')
            .map(([term, value]) => (
              <>
                <dt>{term}</dt>
                <dd>
                  <bdi>{value}</bdi>
                </dd>
              </>
            ))}
        </dl>
        <p class="muted">{t('receiptThanks')}</p>
        {ctx.download ? null : (
          <>
            <div class="actions">
              <button type="button" class="secondary" id="print-receipt">
                {t('print')}
              </button>
              <a class="btn secondary" href={`/r/${receipt.receiptId}/download?lang=${lang}`} download>
                {t('download')}
              </a>
            </div>
            <script nonce={ctx.nonce}>
              {raw(
                "document.getElementById('print-receipt').addEventListener('click',function(){window.print()})",
              )}
            </script>
          </>
        )}
      </section>
      {receipt.successMessage && !ctx.download ? <p class="card alert ok">{receipt.successMessage}</p> : null}
      {receipt.successUrl && !ctx.download ? (
        <p class="actions">
          <a class="btn" href={receipt.successUrl} rel="noopener">
            {t('continue')}
          </a>
        </p>
      ) : null}
    </Layout>
  )
}

/** The page for a payment that did not succeed, or is still being confirmed. */
export function PaymentOutcomePage(props: {
  ctx: PageContext
  receipt: ReceiptView
  retryUrl: string
}) {
  const { ctx, receipt } = props
  const { t, lang } = ctx
  const pending = receipt.status === 'pending' || receipt.status === 'initiated'
  const [title, text, icon] = pending
    ? [t('pendingTitle'), t('pendingText'), '⏳']
    : receipt.status === 'canceled'
      ? [t('canceledTitle'), t('canceledText'), '✕']
      : receipt.status === 'expired'
        ? [t('expiredTitle'), t('expiredText'), '⌛']
        : receipt.status === 'error'
          ? [t('gatewayErrorTitle'), t('gatewayErrorText'), '!']
          : [t('failedTitle'), t('failedText'), '✕']
  return (
    <Layout
      ctx={ctx}
      title={title}
      head={pending ? <meta http-equiv="refresh" content="5" /> : undefined}
    >
      <section class="card" aria-labelledby="outcome-title">
        <p class="status" aria-hidden="true">
          {icon}
        </p>
        <h1 id="outcome-title">{title}</h1>
        <p>{text}</p>
        {receipt.gatewayMessage && !pending ? (
          <dl class="kv">
            <dt>{t('gatewayMessage')}</dt>
            <dd>
              <bdi>{receipt.gatewayMessage}</bdi>
            </dd>
          </dl>
        ) : null}
        <p class="amount">
          <bdi>{formatAmount(receipt.amount, lang)}</bdi>
        </p>
        <div class="actions">
          {pending ? (
            <a class="btn" href={`/r/${receipt.receiptId}?lang=${lang}`}>
              {t('refresh')}
            </a>
          ) : (
            <a class="btn" href={props.retryUrl}>
              {t('tryAgain')}
            </a>
          )}
        </div>
      </section>
    </Layout>
  )
}
