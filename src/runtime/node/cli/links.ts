/** `paylinks links create|list|show|deactivate`, through the merchant API. */
import type { Command } from 'commander'
import type { LinkObject } from '../../../api/links/objects.js'
import { apiDzd, dzdOption, shownDzd } from './amounts.js'
import { merchantApi, readPages } from './api-client.js'
import { answer, CliError, type Column, printRecord, printTable } from './output.js'
import { wholeNumber } from './parse.js'

const COLUMNS: Column<LinkObject>[] = [
  ['id', (l) => l.id],
  ['title', (l) => l.title],
  ['amount', (l) => amountText(l)],
  ['status', (l) => l.status],
  ['paid', (l) => l.paid_count],
  ['paid total', (l) => shownDzd(l.paid_total)],
  ['url', (l) => l.url],
]

function amountText(link: LinkObject): string | null {
  if (link.amount !== null) return shownDzd(link.amount)
  const min = shownDzd(link.amount_min)
  const max = shownDzd(link.amount_max)
  return min || max ? `${min ?? '…'} to ${max ?? '…'}` : 'open'
}

function showLink(link: LinkObject): void {
  printRecord({
    ...link,
    amount: shownDzd(link.amount),
    amount_min: shownDzd(link.amount_min),
    amount_max: shownDzd(link.amount_max),
    paid_total: shownDzd(link.paid_total),
  })
}

interface CreateOptions {
  title: string
  amount?: string
  min?: string
  max?: string
  description?: string
  maxPayments?: string
  expires?: string
  language?: string
  memo?: string
  successUrl?: string
}

/** The create body from the options: amounts in DZD text become the API's DZD numbers. */
function createBody(o: CreateOptions): Record<string, unknown> {
  if (o.amount !== undefined && (o.min !== undefined || o.max !== undefined))
    throw new CliError('--amount is a fixed amount: give it, or --min/--max, not both', 2)
  const body: Record<string, unknown> = { title: o.title }
  if (o.amount !== undefined) body.amount = apiDzd(dzdOption('--amount', o.amount))
  if (o.min !== undefined) body.amount_min = apiDzd(dzdOption('--min', o.min))
  if (o.max !== undefined) body.amount_max = apiDzd(dzdOption('--max', o.max))
  if (o.description !== undefined) body.description = o.description
  if (o.maxPayments !== undefined) body.max_payments = wholeNumber('--max-payments', o.maxPayments)
  if (o.expires !== undefined) body.expires_at = o.expires
  if (o.language !== undefined) body.language = o.language
  if (o.memo !== undefined) body.memo = o.memo
  if (o.successUrl !== undefined) body.success_url = o.successUrl
  return body
}

/** Adds the `links` commands to the program. */
export function linkCommands(program: Command): void {
  const links = program.command('links').description('Payment links (merchant API)')

  links
    .command('create')
    .description('Create a payment link')
    .requiredOption('--title <text>', 'what the customer pays for')
    .option(
      '--amount <dzd>',
      'a fixed amount in DZD (e.g. 1500 or 1299.50); none: the customer types it',
    )
    .option('--min <dzd>', 'the least an open amount may be, in DZD')
    .option('--max <dzd>', 'the most an open amount may be, in DZD')
    .option('--description <text>', 'shown under the title')
    .option('--max-payments <n>', 'how many payments the link takes')
    .option('--expires <iso>', 'when it stops, ISO 8601 with a time zone')
    .option('--language <ar|fr|en>', "the payment page's language")
    .option('--memo <text>', 'the memo of the ledger transaction')
    .option('--success-url <url>', 'where the customer goes once paid')
    .action(async (options: CreateOptions, command: Command) => {
      const global = command.optsWithGlobals()
      const link = await merchantApi(global).call<LinkObject>('POST', '/links', createBody(options))
      answer(global, link, () => showLink(link))
    })

  links
    .command('list')
    .description('List links, newest first')
    .option('--active', 'only links switched on')
    .option('--inactive', 'only links switched off')
    .option('--limit <n>', 'at most this many', '50')
    .action(async (options, command: Command) => {
      const global = command.optsWithGlobals()
      if (options.active && options.inactive)
        throw new CliError('--active and --inactive exclude each other', 2)
      const query = new URLSearchParams()
      if (options.active || options.inactive) query.set('active', String(!!options.active))
      const max = wholeNumber('--limit', options.limit)
      const items = await readPages<LinkObject>(merchantApi(global), '/links', query, max)
      answer(global, items, () => printTable(items, COLUMNS))
    })

  links
    .command('show')
    .description('Show one link')
    .argument('<id>', 'the link id')
    .action(async (id: string, _options, command: Command) => {
      const global = command.optsWithGlobals()
      const link = await merchantApi(global).call<LinkObject>(
        'GET',
        `/links/${encodeURIComponent(id)}`,
      )
      answer(global, link, () => showLink(link))
    })

  links
    .command('deactivate')
    .description('Switch a link off: it takes no more payments (its history stays)')
    .argument('<id>', 'the link id')
    .action(async (id: string, _options, command: Command) => {
      const global = command.optsWithGlobals()
      const link = await merchantApi(global).call<LinkObject>(
        'PATCH',
        `/links/${encodeURIComponent(id)}`,
        { active: false },
      )
      answer(global, link, () => process.stdout.write(`Link ${link.id} is switched off.\n`))
    })
}
