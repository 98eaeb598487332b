import type {
  Checkout,
  FailureCode,
  Link,
  Payment,
  PaymentEvent,
  TransitionCause,
  WebhookEvent,
  WebhookEventStatus,
} from '../../db/schema.js'
import type { DashKey } from '../../src/dashboard/messages.js'
import { answerText, type CustomFieldAnswer } from '../../src/domain/custom-fields.js'
import type { ReceiptDeposit } from '../../src/domain/receipt-view.js'
import { formatAmount, formatDateTime } from '../../src/i18n/index.js'
import { CheckoutStatusBadge } from './checkouts-page.js'
import { failureLabel } from './failure-label.js'
import { type DashContext, DashLayout, LANGUAGE_NAMES } from './layout.js'
import { MetadataList } from './metadata-list.js'
import { BeyondMaxPaymentsMark, PaymentStatusBadge, paymentStatusLabel } from './parts.js'
import { PaymentLinesSection } from './payment-lines.js'

const CAUSE_KEYS: Record<TransitionCause, DashKey> = {
  checkout: 'causeCheckout',
  return: 'causeReturn',
  webhook: 'causeWebhook',
  reconciler: 'causeReconciler',
  merchant: 'causeMerchant',
}

const WEBHOOK_KEYS: Record<WebhookEventStatus, DashKey> = {
  received: 'webhookReceivedState',
  processed: 'webhookProcessed',
  ignored: 'webhookIgnored',
  failed: 'webhookFailed',
}

/** The reason of an unsuccessful payment, for lists (nothing for the others). */
export function FailureReason(props: { ctx: DashContext; code: FailureCode | null }) {
  if (!props.code) return null
  return (
    <span class="reason" data-failure-code={props.code}>
      {failureLabel(props.ctx, props.code)}
    </span>
  )
}

/** A gateway answer: its meaningful fields (already made showable) and its JSON, escaped. */
export interface AnswerView {
  fields: Array<[string, string]>
  json: string
}

/** What the payment's page shows. */
export interface PaymentDetail {
  payment: Payment
  link: Pick<Link, 'id' | 'title'> | null
  /** The shop's checkout the payment was made for, if any. */
  checkout?: Pick<Checkout, 'id' | 'reference' | 'status' | 'successUrl'> | null
  /** The customer's answers to the link's questions, labelled by the link. */
  answers?: CustomFieldAnswer[]
  events: PaymentEvent[]
  webhooks: WebhookEvent[]
  gatewayMessage: string | null
  creation: AnswerView | null
  check: AnswerView | null
  /** A part of a deposit link: what remained right after it was paid. */
  deposit?: ReceiptDeposit | null
}

type Row = [string, unknown, string?]

/** A definition list of the rows that have a value; `ltr` rows are codes and ids. */
function Rows(props: { rows: Row[] }) {
  const rows = props.rows.filter(([, v]) => v !== null && v !== undefined && v !== '')
  return (
    <dl class="kv">
      {rows.map(([term, value, cls]) => (
        <>
          <dt>{term}</dt>
          <dd class={cls}>{value as string}</dd>
        </>
      ))}
    </dl>
  )
}

function Answer(props: { ctx: DashContext; title: string; answer: AnswerView | null }) {
  const { ctx, answer } = props
  return (
    <>
      <h3>{props.title}</h3>
      {answer ? (
        <>
          <Rows rows={answer.fields.map(([k, v]): Row => [k, <bdi>{v}</bdi>, 'ltr'])} />
          <details>
            <summary>{ctx.t('rawAnswer')}</summary>
            <pre class="raw ltr">{answer.json}</pre>
          </details>
        </>
      ) : (
        <p class="muted">{ctx.t('noAnswer')}</p>
      )}
    </>
  )
}

