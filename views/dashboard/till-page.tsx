/**
 * The till: the keypad for a new sale, or the sale's screen — its QR code filling the screen while
 * the customer pays, then Paid (amount, time, approval code, customer) or the decline's reason.
 * Every state's panel is on the page; `data-state` on the root shows one, so the script only sets
 * it and fills the fields from the sale's JSON.
 */
import { raw } from 'hono/html'
import type { SaleView } from '../../src/dashboard/till-sale.js'
import type { TillPreset } from '../../src/domain/till-sale.js'
import { formatAmount } from '../../src/i18n/index.js'
import { Field } from '../field.js'
import { CsrfField, type DashContext, DashLayout } from './layout.js'
import { LocalUrlWarning } from './link-share.js'

/** The separators and currency the page's amounts use, read from the one formatter. */
function amountFormat(ctx: DashContext) {
  const sample = formatAmount(100_000_000, ctx.lang) // 1 000 000,00 in the language's marks
  const m = /^1(\D+)000\D+000(\D+)00(.*)$/.exec(sample)
  return { 'data-group': m?.[1] ?? ',', 'data-dec': m?.[2] ?? '.', 'data-suffix': m?.[3] ?? '' }
}

export interface TillPageProps {
  ctx: DashContext
  /** The sale on screen; none: the keypad. */
  sale: SaleView | undefined
  /** The sale's QR code (SVG). */
  qr: string | undefined
  amount: string
  note: string
  errors: Record<string, string>
  /** How the page follows a sale: an event stream (Node) or polling the status (Workers). */
  live: 'stream' | 'poll'
  minutes: number
  /** Preset items: each tap adds its price to the amount and counts it in the note. */
  presets: readonly TillPreset[]
  /** PUBLIC_URL's host when customers' phones cannot open it (loopback or private). */
  localHost?: string | undefined
}

export function TillPage(props: TillPageProps) {
  const { ctx, sale } = props
  const t = ctx.t
  const base = sale ? `/dashboard/till/sales/${encodeURIComponent(sale.id)}` : ''
  return (
    <DashLayout ctx={ctx} title={t('tillTitle')} nav="till" script="till">
      <div
        id="till"
        data-state={sale?.state ?? 'keypad'}
        data-sale={sale?.id}
        data-live={props.live}
        data-events-url={sale ? `${base}/events` : undefined}
        data-status-url={sale ? `${base}/status` : undefined}
        {...amountFormat(ctx)}
      >
        {sale ? (
          <SaleScreen
            ctx={ctx}
            sale={sale}
            qr={props.qr ?? ''}
            base={base}
            localHost={props.localHost}
          />
        ) : (
          <Keypad {...props} />
        )}
      </div>
    </DashLayout>
  )
}

function Keypad(props: TillPageProps) {
  const { ctx, errors } = props
  const t = ctx.t
  const keys = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '00', '0']
  return (
    <form method="post" action="/dashboard/till/sales" novalidate>
      <CsrfField ctx={ctx} />
      <h1>{t('tillTitle')}</h1>
      <Field
        id="amount"
        type="text"
        label={t('tillAmount')}
        attrs={{
          name: 'amount',
          class: 'amount',
          inputmode: 'decimal',
          autocomplete: 'off',
          placeholder: formatAmount(0, ctx.lang),
          value: props.amount,
        }}
        error={errors.amount}
      />
      <fieldset class="keypad">
        <legend class="vh">{t('tillKeypad')}</legend>
        <button type="button" class="fn clear" data-key="clear" aria-label={t('tillClear')}>
          C
        </button>
        {keys.map((k) => (
          <button type="button" data-key={k}>
            {k}
          </button>
        ))}
        <button type="button" class="fn" data-key="back" aria-label={t('tillBackspace')}>
          ⌫
        </button>
      </fieldset>
      {props.presets.length > 0 ? (
        <fieldset class="presets">
          <legend>{t('tillPresets')}</legend>
          {props.presets.map((p) => (
            <button type="button" class="preset" data-price={String(p.price)} data-name={p.name}>
              <span dir="auto">{p.name}</span>{' '}
              <span class="price">{formatAmount(p.price, ctx.lang)}</span>{' '}
              <span class="qty" aria-live="polite"></span>
            </button>
          ))}
        </fieldset>
      ) : null}
      <Field
        id="note"
        type="text"
        label={t('tillNote')}
        attrs={{
          name: 'note',
          maxlength: 100,
          autocomplete: 'off',
          value: props.note,
          dir: 'auto',
        }}
        error={errors.note}
      />
      <p class="hint">{t('tillExpiryHint', { n: props.minutes })}</p>
      <button type="submit" class="charge">
        {t('tillCharge')}
      </button>
      <p class="till-links">
        <a href="/dashboard/till/report">{t('tillReportLink')}</a>
        {ctx.permissions?.includes('links.write') ? (
          <a href="/dashboard/till/presets">{t('tillPresetsEdit')}</a>
        ) : null}
      </p>
    </form>
  )
}

