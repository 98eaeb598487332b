/** The benchmark table (markdown) and the machine it ran on. */
import { readFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'

export interface Row {
  what: string
  result: string
  p50?: number | undefined
  p99?: number | undefined
  /** CPU per request, µs: the server process's and the load generator's (autocannon). */
  cpu?: { server: number; client: number } | undefined
  /** Against bare Hono, when it is compared. */
  ratio?: number | undefined
  goal?: string | undefined
}

export interface Machine {
  date: string
  node: string
  cpu: string
  cores: number
  memory: string
  load: string
}

/** Date, Node version, CPU model, cores, memory and load average now. */
export function machine(): Machine {
  let cpu = cpus()[0]?.model ?? 'unknown'
  try {
    const info = readFileSync('/proc/cpuinfo', 'utf8')
    cpu = /^model name\s*:\s*(.+)$/m.exec(info)?.[1]?.trim() ?? cpu
  } catch {
    // Not Linux: os.cpus() has the model too.
  }
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    node: process.version,
    cpu,
    cores: cpus().length,
    memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    load: loadavg()
      .map((l) => l.toFixed(2))
      .join(' / '),
  }
}

export const perSecond = (n: number, unit = 'req/s') =>
  `${Math.round(n).toLocaleString('en-US')} ${unit}`
export const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`
export const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`
const ms = (v: number | undefined) =>
  v === undefined || Number.isNaN(v) ? '' : `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms`

const cpuUs = (v: number) => `${v < 100 ? v.toFixed(1) : Math.round(v)} µs`

/** CPU µs per request of a load run, when it was recorded. */
export function cpuPerRequest(r: {
  requests: number
  cpu?: { server: number; client: number } | undefined
}): Row['cpu'] {
  if (!r.cpu || r.requests === 0) return undefined
  return { server: (r.cpu.server * 1e6) / r.requests, client: (r.cpu.client * 1e6) / r.requests }
}

/** The one table, in markdown. */
export function table(rows: Row[]): string {
  const lines = [
    '| Measurement | Result | p50 | p99 | CPU per request: server / autocannon | vs bare Hono | Goal |',
    '|---|---|--:|--:|--:|--:|---|',
  ]
  for (const row of rows) {
    const ratio = row.ratio === undefined ? '' : row.ratio.toFixed(3)
    const cpu = row.cpu ? `${cpuUs(row.cpu.server)} / ${cpuUs(row.cpu.client)}` : ''
    lines.push(
      `| ${row.what} | ${row.result} | ${ms(row.p50)} | ${ms(row.p99)} | ${cpu} | ${ratio} | ${row.goal ?? ''} |`,
    )
  }
  return lines.join('\n')
}

/** Whether a ratio reaches its goal, for the Goal column. */
export function verdict(ratio: number, goal: number): string {
  return `≥ ${goal}: ${ratio >= goal ? 'met' : '**not met**'}`
}

/** The whole docs/benchmarks.md. */
export function document(
  m: Machine,
  loadAfter: string,
  body: string,
  findings: string[],
  notes: string[],
): string {
  return [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (bench/run.ts); run it again to refresh this page.',
    '',
    `- Date: ${m.date}`,
    `- Node: ${m.node}`,
    `- CPU: ${m.cpu}, ${m.cores} cores; memory ${m.memory}`,
    `- Load average (1/5/15 min) at start: ${m.load}; at end: ${loadAfter}`,
    '',
    body,
    '',
    '## What the numbers say',
    '',
    ...findings.flatMap((f) => [f, '']),
    '## How it is measured',
    '',
    ...notes.map((n) => `- ${n}`),
    '',
  ].join('\n')
}
