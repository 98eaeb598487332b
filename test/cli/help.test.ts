import type { Command } from 'commander'
import { describe, expect, it } from 'vitest'
import { buildProgram } from '../../src/runtime/node/cli/program.js'

/** Every command of the tree, with its full name (`links create`). */
function walk(command: Command, prefix = ''): [string, Command][] {
  return command.commands.flatMap((sub) => {
    const name = `${prefix}${sub.name()}`
    return [[name, sub] as [string, Command], ...walk(sub, `${name} `)]
  })
}

describe('paylinks --help', () => {
  const commands = walk(buildProgram())

  it('has the commands the issue lists', () => {
    const names = commands.map(([name]) => name)
    for (const name of [
      'links create',
      'links list',
      'links show',
      'links deactivate',
      'payments list',
      'payments show',
      'payments export',
      'backup',
      'restore',
      'token rotate',
      'doctor',
      'gateway operations list',
      'gateway operations show',
      'gateway products',
      'gateway invoices list',
      'gateway invoices create',
      'gateway card check',
      'gateway topup phone',
      'gateway topup internet',
      'gateway topup game',
      'gateway bill',
    ])
      expect(names).toContain(name)
  })

  it('describes every command and shows --json, --url and --token in its help', () => {
    for (const [name, command] of commands) {
      expect(command.description(), name).not.toBe('')
      const help = command.helpInformation()
      expect(help, name).toContain('--json')
      expect(help, name).toContain('--token')
    }
  })

  it('offers --yes on every call that moves money', () => {
    for (const [name, command] of commands.filter(([n]) => /^gateway (topup \w+|bill)$/.test(n)))
      expect(
        command.options.map((o) => o.long),
        name,
      ).toContain('--yes')
  })
})
