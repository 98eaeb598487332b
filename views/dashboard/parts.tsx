import type { Child } from 'hono/jsx'
import type { Link, PaymentStatus } from '../../db/schema.js'
import type { DashKey } from '../../src/dashboard/messages.js'
import type { LinkStatus } from '../../src/domain/link-status.js'
import { formatAmount } from '../../src/i18n/index.js'
import { Field } from '../field.js'
import type { DashContext } from './layout.js'

const LINK_STATUS_KEYS: Record<LinkStatus, DashKey> = {
  active: 'statusActive',
  inactive: 'statusInactive',
  expired: 'statusExpired',
  completed: 'statusCompleted',
}

const PAYMENT_STATUS_KEYS: Record<PaymentStatus, DashKey> = {
  initiated: 'paymentInitiated',
  pending: 'paymentPending',
  paid: 'paymentPaid',
  failed: 'paymentFailed',
  canceled: 'paymentCanceled',
  expired: 'paymentExpired',
  error: 'paymentError',
}

/** A link's state as a coloured label. */
export function LinkStatusBadge(props: { ctx: DashContext; status: LinkStatus }) {
  return (
    <span class={`badge ${props.status}`} data-status={props.status}>
      {props.ctx.t(LINK_STATUS_KEYS[props.status])}
    </span>
  )
}

/** The label of a payment state in the page's language. */
export function paymentStatusLabel(ctx: DashContext, status: PaymentStatus): string {
  return ctx.t(PAYMENT_STATUS_KEYS[status])
}

/** A payment's state as a coloured label. */
export function PaymentStatusBadge(props: { ctx: DashContext; status: PaymentStatus }) {
  return (
    <span class={`badge ${props.status}`} data-status={props.status}>
      {paymentStatusLabel(props.ctx, props.status)}
    </span>
  )
}

/**
 * The mark of a payment confirmed paid after the link's `max_payments` were already paid: the
 * money was taken, so the merchant must deliver or refund. Nothing for any other payment.
 */
export function BeyondMaxPaymentsMark(props: { ctx: DashContext; beyond: boolean }) {
  if (!props.beyond) return null
  const t = props.ctx.t
  return (
    <span class="badge beyond" data-flag="beyond-max-payments" title={t('beyondMaxPaymentsHint')}>
      {t('beyondMaxPayments')}
    </span>
  )
}

/** A link's price as a merchant reads it: the amount, or the open range. */
export function linkAmountText(
  ctx: DashContext,
  link: Pick<Link, 'amount' | 'amountMin' | 'amountMax'>,
): string {
  if (link.amount !== null) return formatAmount(link.amount, ctx.lang)
  const min = formatAmount(link.amountMin ?? 5000, ctx.lang)
  return link.amountMax === null
    ? ctx.t('amountFrom', { min })
    : ctx.t('amountRange', { min, max: formatAmount(link.amountMax, ctx.lang) })
}

/** A new password's field (name "password"), with the rules it must meet and its error. */
export function NewPasswordField(props: {
  ctx: DashContext
  label: string
  error: string | undefined
}) {
  return (
    <Field
      id="password"
      label={props.label}
      type="password"
      attrs={{
        name: 'password',
        class: 'ltr',
        autocomplete: 'new-password',
        maxlength: 1024,
        required: true,
      }}
      hint={props.ctx.t('pwRules')}
      hintFirst
      error={props.error}
    />
  )
}

/** A filter form's last parts: the days from and to (inclusive), and the button that applies it. */
export function DateRangeAndApply(props: { ctx: DashContext; from: string; to: string }) {
  const t = props.ctx.t
  return (
    <>
      <Field
        id="f-from"
        label={t('filterFrom')}
        type="date"
        attrs={{ name: 'from', value: props.from }}
        wrap
      />
      <Field
        id="f-to"
        label={t('filterTo')}
        type="date"
        attrs={{ name: 'to', value: props.to }}
        wrap
      />
      <button type="submit" class="small">
        {t('applyFilters')}
      </button>
    </>
  )
}

/** A notice after a change (created, saved, deactivated). */
export function Notice(props: { text: string | undefined; kind?: 'ok' | 'error' }) {
  if (!props.text) return null
  return (
    <p class={props.kind === 'error' ? 'alert' : 'alert ok'} role="status">
      {props.text}
    </p>
  )
}

/** A column of a StackTable: its heading, and whether it holds numbers (aligned to the end). */
export interface Column {
  label: string
  num?: boolean
}

/**
 * The dashboard's one table pattern, for every list of rows: an ordinary table on wide screens;
 * below 48rem each row becomes a card whose cells show their column's name (styles.ts,
 * `table.stack`). Write the rows with `Cell`, giving each the label of its column (a cell with no
 * label, such as a link that names itself, shows its value alone). Tables written by hand get the
 * same behaviour from `<div class="table-wrap"><table class="stack">` and `<td data-label=…>`.
 */
export function StackTable(props: { columns: Column[]; children: Child }) {
  return (
    <div class="table-wrap">
      <table class="stack">
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th scope="col" class={column.num ? 'num' : undefined}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  )
}

/** A StackTable cell: `label` is its column's heading; `wide` spans the whole card on a phone. */
export function Cell(props: {
  label: string
  num?: boolean
  wide?: boolean
  class?: string
  children?: Child
  [data: `data-${string}`]: string | undefined
}) {
  const { label, num, wide, class: extra, children, ...data } = props
  const classes = [num ? 'num' : '', wide ? 'wide' : '', extra ?? ''].filter(Boolean).join(' ')
  return (
    <td data-label={label} class={classes || undefined} {...data}>
      {children}
    </td>
  )
}
