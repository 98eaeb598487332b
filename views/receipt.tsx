import { raw } from 'hono/html'
import type { FailureCode } from '../db/schema.js'
import type { Language } from '../src/config.js'
import type { BrandContacts } from '../src/domain/brand.js'
import { answerText } from '../src/domain/custom-fields.js'
import type { ReceiptView } from '../src/domain/receipt-view.js'
import { formatAmount, formatDateTime, type MessageKey } from '../src/i18n/index.js'
import { MerchantContacts } from './contacts.js'
import { StatusIcon, type StatusKind } from './icons.js'
import { Layout, type PageContext } from './layout.js'
import { ReceiptLines } from './receipt-lines.js'

export type { ReceiptView }

/**
 * The receipt's rows, label then value, with the card network's required elements and the
 * merchant's contact details from the settings; empty ones left out. The page, the PDF and the
 * e-mail all show these.
 */
export function receiptRows(
  t: (key: MessageKey) => string,
  lang: Language,
  merchantName: string,
  receipt: ReceiptView,
  contacts?: BrandContacts | null,
): Array<[string, string]> {
  const promo = receipt.promo
  // The promo code's and the fee's lines, before the amount they add up to.
  const orderRows: Array<[string, string | null]> = promo
    ? [
        [t('subtotal'), formatAmount(promo.subtotal, lang)],
        [
          promo.code ? t('discountLine').replace('{code}', promo.code) : t('discountLine'),
          promo.discount > 0 ? `−${formatAmount(promo.discount, lang)}` : null,
        ],
        [t('feePaid'), promo.fee > 0 ? formatAmount(promo.fee, lang) : null],
      ]
    : []
  const rows: Array<[string, string | null]> = [
    [t('gatewayMessage'), receipt.gatewayMessage],
    [t('orderId'), receipt.orderId],
    [t('orderNumber'), receipt.orderNumber],
    [t('approvalCode'), receipt.approvalCode],
    [t('dateTime'), formatDateTime(receipt.paidAt ?? receipt.updatedAt, lang)],
    ...orderRows,
    [t('amountPaid'), formatAmount(receipt.amount, lang)],
    ...depositRows(t, lang, receipt.deposit),
    [t('paymentMethod'), t('cardMethod')],
    [t('merchant'), merchantName],
    [t('contactPhone'), contacts?.phone ?? null],
    [t('contactEmail'), contacts?.email ?? null],
    [t('contactAddress'), contacts?.address ?? null],
    [t('customer'), receipt.customerName],
    [t('reference'), receipt.ref],
    // The customer's answers to the link's questions, a wilaya as "16 — Alger" (one line each).
    ...(receipt.customFields ?? []).map((a): [string, string] => [
      a.label,
      answerText(a.type, a.value, lang),
    ]),
  ]
  return rows.filter((row): row is [string, string] => row[1] !== null && row[1].trim() !== '')
}

/** A deposit's lines: the link's total, paid so far (this part included), what remains. */
function depositRows(
  t: (key: MessageKey) => string,
  lang: Language,
  deposit: ReceiptView['deposit'],
): Array<[string, string]> {
  if (!deposit) return []
  const remaining =
    deposit.remaining > 0 ? formatAmount(deposit.remaining, lang) : t('receiptDepositInFull')
  return [
    [t('depositTotal'), formatAmount(deposit.total, lang)],
    [t('depositPaid'), formatAmount(deposit.paid, lang)],
    [t('receiptDepositRemaining'), remaining],
  ]
}

/** The receipt (success) page with the card network's required elements. */
export function ReceiptPage(props: {
  ctx: PageContext
  receipt: ReceiptView
  /** The download is a PDF (Node) rather than the page as an HTML file. */
  pdf?: boolean
  /** A shop's checkout: its success_url (with the checkout's id), the way back to the shop. */
  shopUrl?: string | null | undefined
}) {
  const { ctx, receipt } = props
  const { t, lang } = ctx
  const rows = receiptRows(t, lang, ctx.merchantName, receipt, ctx.brand?.contacts)
  return (
    <Layout ctx={ctx} title={t('receiptTitle')}>
      <section class="card outcome" aria-labelledby="receipt-title">
        <StatusIcon kind="ok" />
        <h1 id="receipt-title">{t('receiptTitle')}</h1>
        <p class="muted" dir="auto">
          {receipt.linkTitle}
        </p>
        <p class="amount">
          <bdi>{formatAmount(receipt.amount, lang)}</bdi>
        </p>
        <ReceiptLines ctx={ctx} receipt={receipt} />
        <Details rows={rows} />
        <p class="muted">{t('receiptThanks')}</p>
        {ctx.brand?.receiptFooter ? (
          <p class="footnote" dir="auto">
            {ctx.brand.receiptFooter}
          </p>
        ) : null}
        {ctx.download ? null : (
          <>
            <div class="actions">
              {/* Printing needs script; without it the button stays hidden and the browser's own menu prints. */}
              <button type="button" class="secondary" id="print-receipt" hidden>
                {t('print')}
              </button>
              <a
                class="btn secondary"
                href={`/r/${receipt.receiptId}/download?lang=${lang}`}
                download
              >
                {props.pdf ? t('downloadPdf') : t('download')}
              </a>
            </div>
            <script nonce={ctx.nonce || undefined}>{raw(PRINT_SCRIPT)}</script>
          </>
        )}
      </section>
      {receipt.successMessage && !ctx.download ? (
        <p class="card ok" dir="auto">
          {receipt.successMessage}
        </p>
      ) : null}
      {receipt.successUrl && !ctx.download ? (
        <p class="actions next no-print">
          <a class="btn" href={receipt.successUrl} rel="noopener">
            {t('continue')}
          </a>
        </p>
      ) : null}
      {props.shopUrl && !ctx.download ? (
        <p class="actions next no-print">
          <a class="btn" href={props.shopUrl} rel="noopener">
            {t('backToShop')}
          </a>
        </p>
      ) : null}
    </Layout>
  )
}

