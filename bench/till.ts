/**
 * The till's live outcome: from the moment Paylinks stores a payment as paid (its `paid_at`, set
 * by the check endpoint's confirmation) to the moment the till learns it — on the event stream
 * Node serves, and by polling the status every second as the page does where no stream is
 * (Workers). Each sample is a real sale: a till link charged through the dashboard, a customer's
 * checkout, the simulator's approval with its signed webhook, the confirmation. Both ends read the
 * same machine's clock.
 *
 * Run alone with `npx tsx bench/till.ts` (prints its rows); `tillRows` gives them to bench/run.ts.
 */
import { fileURLToPath } from 'node:url'
import { type BenchServer, startServer } from './child.js'
import { BENCH_ADMIN_TOKEN, CLIENT_HEADER } from './constants.js'
import { type Row, table } from './report.js'

/** What the rows measure, for the notes of docs/benchmarks.md. */
export const TILL_NOTE =
  "Till: each sample is a sale charged through the dashboard (`POST /dashboard/till/sales`), a customer's checkout and the simulator's approval with its signed webhook; the time runs from the payment's stored `paid_at` (set by the check endpoint's confirmation) to the moment the till's client reads `paid`: on the sale's event stream (Node), or by polling its status every second as the page does on Workers, the customer paying at a random point of the interval. Both ends read one machine's clock."

/** The till must show the outcome within this long of the confirmation. */
export const TILL_GOAL_MS = 2_000
const POLL_EVERY_MS = 1_000

type Status = { state: string; paidAt: number | null }

/** A signed-in dashboard session (the admin token's), as cookies. */
async function signIn(url: string): Promise<string> {
  const page = await fetch(`${url}/dashboard/login`)
  const jar = page.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? ''
  const res = await fetch(`${url}/dashboard/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar },
    body: new URLSearchParams({ token: BENCH_ADMIN_TOKEN, _csrf: csrf }),
    redirect: 'manual',
  })
  if (res.status !== 303) throw new Error(`login answered ${res.status}`)
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
}

/** Charges 1,250.50 DA at the till; answers the sale's id and its link's URL. */
async function charge(url: string, cookie: string): Promise<{ id: string; link: string }> {
  const till = await (await fetch(`${url}/dashboard/till?new`, { headers: { cookie } })).text()
  const csrf = /name="_csrf" value="([^"]+)"/.exec(till)?.[1] ?? ''
  const res = await fetch(`${url}/dashboard/till/sales`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ amount: '1250.50', note: '', _csrf: csrf }),
    redirect: 'manual',
  })
  const id = new URL(res.headers.get('location') ?? '', url).searchParams.get('sale')
  if (res.status !== 303 || !id) throw new Error(`charge answered ${res.status}`)
  return { id, link: (await status(url, cookie, id)).url }
}

async function status(url: string, cookie: string, id: string) {
  const res = await fetch(`${url}/dashboard/till/sales/${id}/status`, { headers: { cookie } })
  return (await res.json()) as Status & { url: string }
}

/** A customer's checkout on the sale's link; answers the simulator's order id. */
async function checkout(link: string, customer: number): Promise<string> {
  const html = await (await fetch(link)).text()
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? ''
  const res = await fetch(link, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      [CLIENT_HEADER]: `till-${customer}`,
    },
    body: new URLSearchParams({
      name: 'Amina Benali',
      phone: '0550123456',
      email: 'amina@example.dz',
      terms: 'yes',
      csrf,
    }),
    redirect: 'manual',
  })
  const orderId = (res.headers.get('location') ?? '').split('/').pop()
  if (res.status !== 303 || !orderId) throw new Error(`checkout answered ${res.status}`)
  return orderId
}

/** Reads the sale's event stream until it says paid; answers when (ms since the epoch). */
async function paidOnStream(url: string, cookie: string, id: string, start: () => Promise<void>) {
  const res = await fetch(`${url}/dashboard/till/sales/${id}/events`, { headers: { cookie } })
  if (!res.body) throw new Error('no event stream')
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  let started = false
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) throw new Error('the stream ended before the sale was paid')
      buffer += value
      let end = buffer.indexOf('\n\n')
      while (end >= 0) {
        const data = /^data: (.*)$/m.exec(buffer.slice(0, end))?.[1]
        buffer = buffer.slice(end + 2)
        if (data && (JSON.parse(data) as Status).state === 'paid') return Date.now()
        end = buffer.indexOf('\n\n')
      }
      if (!started) {
        started = true
        await start()
      }
    }
  } finally {
    await reader.cancel().catch(() => {})
  }
}

/** Polls the status every second, as the page does without a stream, until it says paid. */
async function paidByPolling(url: string, cookie: string, id: string, start: () => Promise<void>) {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
  // The customer pays whenever they do: at a random point of the till's polling interval.
  const paying = sleep(Math.random() * POLL_EVERY_MS).then(start)
  try {
    for (;;) {
      if ((await status(url, cookie, id)).state === 'paid') return Date.now()
      await sleep(POLL_EVERY_MS)
    }
  } finally {
    await paying
  }
}

export interface TillLatency {
  stream: number[]
  poll: number[]
}

/** `samples` sales each way: confirmation (paid_at) → the till knows, in ms. */
export async function tillLatency(paylinks: BenchServer, samples = 20): Promise<TillLatency> {
  const url = paylinks.url
  const cookie = await signIn(url)
  const out: TillLatency = { stream: [], poll: [] }
  let customer = 0
  for (const mode of ['stream', 'poll'] as const) {
    for (let i = 0; i < samples; i++) {
      const sale = await charge(url, cookie)
      const pay = async () => {
        const orderId = await checkout(sale.link, ++customer)
        await paylinks.call('approve', { orderId })
      }
      const seen =
        mode === 'stream'
          ? await paidOnStream(url, cookie, sale.id, pay)
          : await paidByPolling(url, cookie, sale.id, pay)
      const { paidAt } = await status(url, cookie, sale.id)
      if (paidAt === null) throw new Error('paid without paid_at')
      out[mode].push(seen - paidAt)
    }
  }
  return out
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN
}

/** The bench rows: p50 and p99 of each way, against the 2-second goal. */
export function tillRows(latency: TillLatency): Row[] {
  const row = (what: string, values: number[]): Row => {
    const worst = Math.max(...values)
    return {
      what,
      result: `${values.length} sales, worst ${worst} ms`,
      p50: quantile(values, 0.5),
      p99: quantile(values, 0.99),
      goal: `≤ ${TILL_GOAL_MS} ms: ${worst <= TILL_GOAL_MS ? 'met' : '**not met**'}`,
    }
  }
  return [
    row('Till: confirmation → screen, event stream (Node)', latency.stream),
    row(
      `Till: confirmation → screen, polling every ${POLL_EVERY_MS / 1000} s as on Workers (measured on Node)`,
      latency.poll,
    ),
  ]
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const paylinks = await startServer('paylinks')
  try {
    console.log(table(tillRows(await tillLatency(paylinks))))
  } finally {
    await paylinks.stop()
  }
}