function SaleScreen(props: {
  ctx: DashContext
  sale: SaleView
  qr: string
  base: string
  localHost: string | undefined
}) {
  const { ctx, sale, base } = props
  const t = ctx.t
  const cancel = (label: string, cls?: string) => (
    <form method="post" action={`${base}/cancel`} class="inline">
      <CsrfField ctx={ctx} />
      <button type="submit" class={cls}>
        {label}
      </button>
    </form>
  )
  const newSale = (
    <a class="btn" href="/dashboard/till?new">
      {t('tillNewSale')}
    </a>
  )
  return (
    <>
      <h1 class="vh">{t('tillTitle')}</h1>
      <section class="st" data-st="declined" aria-live="assertive">
        <h2 tabindex={-1}>{t('tillDeclined')}</h2>
        <p data-f="failureText">{sale.failureText}</p>
        <p>{t('tillDeclinedRetry')}</p>
      </section>
      <section class="st st-open">
        <LocalUrlWarning ctx={ctx} host={props.localHost} />
        <div class="qr" role="img" aria-label={t('tillQrLabel')}>
          {raw(props.qr)}
        </div>
        <p class="sale-amount" data-f="amountText">
          {sale.amountText}
        </p>
        <p class="sale-url">
          <bdi dir="ltr">{sale.url}</bdi>
        </p>
        {sale.note ? <p dir="auto">{sale.note}</p> : null}
      </section>
      <section class="st" data-st="waiting" aria-live="polite">
        <h2 tabindex={-1}>{t('tillWaiting')}</h2>
      </section>
      <section class="st" data-st="paying" aria-live="polite">
        <h2 tabindex={-1}>{t('tillPaying')}</h2>
      </section>
      <section class="st" data-st="paid" aria-live="assertive">
        <h2 tabindex={-1}>{t('tillPaid')}</h2>
        <p class="sale-amount" data-f="amountText">
          {sale.amountText}
        </p>
        <dl class="sale-facts">
          <dt>{t('tillPaidAt')}</dt>
          <dd data-f="paidAtText">{sale.paidAtText}</dd>
          <dt>{t('tillApprovalCode')}</dt>
          <dd data-f="approvalCode" dir="ltr">
            {sale.approvalCode}
          </dd>
          <dt>{t('tillCustomer')}</dt>
          <dd data-f="customerName" dir="auto">
            {sale.customerName}
          </dd>
        </dl>
      </section>
      <section class="st" data-st="canceled">
        <h2 tabindex={-1}>{t('tillCanceled')}</h2>
      </section>
      <section class="st" data-st="expired">
        <h2 tabindex={-1}>{t('tillExpired')}</h2>
      </section>
      <div class="sale-actions">
        <span class="st st-open">{cancel(t('tillCancel'), 'danger')}</span>
        <span class="st" data-st="paid">
          {newSale}
        </span>
        <span class="st" data-st="canceled">
          {newSale}
        </span>
        <span class="st" data-st="expired">
          {newSale}
        </span>
      </div>
    </>
  )
}