function Timeline(props: { ctx: DashContext; events: PaymentEvent[] }) {
  const { ctx } = props
  const t = ctx.t
  if (props.events.length === 0) return <p class="muted">{t('noEvents')}</p>
  return (
    <ol class="timeline">
      {props.events.map((e) => {
        const to = paymentStatusLabel(ctx, e.toStatus)
        const what = e.fromStatus
          ? t('eventMoved', { from: paymentStatusLabel(ctx, e.fromStatus), to })
          : t('eventCreated', { to })
        const cause = t(e.cause ? CAUSE_KEYS[e.cause] : 'causeUnknown')
        return (
          <li data-to={e.toStatus} data-cause={e.cause ?? ''}>
            <time datetime={new Date(e.at).toISOString()}>{formatDateTime(e.at, ctx.lang)}</time>
            <strong>{what}</strong>
            <span class="muted">{t('eventBy', { cause })}</span>
          </li>
        )
      })}
    </ol>
  )
}

function Webhooks(props: { ctx: DashContext; webhooks: WebhookEvent[] }) {
  const { ctx } = props
  const t = ctx.t
  if (props.webhooks.length === 0) return <p class="muted">{t('noWebhooks')}</p>
  return (
    <ul class="blocks pd">
      {props.webhooks.map((w) => (
        <li data-webhook-status={w.status}>
          <Rows
            rows={[
              [t('webhookReceived'), formatDateTime(w.receivedAt, ctx.lang)],
              [t('webhookPaymentStatus'), w.paymentStatus, 'ltr'],
              [t('webhookStatus'), t(WEBHOOK_KEYS[w.status])],
              [t('webhookError'), w.lastError, 'ltr'],
            ]}
          />
        </li>
      ))}
    </ul>
  )
}

/** "Deposit — remains X" (or "paid in full") for a part of a deposit link; null otherwise. */
function depositText(ctx: DashContext, deposit: ReceiptDeposit | null | undefined) {
  if (!deposit) return null
  return deposit.remaining > 0
    ? ctx.t('paymentDeposit', { balance: formatAmount(deposit.remaining, ctx.lang) })
    : ctx.t('paymentDepositInFull')
}

