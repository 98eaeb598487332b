/**
 * Asking before something that cannot be undone (a call that moves money, a restore): `--yes`
 * answers for a script; on a terminal the user types "yes"; with neither, the command refuses.
 */
import { createInterface } from 'node:readline/promises'
import { CliError } from './output.js'

/** Resolves when confirmed; throws a CliError (exit 1) otherwise. */
export async function confirm(question: string, yes: boolean | undefined): Promise<void> {
  if (yes) return
  if (!process.stdin.isTTY)
    throw new CliError(
      `${question}\nNot confirmed: there is no terminal to ask; pass --yes to go ahead.`,
    )
  const rl = createInterface({ input: process.stdin, output: process.stderr })
  try {
    const reply = await rl.question(`${question}\nType "yes" to go ahead: `)
    if (reply.trim().toLowerCase() !== 'yes') throw new CliError('Not confirmed: nothing was done.')
  } finally {
    rl.close()
  }
}
