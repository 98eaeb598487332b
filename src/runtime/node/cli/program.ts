/** The `paylinks` command tree (commander), without running it: main.ts runs it, tests read it. */
import { Command } from 'commander'
import { databaseCommands } from './database.js'
import { doctorCommand } from './doctor.js'
import { gatewayCommands } from './gateway.js'
import { linkCommands } from './links.js'
import { paymentCommands } from './payments.js'

/** The whole command tree; `main` runs it. */
export function buildProgram(): Command {
  const program = new Command('paylinks')
    .description('Paylinks from the terminal')
    .option('--json', 'answer in JSON, for scripts')
    .option('--url <url>', 'the Paylinks address for links and payments (default: PAYLINKS_URL)')
    .option(
      '--token <token>',
      'the admin token (default: PAYLINKS_TOKEN; prefer the variable: arguments show in the process list)',
    )
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError('(add --help for usage)')
    .exitOverride()
  linkCommands(program)
  paymentCommands(program)
  databaseCommands(program)
  doctorCommand(program)
  gatewayCommands(program)
  return program
}
