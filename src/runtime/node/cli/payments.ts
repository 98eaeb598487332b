/** `paylinks payments list|show|export`, through the merchant API. */
import type { Command } from 'commander'
import type { PaymentObject } from '../../../api/payments/objects.js'
import { csvAmount, csvLine } from '../../../dashboard/csv.js'
import { writePrivateFile } from '../private-files.js'
import { dzdText, shownDzd } from './amounts.js'
import { merchantApi, readPages } from './api-client.js'
import { answer, type Column, printRecord, printTable } from './output.js'
import { wholeNumber } from './parse.js'

// No customer details in the table: a terminal is often shared or recorded (show and export have them).
const COLUMNS: Column<PaymentObject>[] = [
  ['id', (p) => p.id],
  ['created', (p) => p.created_at.replace(/\.\d+Z$/, 'Z')],
  ['link', (p) => p.link_id],
  ['status', (p) => p.status],
  ['amount', (p) => shownDzd(p.amount)],
  ['order', (p) => p.order_number],
]

const EXPORT_HEADER = [
  'created_at',
  'payment_id',
  'link_id',
  'status',
  'amount_dzd',
  'currency',
  'customer_name',
  'customer_phone',
  'customer_email',
  'ref',
  'order_number',
  'order_id',
  'transaction_id',
  'cib_transaction_id',
  'approval_code',
  'failure_code',
  'failure_message',
  'paid_at',
  'receipt_url',
  'source',
  'metadata',
]

/** One payment as a line of the export's CSV (guarded and quoted by csvLine). */
export function exportRow(p: PaymentObject): string {
  return csvLine([
    p.created_at,
    p.id,
    p.link_id,
    p.status,
    csvAmount(dzdText(p.amount)),
    p.currency,
    p.customer.name,
    p.customer.phone,
    p.customer.email,
    p.ref,
    p.order_number,
    p.order_id,
    p.transaction_id,
    p.cib_transaction_id,
    p.approval_code,
    p.failure_code,
    p.failure_message,
    p.paid_at,
    p.receipt_url,
    p.source,
    JSON.stringify(p.metadata),
  ])
}

interface FilterOptions {
  status?: string
  link?: string
  from?: string
  to?: string
  search?: string
  source?: string
  limit: string
}

function filterQuery(o: FilterOptions): URLSearchParams {
  const query = new URLSearchParams()
  if (o.status) query.set('status', o.status)
  if (o.link) query.set('link_id', o.link)
  if (o.from) query.set('from', o.from)
  if (o.to) query.set('to', o.to)
  if (o.search) query.set('q', o.search)
  if (o.source) query.set('source', o.source)
  return query
}

function withFilters(command: Command, limit: string): Command {
  return command
    .option('--status <list>', 'only these statuses, comma-separated (paid,pending,…)')
    .option('--link <id>', 'only payments on this link')
    .option('--from <date>', 'created on or after (2026-01-31, Algiers time, or an instant)')
    .option('--to <date>', 'created on or before (the whole day)')
    .option('--search <text>', 'whose customer, phone, e-mail, order number or ref contains this')
    .option('--source <where>', 'only payments on links made there: dashboard, api or till')
    .option('--limit <n>', 'at most this many', limit)
}

/** Adds the `payments` commands to the program. */
export function paymentCommands(program: Command): void {
  const payments = program.command('payments').description('Payments (merchant API)')

  withFilters(payments.command('list').description('List payments, newest first'), '50').action(
    async (options: FilterOptions, command: Command) => {
      const global = command.optsWithGlobals()
      const max = wholeNumber('--limit', options.limit)
      const items = await readPages<PaymentObject>(
        merchantApi(global),
        '/payments',
        filterQuery(options),
        max,
      )
      answer(global, items, () => printTable(items, COLUMNS))
    },
  )

  payments
    .command('show')
    .description('Show one payment, with the customer details')
    .argument('<id>', 'the payment id')
    .action(async (id: string, _options, command: Command) => {
      const global = command.optsWithGlobals()
      const payment = await merchantApi(global).call<PaymentObject>(
        'GET',
        `/payments/${encodeURIComponent(id)}`,
      )
      answer(global, payment, () => printRecord({ ...payment, amount: shownDzd(payment.amount) }))
    })

  withFilters(
    payments
      .command('export')
      .description('Export payments as CSV (or JSON with --json), with the customer details')
      .option('-o, --output <file>', 'write to this file instead of the terminal'),
    '100000',
  ).action(async (options: FilterOptions & { output?: string }, command: Command) => {
    const global = command.optsWithGlobals()
    const max = wholeNumber('--limit', options.limit)
    const items = await readPages<PaymentObject>(
      merchantApi(global),
      '/payments',
      filterQuery(options),
      max,
    )
    const text = global.json
      ? `${JSON.stringify(items, null, 2)}\n`
      : csvLine(EXPORT_HEADER) + items.map(exportRow).join('')
    if (options.output) {
      // Customer details: 0600 whatever the umask, a file that was there before included.
      writePrivateFile(options.output, text)
      process.stderr.write(`${items.length} payment(s) written to ${options.output}\n`)
    } else process.stdout.write(text)
  })
}
