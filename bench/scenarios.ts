/**
 * The measurements against running servers: each answers rows for the report. Paylinks runs in
 * a child process (bench/server.ts); autocannon runs here, in the parent.
 */
import { createPrivateKey, sign } from 'node:crypto'
import { SIMULATOR_PRIVATE_KEY_PEM } from '../src/simulator/index.js'
import type { BenchServer } from './child.js'
import { CLIENT_HEADER } from './constants.js'
import { type LoadResult, load } from './load.js'

export interface Timing {
  seconds: number
  connections: number
  /** A 1 s run first (default); off for the later rounds of an interleaved measurement. */
  warmUp?: boolean
}

const CUSTOMER = {
  name: 'Amina Benali',
  phone: '0550123456',
  email: 'amina@example.dz',
  terms: 'yes',
}

/** CPU seconds from a `process.cpuUsage()` difference. */
const cpuSeconds = (before: NodeJS.CpuUsage, after: NodeJS.CpuUsage) =>
  (after.user - before.user + after.system - before.system) / 1e6

/**
 * A short run first so the JIT and the SQLite page cache are warm for the measured one. The
 * measured run also records the CPU time the server process and this one (autocannon) spent.
 */
async function measured(
  server: BenchServer,
  options: Parameters<typeof load>[0],
  t: Timing,
): Promise<LoadResult> {
  if (t.warmUp !== false) await load({ ...options, duration: 1, connections: t.connections })
  const serverBefore = (await server.call('cpu')) as NodeJS.CpuUsage
  const clientBefore = process.cpuUsage()
  const result = await load({ ...options, duration: t.seconds, connections: t.connections })
  const client = cpuSeconds(clientBefore, process.cpuUsage())
  const serverAfter = (await server.call('cpu')) as NodeJS.CpuUsage
  return { ...result, cpu: { server: cpuSeconds(serverBefore, serverAfter), client } }
}

/** Bare Hono's `GET /`: the baseline. */
export function bareHello(bare: BenchServer, t: Timing) {
  return measured(bare, { url: bare.url, path: '/' }, t)
}

/** What a phone's browser sends with a page request, beyond what autocannon sends by itself. */
export const PHONE_HEADERS = {
  'accept-encoding': 'gzip, deflate, br',
  'accept-language': 'fr-DZ,fr;q=0.9,ar;q=0.8',
}

/** `GET /l/:slug`: the checkout page of a fixed-amount link (as autocannon asks, or as a phone). */
export function checkoutPage(
  paylinks: BenchServer,
  slug: string,
  t: Timing,
  headers?: Record<string, string>,
) {
  return measured(
    paylinks,
    { url: paylinks.url, path: `/l/${slug}`, ...(headers ? { headers } : {}) },
    t,
  )
}

/** Any `GET` path. */
export function measuredPath(server: BenchServer, path: string, t: Timing) {
  return measured(server, { url: server.url, path }, t)
}

/** Reads the CSRF token from a checkout page. */
export async function csrfFor(paylinks: BenchServer, slug: string): Promise<string> {
  const html = await (await fetch(`${paylinks.url}/l/${slug}`)).text()
  const token = /name="csrf" value="([^"]+)"/.exec(html)?.[1]
  if (!token) throw new Error('no CSRF token on the checkout page')
  return token
}

/**
 * `POST /l/:slug`: payment row, `make-cib-transaction` on the built-in simulator (in the server
 * process, through the gateway client), `pending`, 303. Each request stands for a new customer
 * (its own client address for the rate limiter), with a form token fetched once.
 */
