/**
 * `npm run deploy:worker` first checks the two wrangler files name the same, real D1 database and
 * that the production Worker's binding names the back office (scripts/check-worker-pair.ts); and
 * its `wrangler deploy` commands run without wrangler's warnings.
 */
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { pairProblems } from '../../scripts/check-worker-pair.js'
import { ROOT } from './build.js'

const ID = '7d1b3c52-96a4-4e1f-9f3a-2b8c0d4e5f61'
const production = (id: string) => ({
  name: 'paylinks',
  d1_databases: [{ binding: 'DB', database_name: 'paylinks', database_id: id }],
  services: [{ binding: 'DASHBOARD', service: 'paylinks-dashboard', entrypoint: 'Dashboard' }],
})
const dashboard = (id: string) => ({
  name: 'paylinks-dashboard',
  d1_databases: [{ binding: 'DB', database_name: 'paylinks', database_id: id }],
})

describe('the check before deploying the two Workers', () => {
  it('passes a pair on one real database, with the binding naming the back office', () => {
    expect(pairProblems(production(ID), dashboard(ID))).toEqual([])
  })

  it('refuses the placeholder id, two databases, and a binding to another Worker', () => {
    const zeros = '00000000-0000-0000-0000-000000000000'
    expect(pairProblems(production(zeros), dashboard(zeros)).join('\n')).toContain(
      'wrangler.toml: set database_id',
    )
    const other = pairProblems(production(ID), dashboard('another-id'))
    expect(other).toHaveLength(1)
    expect(other[0]).toContain('wrangler.dashboard.toml: database_id must be')
    const renamed = pairProblems(production(ID), { ...dashboard(ID), name: 'shop-back-office' })
    expect(renamed).toEqual([
      'wrangler.toml: the DASHBOARD service binding must name the back office (service = "shop-back-office", entrypoint = "Dashboard")',
    ])
  })

  it('stops `npm run deploy:worker` on the files as shipped, naming what to set', async () => {
    const run = promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/check-worker-pair.ts'],
      { cwd: ROOT },
    )
    const failure = await run.then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    )
    expect(failure?.code).toBe(1)
    expect(failure?.stderr).toContain('wrangler.toml: set database_id of the DB binding')
    // The shipped pair is otherwise right: one problem only.
    expect(failure?.stderr.trim().split('\n')).toHaveLength(1)
  }, 60_000)
})

describe('npm run deploy:worker', () => {
  it('names the environment of each deploy whose wrangler file has several (no wrangler warning)', () => {
    // wrangler warns "Multiple environments are defined … but no target environment was
    // specified" for `deploy` (and `secret put`) on a file with any [env.…]; `--env ""` names its
    // top level, the deployed Worker.
    const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<
      string,
      string
    >
    const deploys = scripts['deploy:worker']!.split('&&')
      .map((command) => command.trim())
      .filter((command) => command.startsWith('wrangler deploy'))
    expect(deploys).toHaveLength(2)
    for (const command of deploys) {
      const file = /(?:--config|-c)[= ](\S+)/.exec(command)?.[1] ?? 'wrangler.toml'
      const environments = /^\[\[?env\./m.test(readFileSync(join(ROOT, file), 'utf8'))
      if (environments) expect(command, file).toMatch(/(?:--env|-e)[= ]/)
    }
    // As shipped, wrangler.toml has [env.dev]: the check above is not empty.
    expect(deploys.some((command) => command.includes('--env'))).toBe(true)
  })
})
