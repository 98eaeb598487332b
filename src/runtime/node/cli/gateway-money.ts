/**
 * The gateway calls that move money: phone, internet and game top-ups and bill payments. Each
 * asks for confirmation (or `--yes`), states what it will pay, and is sent once, never retried:
 * a timeout leaves the outcome unknown, and `paylinks gateway operations list` tells.
 */
import type { Command } from 'commander'
import { centimesToDzd } from '../../../lib/money.js'
import { dzdOption } from './amounts.js'
import { confirm } from './confirm.js'
import { gatewayClient } from './gateway-client.js'
import { answer, printRecord } from './output.js'

type Send = (
  client: Awaited<ReturnType<typeof gatewayClient>>,
  body: Record<string, string>,
) => Promise<Record<string, unknown>>

interface MoneyCommand {
  name: string
  description: string
  /** [flags, description, field] of each required option. */
  fields: [string, string, string][]
  optional?: [string, string, string][]
  send: Send
}

const COMMANDS: MoneyCommand[] = [
  {
    name: 'phone',
    description: 'Top up a mobile phone',
    fields: [
      ['--operator <name>', 'djezzy, ooredoo or mobilis', 'operator'],
      ['--offer <kind>', 'prepaid or postpaid', 'offer'],
      ['--phone <number>', 'the 10-digit number', 'phone'],
      ['--amount <dzd>', 'the amount in DZD', 'amount'],
    ],
    send: (c, b) => c.direct.operations.phone(b as never),
  },
  {
    name: 'internet',
    description: 'Top up IDOOM internet (4G or ADSL)',
    fields: [
      ['--offer <offer>', '"IDOOM 4G 1000" or "IDOOM ADSL 2000"', 'offer'],
      ['--phone <number>', 'the line number', 'phone'],
    ],
    optional: [['--amount <dzd>', 'the amount in DZD (the offer names it)', 'amount']],
    send: (c, b) => c.direct.operations.internet(b as never),
  },
  {
    name: 'game',
    description: 'Top up a game account',
    fields: [
      ['--operator <name>', 'freefire or pubg', 'operator'],
      ['--offer <code>', 'an offer code or name', 'offer'],
      ['--player <id>', "the player's id", 'playerId'],
      ['--amount <dzd>', 'the amount in DZD', 'amount'],
    ],
    send: (c, b) => c.direct.operations.game(b as never),
  },
  {
    name: 'bill',
    description: 'Pay a bill (ade, sonelgaz, algerie_telecom)',
    fields: [
      ['--operator <name>', 'ade, sonelgaz or algerie_telecom', 'operator'],
      ['--bill <number>', 'the bill number', 'bill'],
      ['--amount <dzd>', 'the amount in DZD', 'amount'],
    ],
    optional: [
      ['--customer-id <id>', 'sonelgaz: the customer id', 'customerId'],
      ['--ebb <id>', 'sonelgaz: the EBB', 'ebb'],
      ['--phone <number>', 'algerie_telecom: the phone line', 'phone'],
    ],
    send: (c, b) => c.direct.operations.bill(b as never),
  },
]

/** Option name as commander stores it: `--customer-id <id>` → customerId. */
const key = (flags: string) =>
  flags
    .split(' ')[0]!
    .replace(/^--/, '')
    .replace(/-(\w)/g, (_, c: string) => c.toUpperCase())

/** Adds `gateway topup phone|internet|game` and `gateway bill` to the gateway command. */
export function moneyCommands(gateway: Command): void {
  const topup = gateway.command('topup').description('Top-ups (they move money: confirmed first)')
  for (const spec of COMMANDS) {
    const parent = spec.name === 'bill' ? gateway : topup
    const command = parent.command(spec.name).description(`${spec.description} — moves money`)
    for (const [flags, text] of spec.fields) command.requiredOption(flags, text)
    for (const [flags, text] of spec.optional ?? []) command.option(flags, text)
    command.option('-y, --yes', 'do not ask for confirmation')
    command.action(async (options: Record<string, string>, cmd: Command) => {
      const body: Record<string, string> = {}
      for (const [flags, , field] of [...spec.fields, ...(spec.optional ?? [])]) {
        const value = options[key(flags)]
        if (value === undefined) continue
        body[field] = field === 'amount' ? centimesToDzd(dzdOption('--amount', value)) : value
      }
      const what = Object.entries(body)
        .map(([k, v]) => `${k}=${k === 'amount' ? `${v} DZD` : v}`)
        .join(', ')
      const client = await gatewayClient({ moving: true })
      await confirm(`This pays from the merchant account: ${spec.name} ${what}.`, !!options.yes)
      const result = await spec.send(client, body)
      answer(cmd.optsWithGlobals(), result, () => printRecord(result))
    })
  }
}