/** A payment's page: its state and reason, history, customer, ids, gateway answers, webhooks. */
export function PaymentDetailPage(props: { ctx: DashContext; detail: PaymentDetail }) {
  const { ctx } = props
  const { payment: p, link } = props.detail
  const t = ctx.t
  const amount = formatAmount(p.amount, ctx.lang)
  const receipt = `/r/${encodeURIComponent(p.receiptId)}`
  return (
    <DashLayout ctx={ctx} title={t('paymentTitle', { amount })} nav="payments">
      <section class="card pd" aria-labelledby="payment-title">
        <div class="head">
          <h1 id="payment-title">{t('paymentTitle', { amount })}</h1>
          <span>
            <PaymentStatusBadge ctx={ctx} status={p.status} />{' '}
            <BeyondMaxPaymentsMark ctx={ctx} beyond={p.beyondMaxPayments} />
          </span>
        </div>
        <Rows
          rows={[
            [t('colReason'), p.failureCode ? failureLabel(ctx, p.failureCode) : null],
            [
              t('fieldGatewayMessage'),
              p.failureCode && props.detail.gatewayMessage ? (
                <bdi>{props.detail.gatewayMessage}</bdi>
              ) : null,
            ],
            [t('colAmount'), amount],
            [t('detailBalance'), depositText(ctx, props.detail.deposit)],
            // What the amount is made of when a promo code or the customer's fee changed it.
            [
              t('pdSubtotal'),
              p.discount > 0 || p.fee > 0 ? formatAmount(p.subtotal ?? p.amount, ctx.lang) : null,
            ],
            [
              p.promoCode ? `${t('pdDiscount')} (${p.promoCode})` : t('pdDiscount'),
              p.discount > 0 ? `−${formatAmount(p.discount, ctx.lang)}` : null,
            ],
            [t('pdFee'), p.fee > 0 ? formatAmount(p.fee, ctx.lang) : null],
            [
              t('fieldLink'),
              link ? (
                <a href={`/dashboard/links/${encodeURIComponent(link.id)}`}>{link.title}</a>
              ) : (
                p.linkId
              ),
            ],
            [t('colRef'), p.ref],
            [t('colCreated'), formatDateTime(p.createdAt, ctx.lang)],
            [t('fieldPaidAt'), p.paidAt === null ? null : formatDateTime(p.paidAt, ctx.lang)],
            [t('fieldUpdatedAt'), formatDateTime(p.updatedAt, ctx.lang)],
            [t('colOrder'), p.orderNumber, 'ltr'],
            [t('fieldOrderId'), p.orderId, 'ltr'],
            [t('fieldApprovalCode'), p.approvalCode, 'ltr'],
            [t('fieldTransactionId'), p.transactionId, 'ltr'],
            [t('fieldCibTransactionId'), p.cibTransactionId, 'ltr'],
            [t('fieldErrorReason'), p.errorReason, 'ltr'],
            [t('detailLanguage'), LANGUAGE_NAMES[p.language]],
            [t('receipt'), <a href={receipt}>{receipt}</a>, 'ltr'],
          ]}
        />
      </section>
      <section class="card pd" aria-labelledby="customer-title">
        <h2 id="customer-title">{t('sectionCustomer')}</h2>
        <Rows
          rows={[
            [t('fieldName'), p.customerName],
            [t('fieldPhone'), p.customerPhone, 'ltr'],
            [t('fieldEmail'), p.customerEmail, 'ltr'],
          ]}
        />
      </section>
      {props.detail.answers && props.detail.answers.length > 0 ? (
        <section class="card pd" aria-labelledby="answers-title">
          <h2 id="answers-title">{t('paymentAnswers')}</h2>
          <dl class="kv" data-custom-fields>
            {props.detail.answers.map((a) => (
              <>
                <dt>
                  <bdi dir="auto">{a.label}</bdi>
                </dt>
                <dd>
                  <bdi>{answerText(a.type, a.value, ctx.lang)}</bdi>
                </dd>
              </>
            ))}
          </dl>
        </section>
      ) : null}
      <PaymentLinesSection ctx={ctx} payment={p} />
      {props.detail.checkout ? (
        <CheckoutSection ctx={ctx} checkout={props.detail.checkout} />
      ) : null}
      {Object.keys(p.metadata).length > 0 ? (
        <section class="card pd" aria-labelledby="metadata-title">
          <MetadataList ctx={ctx} metadata={p.metadata} id="metadata-title" />
        </section>
      ) : null}
      <section class="card pd" aria-labelledby="timeline-title">
        <h2 id="timeline-title">{t('sectionTimeline')}</h2>
        <Timeline ctx={ctx} events={props.detail.events} />
      </section>
      <section class="card pd" aria-labelledby="gateway-title">
        <h2 id="gateway-title">{t('sectionGateway')}</h2>
        <Answer ctx={ctx} title={t('creationAnswer')} answer={props.detail.creation} />
        <Answer ctx={ctx} title={t('checkAnswer')} answer={props.detail.check} />
      </section>
      <section class="card pd" aria-labelledby="webhooks-title">
        <h2 id="webhooks-title">{t('sectionWebhooks')}</h2>
        <Webhooks ctx={ctx} webhooks={props.detail.webhooks} />
      </section>
      <p>
        <a href="/dashboard/payments">{t('backToPayments')}</a>
      </p>
    </DashLayout>
  )
}

/** The shop's checkout of a payment: its id, reference (its row in the list), state, success URL. */
function CheckoutSection(props: {
  ctx: DashContext
  checkout: NonNullable<PaymentDetail['checkout']>
}) {
  const { ctx, checkout: k } = props
  const t = ctx.t
  return (
    <section class="card pd" aria-labelledby="checkout-title" data-checkout-id={k.id}>
      <h2 id="checkout-title">{t('sectionCheckout')}</h2>
      <Rows
        rows={[
          [t('fieldCheckoutId'), k.id, 'ltr'],
          [
            t('checkoutsReference'),
            k.reference ? (
              <a href={`/dashboard/checkouts?reference=${encodeURIComponent(k.reference)}`}>
                <bdi>{k.reference}</bdi>
              </a>
            ) : null,
          ],
          [t('colStatus'), <CheckoutStatusBadge ctx={ctx} status={k.status} />],
          [t('checkoutSuccessUrl'), <bdi>{k.successUrl}</bdi>, 'ltr'],
        ]}
      />
    </section>
  )
}