const PRINT_SCRIPT =
  "(function(){var b=document.getElementById('print-receipt');b.hidden=false;b.addEventListener('click',function(){window.print()})})()"

/**
 * While the outcome is unknown, the page asks for itself in the background and reloads once the
 * answer differs; a customer without script has the Refresh button. (A meta refresh would reload
 * the page under a screen reader's cursor every few seconds.) A redirect is an answer that
 * differs too (a shop's checkout, paid, goes on to the shop): it is not followed by the fetch,
 * which could not read another origin's page, but by the reload.
 */
const PENDING_SCRIPT =
  "(function(){var n=0;function poll(){fetch(location.href,{cache:'no-store',redirect:'manual'}).then(function(r){if(r.type==='opaqueredirect'){location.reload();return}return r.text().then(function(h){if(h.indexOf('id=\"payment-pending\"')<0)location.reload();else later()})}).then(null,later)}function later(){if(++n<40)setTimeout(poll,3000)}later()})()"

function Details(props: { rows: Array<[string, string | null]> }) {
  const rows = props.rows.filter((row): row is [string, string] => row[1] !== null && row[1] !== '')
  if (rows.length === 0) return null
  return (
    <dl class="kv">
      {rows.map(([term, value]) => (
        <>
          <dt>{term}</dt>
          <dd>
            <bdi>{value}</bdi>
          </dd>
        </>
      ))}
    </dl>
  )
}

/** The customer's wording of each decline reason. */
export const FAILURE_REASON_KEYS: Record<FailureCode, MessageKey> = {
  insufficient_funds: 'reasonInsufficientFunds',
  expired_card: 'reasonExpiredCard',
  declined: 'reasonDeclined',
  authentication_failed: 'reasonAuthenticationFailed',
  canceled_by_customer: 'reasonCanceledByCustomer',
  session_expired: 'reasonSessionExpired',
  gateway_error: 'reasonGatewayError',
  unknown: 'reasonUnknown',
}

/** The page for a payment that did not succeed, or is still being confirmed. */
export function PaymentOutcomePage(props: {
  ctx: PageContext
  receipt: ReceiptView
  retryUrl: string
  /** A shop's checkout: its cancel_url (with the checkout's id), the way back to the shop. */
  shopUrl?: string | null | undefined
}) {
  const { ctx, receipt } = props
  const { t, lang } = ctx
  const pending = receipt.status === 'pending' || receipt.status === 'initiated'
  const [title, text, icon]: [string, string, StatusKind] = pending
    ? [t('pendingTitle'), t('pendingText'), 'wait']
    : receipt.status === 'canceled'
      ? [t('canceledTitle'), t('canceledText'), 'fail']
      : receipt.status === 'expired'
        ? [t('expiredTitle'), t('expiredText'), 'wait']
        : receipt.status === 'error'
          ? [t('gatewayErrorTitle'), t('gatewayErrorText'), 'alert']
          : [t('failedTitle'), t('failedText'), 'fail']
  return (
    <Layout ctx={ctx} title={title}>
      <section
        class="card outcome"
        aria-labelledby="outcome-title"
        id={pending ? 'payment-pending' : undefined}
      >
        <StatusIcon kind={icon} />
        <h1 id="outcome-title">{title}</h1>
        <p role={pending ? 'status' : undefined}>{text}</p>
        <p class="amount">
          <bdi>{formatAmount(receipt.amount, lang)}</bdi>
        </p>
        {pending ? null : (
          <Details
            rows={[
              [
                t('failureReason'),
                receipt.failureCode ? t(FAILURE_REASON_KEYS[receipt.failureCode]) : null,
              ],
              [t('gatewayMessage'), receipt.gatewayMessage],
              [t('orderNumber'), receipt.orderNumber],
            ]}
          />
        )}
        <div class="actions">
          {pending ? (
            <a class="btn" href={`/r/${receipt.receiptId}?lang=${lang}`}>
              {t('refresh')}
            </a>
          ) : (
            <>
              <a class="btn" href={props.retryUrl}>
                {t('tryAgain')}
              </a>
              {props.shopUrl ? (
                <a class="btn secondary" href={props.shopUrl} rel="noopener">
                  {t('backToShop')}
                </a>
              ) : null}
            </>
          )}
        </div>
      </section>
      {pending ? null : <MerchantContacts ctx={ctx} />}
      {pending ? <script nonce={ctx.nonce || undefined}>{raw(PENDING_SCRIPT)}</script> : null}
    </Layout>
  )
}
