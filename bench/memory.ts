/**
 * Memory under load: a fresh Paylinks process serves 100,000 requests of the everyday mix
 * (checkout pages, cached QR codes, new webhook deliveries, receipts, health checks); RSS is read
 * after 50,000 and after 100,000, and the heap after a full GC at both points, so allocator noise
 * and a real leak can be told apart.
 */
import { type BenchServer, startServer } from './child.js'
import { BENCH_ADMIN_TOKEN, CLIENT_HEADER } from './constants.js'
import { load } from './load.js'
import { mib, type Row } from './report.js'
import { csrfFor, webhookBodies } from './scenarios.js'

export interface MemoryResult {
  rssAtStart: number
  rssAfter50k: number
  rssAfter100k: number
  heapAfter50k: number
  heapAfter100k: number
  bad: number
  seconds: number
}

interface Usage {
  rss: number
  heapUsed: number
}

/** The request mix: one entry per request, cycled. */
function mix(slugs: string[], receiptPath: string, bodies: string[]) {
  let body = 0
  return (n: number) => {
    const slug = slugs[n % slugs.length] as string
    switch (n % 5) {
      case 0:
      case 1:
        return { method: 'GET', path: `/l/${slug}` }
      case 2:
        return { method: 'GET', path: `/l/${slug}/qr.svg` }
      case 3:
        return {
          method: 'POST',
          path: '/webhooks/gateway',
          body: bodies[body++ % bodies.length] as string,
        }
      default:
        return { method: 'GET', path: n % 10 === 4 ? receiptPath : '/healthz' }
    }
  }
}

/** Sends 2 × 50,000 requests and reads the server's memory after each half. */
export async function memoryUnderLoad(
  paylinks: BenchServer,
  slugs: string[],
  receiptPath: string,
  bodies: string[],
  connections: number,
): Promise<MemoryResult> {
  const next = mix(slugs, receiptPath, bodies)
  let n = 0
  const half = () =>
    load({
      url: paylinks.url,
      amount: 50_000,
      connections,
      headers: { 'content-type': 'application/json' },
      each: () => next(n++),
    })
  const atStart = (await paylinks.call('memory', { gc: false })) as Usage
  const started = performance.now()
  const first = await half()
  await paylinks.call('idle')
  const at50k = (await paylinks.call('memory', { gc: false })) as Usage
  const heap50k = (await paylinks.call('memory', { gc: true })) as Usage
  const second = await half()
  await paylinks.call('idle')
  const at100k = (await paylinks.call('memory', { gc: false })) as Usage
  const heap100k = (await paylinks.call('memory', { gc: true })) as Usage
  return {
    rssAtStart: atStart.rss,
    rssAfter50k: at50k.rss,
    rssAfter100k: at100k.rss,
    heapAfter50k: heap50k.heapUsed,
    heapAfter100k: heap100k.heapUsed,
    bad: first.bad + second.bad,
    seconds: (performance.now() - started) / 1000,
  }
}

/** The memory rows: a fresh server with 20 links and 5 approved payments, then 100,000 requests. */
export async function memoryRows(notes: string[], link: Record<string, unknown>): Promise<Row[]> {
  const paylinks = await startServer('paylinks')
  try {
    const slugs = (await paylinks.call('seedLinks', { count: 20, body: link })) as string[]
    // A few payments: their receipts and their webhooks are part of the mix.
    const csrf = await csrfFor(paylinks, slugs[0]!)
    for (let i = 0; i < 5; i++) {
      await fetch(`${paylinks.url}/l/${slugs[0]}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', [CLIENT_HEADER]: `m${i}` },
        body: new URLSearchParams({
          name: 'Amina Benali',
          phone: '0550123456',
          email: 'amina@example.dz',
          terms: 'yes',
          csrf,
        }),
      })
    }
    const payloads = (await paylinks.call('completeAll')) as Record<string, unknown>[]
    const answer = await fetch(`${paylinks.url}/api/v1/payments`, {
      headers: { 'x-api-key': BENCH_ADMIN_TOKEN },
    })
    const listing = (await answer.json()) as { data?: { receipt_url: string }[] }
    const receipt = listing.data?.[0]?.receipt_url
    if (!receipt) {
      throw new Error(
        `no payment to show a receipt for: ${answer.status} ${JSON.stringify(listing).slice(0, 300)}`,
      )
    }
    process.stderr.write('bench: memory, 100,000 requests\n')
    const m = await memoryUnderLoad(
      paylinks,
      slugs,
      new URL(receipt).pathname,
      webhookBodies(payloads, 20_000),
      10,
    )
    notes.push(
      `Memory: a fresh server; 100,000 requests cycling checkout page ×2, cached QR SVG, a new webhook delivery, receipt or health check (${m.seconds.toFixed(0)} s, ${m.bad} failed). Checkout submissions are left out: the built-in simulator keeps every card transaction in memory by design. Heap after a forced GC: ${mib(m.heapAfter50k)} at 50,000, ${mib(m.heapAfter100k)} at 100,000.`,
    )
    return [
      {
        what: 'Memory: RSS after 100,000 requests (before the first)',
        result: `${mib(m.rssAfter100k)} (${mib(m.rssAtStart)})`,
      },
      {
        what: 'Memory: RSS growth over the last 50,000 (heap after a GC)',
        result: `${mib(m.rssAfter100k - m.rssAfter50k)} (${mib(m.heapAfter100k - m.heapAfter50k)})`,
        goal: 'none',
      },
    ]
  } finally {
    await paylinks.stop()
  }
}
