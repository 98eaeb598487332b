#!/usr/bin/env node
/**
 * `paylinks`: links and payments through the merchant API, backups and the admin token on the
 * local database, the configuration's health, and the gateway from the terminal. Human tables by
 * default, `--json` for scripts; exit code 0 done, 1 failed, 2 wrong usage. No secret is echoed.
 */
import { CommanderError } from 'commander'
import { GatewayError, ValidationError } from '../../../client/index.js'
import { BackupError } from '../backup.js'
import { CliError } from './output.js'
import { buildProgram } from './program.js'

/** What a failure says and its exit code; secrets never reach here (the client redacts its own). */
function failure(error: unknown): { message: string; code: number } {
  if (error instanceof CommanderError) return { message: '', code: error.exitCode === 0 ? 0 : 2 }
  if (error instanceof CliError) return { message: error.message, code: error.exitCode }
  if (error instanceof ValidationError) return { message: error.message, code: 2 }
  if (error instanceof GatewayError || error instanceof BackupError)
    return { message: error.message, code: 1 }
  return { message: `Unexpected error: ${(error as Error)?.stack ?? String(error)}`, code: 1 }
}

/** Runs the command line and sets the exit code. */
export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv)
  } catch (error) {
    const { message, code } = failure(error)
    if (message) process.stderr.write(`paylinks: ${message}\n`)
    process.exitCode = code
  }
}

await main(process.argv)
