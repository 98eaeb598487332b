/**
 * `paylinks gateway …`: the typed gateway client from the terminal — operations history and
 * detail, products, invoices, card check (reads), and the top-ups and bills (gateway-money.ts).
 */
import type { Command } from 'commander'
import type { Operation } from '../../../client/index.js'
import { centimesToDzd } from '../../../lib/money.js'
import { dzdOption } from './amounts.js'
import { gatewayClient } from './gateway-client.js'
import { moneyCommands } from './gateway-money.js'
import { answer, CliError, printRecord, printTable } from './output.js'
import { wholeNumber } from './parse.js'

const global = (command: Command) => command.optsWithGlobals()

/** `desc:quantity:unit_price` (DZD) as an invoice item. */
function invoiceItem(text: string, items: unknown[] = []): unknown[] {
  const match = /^(.+):(\d+):([\d.]+)$/.exec(text)
  if (!match)
    throw new CliError('--item must be description:quantity:unit_price, e.g. "Box:2:1500"', 2)
  const price = dzdOption('--item unit_price', match[3]!)
  return [
    ...items,
    { description: match[1], quantity: Number(match[2]), unit_price: centimesToDzd(price) },
  ]
}

/** Adds `gateway` and its commands to the program. */
export function gatewayCommands(program: Command): void {
  const gateway = program
    .command('gateway')
    .description('The payment gateway, with the configured credentials (GATEWAY_* settings)')

  const operations = gateway
    .command('operations')
    .description('Top-ups and bills made on the account')
  operations
    .command('list')
    .description('The operations history, newest first')
    .option('--limit <n>', 'how many', '20')
    .option('--offset <n>', 'how many to skip', '0')
    .action(async (options: { limit: string; offset: string }, command: Command) => {
      const offset = /^\d{1,9}$/.test(options.offset) ? Number(options.offset) : NaN
      if (Number.isNaN(offset)) throw new CliError('--offset must be a whole number', 2)
      const client = await gatewayClient()
      const history = await client.direct.operations.history({
        limit: wholeNumber('--limit', options.limit),
        offset,
      })
      const ops = history.data.operations
      answer(global(command), history, () =>
        printTable<Operation>(ops, [
          ['id', (o) => o.id],
          ['created', (o) => o.created_at],
          ['type', (o) => o.operation_type],
          ['operator', (o) => o.operator],
          ['amount', (o) => (o.amount === undefined ? null : `${o.amount} DZD`)],
          ['status', (o) => o.status],
        ]),
      )
    })
  operations
    .command('show')
    .description('One operation in detail')
    .argument('<id>', 'the operation id')
    .action(async (id: string, _o, command: Command) => {
      const detail = await (await gatewayClient()).direct.operations.get(id)
      answer(global(command), detail, () => printRecord(detail))
    })

  gateway
    .command('products')
    .description("The gateway's product catalogue")
    .option('--search <text>', 'only products matching this')
    .action(async (options: { search?: string }, command: Command) => {
      const client = await gatewayClient()
      const list = await client.direct.products.list(
        options.search ? { search: options.search } : {},
      )
      answer(global(command), list, () =>
        printTable(list.products, [
          ['name', (p) => p.name],
          ['price', (p) => p.price],
        ]),
      )
    })

  const invoices = gateway.command('invoices').description('Merchant invoices on the gateway')
  invoices
    .command('list')
    .description('List invoices')
    .action(async (_o, command: Command) => {
      const list = await (await gatewayClient()).direct.invoices.list()
      answer(global(command), list, () =>
        process.stdout.write(`${JSON.stringify(list, null, 2)}\n`),
      )
    })
  invoices
    .command('create')
    .description('Create an invoice (it asks the customer for money; it moves none by itself)')
    .requiredOption('--amount <dzd>', 'the total in DZD')
    .option('--item <desc:qty:price>', 'an item (repeat the option for several)', invoiceItem)
    .action(async (options: { amount: string; item?: unknown[] }, command: Command) => {
      const amount = centimesToDzd(dzdOption('--amount', options.amount))
      const client = await gatewayClient()
      const result = await client.direct.invoices.create({
        amount,
        ...(options.item ? { items: options.item as never } : {}),
      })
      answer(global(command), result, () => printRecord({ ...result }))
    })

  const card = gateway.command('card').description('Card payments')
  card
    .command('check')
    .description('Check a card payment by its cib_transaction_id')
    .argument('<cib-transaction-id>', 'the id the card network gave')
    .option('--amount <dzd>', 'the amount expected')
    .option('--account <G…>', 'the account expected to receive it')
    .action(
      async (id: string, options: { amount?: string; account?: string }, command: Command) => {
        const expect = {
          ...(options.amount ? { amount: dzdOption('--amount', options.amount) } : {}),
          ...(options.account ? { account: options.account } : {}),
        }
        const result = await (await gatewayClient()).card.check(id, expect)
        answer(global(command), result, () => {
          const { raw: _raw, amount, ...shown } = result
          printRecord({ ...shown, amount: amount === null ? null : `${centimesToDzd(amount)} DZD` })
        })
      },
    )

  moneyCommands(gateway)
}