export async function checkoutSubmit(paylinks: BenchServer, slug: string, t: Timing) {
  const csrf = await csrfFor(paylinks, slug)
  let client = 0
  const options = {
    url: paylinks.url,
    method: 'POST' as const,
    path: `/l/${slug}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...CUSTOMER, csrf }).toString(),
    each: () => ({ headers: { [CLIENT_HEADER]: `customer-${++client}` } }),
  }
  return measured(paylinks, options, t)
}

/**
 * Signed `cib.payment.updated` bodies for the payments the simulator approved, each a new inbox
 * row. Paylinks keys a delivery by its signed pair and its transaction (a change of an unsigned
 * field is the same event again), so beside each payment's own event the bench signs further
 * messages with the simulator's key and pairs each with every payment: as many distinct signed
 * events as bodies, the signature verified every time.
 */
export function webhookBodies(payloads: Record<string, unknown>[], count: number): string[] {
  if (payloads.length === 0) throw new Error('no approved payment to send webhooks for')
  const key = createPrivateKey(SIMULATOR_PRIVATE_KEY_PEM)
  // Signed once per text: the payloads of one amount and outcome share their `message`.
  const pairs = new Map<string, { message: string; signature: string }>()
  const pairFor = (payload: Record<string, unknown>, round: number) => {
    if (round === 0) return { message: payload.message, signature: payload.signature }
    const message = `${payload.message}/${round}`
    let pair = pairs.get(message)
    if (!pair) {
      const signature = sign('sha256', Buffer.from(message), key).toString('base64url')
      pair = { message, signature }
      pairs.set(message, pair)
    }
    return pair
  }
  return Array.from({ length: count }, (_, i) => {
    const payload = payloads[i % payloads.length] as Record<string, unknown>
    return JSON.stringify({ ...payload, ...pairFor(payload, Math.floor(i / payloads.length)) })
  })
}

/** `POST /webhooks/gateway`: parse, verify the RSA signature, write the inbox row, 200. */
export function webhooks(
  server: BenchServer,
  bodies: string[],
  t: Timing,
  path = '/webhooks/gateway',
  cursor = { i: 0 },
) {
  // The cursor carries over between rounds, so every delivery stays a new one.
  const next = () => ({ body: bodies[cursor.i++ % bodies.length] as string })
  return measured(
    server,
    {
      url: server.url,
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json' },
      each: next,
    },
    t,
  )
}

/**
 * Exactly `count` deliveries from the cursor (no warm-up run), then `settle`: the rate and the CPU
 * run until the server has also finished what it does after its 200s (Paylinks: each payment's
 * confirmation through the check endpoint), so that work is counted rather than left between
 * measurements.
 */
export async function webhooksUntilSettled(
  server: BenchServer,
  bodies: string[],
  count: number,
  path: string,
  cursor: { i: number },
  settle: () => Promise<unknown> = async () => {},
): Promise<LoadResult> {
  const next = () => ({ body: bodies[cursor.i++ % bodies.length] as string })
  const serverBefore = (await server.call('cpu')) as NodeJS.CpuUsage
  const clientBefore = process.cpuUsage()
  const options = { url: server.url, method: 'POST' as const, path, each: next }
  const result = await load({
    ...options,
    headers: { 'content-type': 'application/json' },
    amount: count,
    connections: 10,
  })
  // From the first request to the last answer (autocannon notices the end up to a second
  // later), plus the time the server still needs to settle.
  const settling = performance.now()
  await settle()
  const seconds = (result.activeSeconds ?? 0) + (performance.now() - settling) / 1000
  const client = cpuSeconds(clientBefore, process.cpuUsage())
  const serverAfter = (await server.call('cpu')) as NodeJS.CpuUsage
  const cpu = { server: cpuSeconds(serverBefore, serverAfter), client }
  return { ...result, rps: result.requests / seconds, cpu }
}

/** QR of a link: `cold` cycles over more links than the cache holds, so every request renders. */
export function qr(
  paylinks: BenchServer,
  slugs: string[],
  format: 'svg' | 'png',
  cold: boolean,
  t: Timing,
) {
  let i = 0
  const first = slugs[0] as string
  return measured(
    paylinks,
    {
      url: paylinks.url,
      path: `/l/${first}/qr.${format}`,
      each: () => ({ path: `/l/${cold ? slugs[i++ % slugs.length] : first}/qr.${format}` }),
    },
    t,
  )
}

/** Rounds of several measurements taken in turn, and what they add up to. */
export interface Interleaved<K extends string> {
  /** Per measurement: requests and failures summed; rate the mean; p50 and p99 the medians. */
  combined: Record<K, LoadResult>
  /** The median over rounds of `name`'s rate over `base`'s in the same round. */
  ratio(name: K, base: K): number
  /** Those per-round ratios, in round order. */
  ratios(name: K, base: K): number[]
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

/**
 * Runs each measurement for `t.seconds / rounds` in turn, `rounds` times: on a shared machine the
 * speed drifts over seconds, and a baseline taken in the same round as what it is compared with
 * drifts with it. Every other round runs them in the reverse order, so that neither what is
 * measured nor its baseline always comes first (a drift within a round, or what one leaves to the
 * next, weighs on both alike). `after` runs after each measurement, outside of it (to let a
 * server finish what it does after answering, so that it does not run during the next
 * measurement).
 */
export async function interleaved<K extends string>(
  rounds: number,
  t: Timing,
  scenarios: Record<K, (t: Timing) => Promise<LoadResult>>,
  after: () => Promise<unknown> = async () => {},
): Promise<Interleaved<K>> {
  const names = Object.keys(scenarios) as K[]
  const results = Object.fromEntries(names.map((n) => [n, [] as LoadResult[]])) as Record<
    K,
    LoadResult[]
  >
  const seconds = Math.max(1, t.seconds / rounds)
  for (let r = 0; r < rounds; r++) {
    for (const name of r % 2 === 0 ? names : [...names].reverse()) {
      results[name].push(await scenarios[name]({ ...t, seconds, warmUp: r === 0 }))
      await after()
    }
  }
  const combined = Object.fromEntries(
    names.map((name) => {
      const all = results[name]
      const statuses: Record<string, number> = {}
      for (const one of all)
        for (const [code, n] of Object.entries(one.statuses))
          statuses[code] = (statuses[code] ?? 0) + n
      return [
        name,
        {
          requests: all.reduce((sum, one) => sum + one.requests, 0),
          rps: all.reduce((sum, one) => sum + one.rps, 0) / all.length,
          p50: median(all.map((one) => one.p50)),
          p99: median(all.map((one) => one.p99)),
          bad: all.reduce((sum, one) => sum + one.bad, 0),
          statuses,
          cpu: {
            server: all.reduce((sum, one) => sum + (one.cpu?.server ?? 0), 0),
            client: all.reduce((sum, one) => sum + (one.cpu?.client ?? 0), 0),
          },
        } satisfies LoadResult,
      ]
    }),
  ) as Record<K, LoadResult>
  const ratios = (name: K, base: K) =>
    results[name].map((one, i) => one.rps / (results[base][i] as LoadResult).rps)
  return { combined, ratio: (name, base) => median(ratios(name, base)), ratios }
}
