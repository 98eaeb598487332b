/**
 * Run by `npm run deploy:worker` before it deploys anything: the production Worker (wrangler.toml)
 * and its back office (wrangler.dashboard.toml) must name the same D1 database, and a real one, or
 * the dashboard would show and change another database than the checkout's. Also checks that the
 * production Worker's DASHBOARD binding names the back office.
 *
 *   npx tsx scripts/check-worker-pair.ts [production.toml dashboard.toml]
 *
 * Prints each problem and exits 1; prints nothing and exits 0 when the pair is right.
 */
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { WORKERS } from './worker-configs.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const PLACEHOLDER = '00000000-0000-0000-0000-000000000000'

interface PairConfig {
  name?: string
  d1_databases: { binding: string; database_id?: string; database_name?: string }[]
  services?: { binding: string; service: string; entrypoint?: string }[]
}

/** What is wrong with the pair; empty when nothing is. */
export function pairProblems(production: PairConfig, dashboard: PairConfig): string[] {
  const problems: string[] = []
  const db = (config: PairConfig) => config.d1_databases.find((d) => d.binding === 'DB')
  const [main, back] = [db(production), db(dashboard)]
  if (!main?.database_id || main.database_id === PLACEHOLDER)
    problems.push(
      'wrangler.toml: set database_id of the DB binding to the id `npx wrangler d1 create paylinks` printed',
    )
  if (main?.database_id !== back?.database_id)
    problems.push(
      `wrangler.dashboard.toml: database_id must be wrangler.toml's (${main?.database_id ?? 'none'}), not ${back?.database_id ?? 'none'}: the back office would use another database`,
    )
  const binding = production.services?.find((s) => s.binding === 'DASHBOARD')
  if (!binding || binding.service !== dashboard.name || binding.entrypoint !== 'Dashboard')
    problems.push(
      `wrangler.toml: the DASHBOARD service binding must name the back office (service = "${dashboard.name}", entrypoint = "Dashboard")`,
    )
  return problems
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [productionFile, dashboardFile] = [
    process.argv[2] ?? join(ROOT, WORKERS.production),
    process.argv[3] ?? join(ROOT, WORKERS.dashboard),
  ]
  const { unstable_readConfig } = await import('wrangler')
  const read = (config: string) =>
    unstable_readConfig({ config, env: '' }, { hideWarnings: true }) as PairConfig
  const problems = pairProblems(read(productionFile), read(dashboardFile))
  for (const problem of problems) console.error(problem)
  if (problems.length > 0) process.exitCode = 1
}
