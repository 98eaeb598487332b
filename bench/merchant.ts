/**
 * A 100,000-payment merchant (bench/seed-merchant.ts) driven over HTTP: the payments list of the
 * API and of the dashboard with each filter and with a search (a part of a phone, a common surname,
 * an order number), the link lists, the pages of the busiest link and of one payment, the till's
 * shift report and its sales through the API, the audit log (page and API, by kind and by
 * person), and the CSV export of every payment with the server's RSS sampled while it streams.
 *
 * `npx tsx bench/merchant.ts [seconds per row]` prints the rows; bench/run.ts adds them to its table.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { type BenchServer, startServer } from './child.js'
import { BENCH_ADMIN_TOKEN } from './constants.js'
import { load } from './load.js'
import { mib, type Row, table } from './report.js'
import { seedMerchant } from './seed-merchant.js'

/** The goals: p99 of a page or an API call, and the server's RSS growth during the export. */
export const MERCHANT_P99_GOAL_MS = 50
export const EXPORT_RSS_GOAL_BYTES = 30 * 2 ** 20
const DAY = 86_400_000

/** Signs in to the dashboard; answers the session's Cookie header. */
async function signIn(url: string): Promise<string> {
  const page = await fetch(`${url}/dashboard/login`)
  const jar = page.headers.getSetCookie().map((c) => c.split(';')[0])
  const csrf = /name="_csrf" value="([^"]*)"/.exec(await page.text())?.[1] ?? ''
  const res = await fetch(`${url}/dashboard/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.join('; ') },
    body: new URLSearchParams({ token: BENCH_ADMIN_TOKEN, _csrf: csrf }),
  })
  if (res.status !== 303) throw new Error(`dashboard sign-in answered ${res.status}`)
  return [...jar, ...res.headers.getSetCookie().map((c) => c.split(';')[0])].join('; ')
}

/** Downloads the export while sampling the server's RSS; answers bytes, time and RSS growth. */
async function exportAll(server: BenchServer, cookie: string) {
  const rss = async () => ((await server.call('memory', {})) as { rss: number }).rss
  const before = ((await server.call('memory', { gc: true })) as { rss: number }).rss
  let peak = before
  let done = false
  const sampler = (async () => {
    while (!done) peak = Math.max(peak, await rss())
  })()
  const started = performance.now()
  const res = await fetch(`${server.url}/dashboard/payments.csv`, { headers: { cookie } })
  let bytes = 0
  let lines = 0
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length
    for (const b of chunk) if (b === 10) lines++
  }
  const ms = performance.now() - started
  done = true
  await sampler
  return { status: res.status, bytes, rows: lines - 1, ms, growth: peak - before }
}

/** The merchant's rows; `notes` gets how they were measured. */
export async function merchantRows(notes: string[], seconds = 3): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'paylinks-merchant-'))
  const path = join(dir, 'merchant.db')
  const now = Date.now()
  const seeded = seedMerchant(path, 100_000, 1_000, now)
  const server = await startServer('paylinks', path)
  try {
    const cookie = await signIn(server.url)
    const api = { 'x-api-key': BENCH_ADMIN_TOKEN }
    const dash = { cookie }
    const sqlite = new Database(path, { readonly: true })
    const top = sqlite.prepare('SELECT id FROM links ORDER BY paid_count DESC LIMIT 1').get() as {
      id: string
    }
    const mid = sqlite.prepare('SELECT id FROM links LIMIT 1 OFFSET 500').get() as { id: string }
    const payment = sqlite
      .prepare('SELECT id FROM payments WHERE link_id = ? ORDER BY created_at DESC LIMIT 1')
      .get(top.id) as { id: string }
    const cashier = sqlite.prepare("SELECT id FROM users WHERE role = 'cashier' LIMIT 1").get() as {
      id: string
    }
    // Searches as a merchant types them: a phone's first seven digits with a space, a surname
    // 8.7 % of the customers share (the many-matches path), one payment's order number.
    const { phone, ord } = sqlite
      .prepare(
        `SELECT customer_phone AS phone, order_number AS ord FROM payments
         WHERE order_number IS NOT NULL LIMIT 1 OFFSET 50000`,
      )
      .get() as { phone: string; ord: string }
    const searches = {
      phone: encodeURIComponent(`${phone.slice(0, 4)} ${phone.slice(4, 7)}`),
      name: 'Benali',
      order: ord,
    }
    // The catalogue's: the busiest cart link, one of its payments with a code, a product.
    const cart = sqlite
      .prepare(
        'SELECT id, slug FROM links WHERE line_items IS NOT NULL AND active = 1 ORDER BY paid_count DESC LIMIT 1',
      )
      .get() as { id: string; slug: string }
    const cartPayment = sqlite
      .prepare(
        'SELECT id FROM payments WHERE link_id = ? AND promo_code IS NOT NULL ORDER BY created_at DESC LIMIT 1',
      )
      .get(cart.id) as { id: string }
    const product = sqlite
      .prepare('SELECT id FROM products ORDER BY sold_count DESC LIMIT 1')
      .get() as { id: string }
    const shop = sqlite
      .prepare("SELECT id FROM webhook_endpoints WHERE description = 'Boutique'")
      .get() as { id: string }
    const failing = sqlite
      .prepare('SELECT id FROM webhook_endpoints WHERE failing_since IS NOT NULL')
      .get() as { id: string }
    const { oldDelivery } = sqlite
      .prepare(
        `SELECT max(id) AS oldDelivery FROM deliveries WHERE endpoint_id = ? AND occurred_at < ?`,
      )
      .get(shop.id, now - 200 * DAY) as { oldDelivery: number }
    sqlite.close()
    const day = (ms: number) => new Date(ms + 3_600_000).toISOString().slice(0, 10)
    const month = `from=${day(now - 60 * DAY)}&to=${day(now - 31 * DAY)}`
    const deep = `${now - 200 * DAY}~pay_zzzzzzzzzzzzzzzz`
    const cases: [string, string, Record<string, string>][] = [
      ['API payments, no filter', '/api/v1/payments', api],
      ['API payments `status=paid`', '/api/v1/payments?status=paid', api],
      ['API payments `status=pending` (a rare status)', '/api/v1/payments?status=pending', api],
      ['API payments `status=failed,canceled`', '/api/v1/payments?status=failed,canceled', api],
      ['API payments `link_id` (the busiest link)', `/api/v1/payments?link_id=${top.id}`, api],
      [
        'API payments `link_id` and `status=paid`',
        `/api/v1/payments?link_id=${mid.id}&status=paid`,
        api,
      ],
      ['API payments `from`/`to` (a month)', `/api/v1/payments?${month}`, api],
      ['API payments, a page 200 days back (`cursor`)', `/api/v1/payments?cursor=${deep}`, api],
      ['API payments `limit=200`', '/api/v1/payments?limit=200', api],
      ['API links', '/api/v1/links', api],
      ['API links `active=false`', '/api/v1/links?active=false', api],
      ['Dashboard payments page', '/dashboard/payments', dash],
      ['Dashboard payments `status=failed`', '/dashboard/payments?status=failed', dash],
      ['Dashboard payments `link` (the busiest)', `/dashboard/payments?link=${top.id}`, dash],
      ['Dashboard payments `from`/`to` (a month)', `/dashboard/payments?${month}`, dash],
      ['Dashboard payments, a page 200 days back', `/dashboard/payments?cursor=${deep}`, dash],
      ['Dashboard links page', '/dashboard/links', dash],
      ['Dashboard overview (30 days: totals, charts, reasons, top links)', '/dashboard', dash],
      ['Dashboard overview in Arabic', '/dashboard?lang=ar', dash],
      ['API payments `q`, a part of a phone', `/api/v1/payments?q=${searches.phone}`, api],
      ['API payments `q`, a common surname', `/api/v1/payments?q=${searches.name}`, api],
      ['API payments `q`, an order number', `/api/v1/payments?q=${searches.order}`, api],
      ['Dashboard search, a part of a phone', `/dashboard/payments?q=${searches.phone}`, dash],
      ['Dashboard search, a common surname', `/dashboard/payments?q=${searches.name}`, dash],
      ['Dashboard search, an order number', `/dashboard/payments?q=${searches.order}`, dash],
      ['Dashboard link page (the busiest link)', `/dashboard/links/${top.id}`, dash],
      ['Dashboard payment page', `/dashboard/payments/${payment.id}`, dash],
      ["Till shift report (today's sales)", '/dashboard/till/report', dash],
      [
        'Till shift report, a day 20 days back',
        `/dashboard/till/report?day=${day(now - 20 * DAY)}`,
        dash,
      ],
      ["API payments `source=till` (the till's sales)", '/api/v1/payments?source=till', api],
      [
        'API payments `source=dashboard` (all but the till’s)',
        '/api/v1/payments?source=dashboard',
        api,
      ],
      ['Dashboard payments `source=till`', '/dashboard/payments?source=till', dash],
      ['Dashboard audit log', '/dashboard/audit', dash],
      ['Dashboard audit log, exports', '/dashboard/audit?group=exports', dash],
      ['Dashboard audit log, one cashier', `/dashboard/audit?actor=${cashier.id}`, dash],
      ['API audit log', '/api/v1/audit', api],
      ['API audit log `group=settings` (a rare kind)', '/api/v1/audit?group=settings', api],
      [
        'API audit log `actor` and `from`/`to` (a month)',
        `/api/v1/audit?actor=${cashier.id}&${month}`,
        api,
      ],
      [
        'Dashboard webhooks page (each endpoint with its latest delivery)',
        '/dashboard/webhooks',
        dash,
      ],
      [
        'Dashboard webhook endpoint page (its delivery log, with attempts)',
        `/dashboard/webhooks/${shop.id}`,
        dash,
      ],
      [
        'Dashboard webhook endpoint page, 200 days back',
        `/dashboard/webhooks/${shop.id}?before=${oldDelivery}`,
        dash,
      ],
      [
        'Dashboard webhook endpoint page, a failing endpoint',
        `/dashboard/webhooks/${failing.id}`,
        dash,
      ],
      ['API webhook endpoint deliveries', `/api/v1/webhook-endpoints/${shop.id}/deliveries`, api],
      [
        'API webhook endpoint deliveries, 200 days back (`cursor`)',
        `/api/v1/webhook-endpoints/${shop.id}/deliveries?cursor=${oldDelivery}`,
        api,
      ],
      ['API products', '/api/v1/products', api],
      ['API products `q` (a name)', '/api/v1/products?q=Tapis', api],
      ['API product (the best seller)', `/api/v1/products/${product.id}`, api],
      ['Dashboard products page', '/dashboard/products', dash],
      ['API promo codes', '/api/v1/promo-codes', api],
      ['Dashboard promo codes page', '/dashboard/promo-codes', dash],
      [
        'API payments `link_id` (the busiest cart link)',
        `/api/v1/payments?link_id=${cart.id}`,
        api,
      ],
      [
        'Dashboard payment page (a cart with a promo code)',
        `/dashboard/payments/${cartPayment.id}`,
        dash,
      ],
      ['Checkout page of a cart link (products, stock)', `/l/${cart.slug}`, {}],
    ]
    await server.call('idle')
    const rows: Row[] = []
    for (const [what, path, headers] of cases) {
      process.stderr.write(`bench: merchant, ${what}\n`)
      // Warm-up first (compiled code, the file's pages in cache), as the other rows have.
      await load({ url: server.url, path, headers, amount: 50, connections: 1 })
      const r = await load({ url: server.url, path, headers, duration: seconds, connections: 1 })
      const ok = r.bad === 0 ? '' : ` (${r.bad} failed: ${JSON.stringify(r.statuses)})`
      rows.push({
        what: `100,000 payments: ${what} \`GET ${path.split('?')[0]}\``,
        result: `${Math.round(r.rps)} req/s${ok}`,
        p50: r.p50,
        p99: r.p99,
        goal: `p99 ≤ ${MERCHANT_P99_GOAL_MS} ms: ${r.p99 <= MERCHANT_P99_GOAL_MS && r.bad === 0 ? 'met' : '**not met**'}`,
      })
    }
    process.stderr.write('bench: merchant, CSV export of every payment\n')
    const csv = await exportAll(server, cookie)
    rows.push({
      what: `100,000 payments: CSV export of all \`GET /dashboard/payments.csv\`: rows, size, time; server RSS growth`,
      result: `${csv.rows.toLocaleString('en-US')} rows, ${mib(csv.bytes)} in ${(csv.ms / 1000).toFixed(1)} s${csv.status === 200 ? '' : ` (status ${csv.status})`}; RSS +${mib(csv.growth)}`,
      goal: `RSS ≤ +${mib(EXPORT_RSS_GOAL_BYTES)}: ${csv.growth <= EXPORT_RSS_GOAL_BYTES && csv.rows === 100_000 ? 'met' : '**not met**'}`,
    })
    notes.push(
      `100,000-payment merchant: bench/seed-merchant.ts wrote 500 products and 40 promo codes, 1,000 links (50 of them carts of products taking codes) and 100,000 payments over a year (those on carts with their lines, a third with a code's discount) (every status; ${seeded.tillSales.toLocaleString('en-US')} of them the till's sales of the last 30 days, each with its own till link) and ${seeded.auditEntries.toLocaleString('en-US')} audit log entries (seeded in ${(seeded.ms / 1000).toFixed(1)} s) to a SQLite file, and Paylinks served it (bench/server.ts); each row is ${seconds} s of requests one after another, after 50 of warm-up, on one connection (the time one merchant waits), the API with the admin token, the dashboard signed in. The export's RSS growth is the server's peak RSS, sampled continuously over IPC during the download, minus its RSS after a GC before it.`,
    )
    return rows
  } finally {
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const notes: string[] = []
  const rows = await merchantRows(notes, Number(process.argv[2] ?? 3))
  process.stdout.write(`${table(rows)}\n\n${notes.map((n) => `- ${n}`).join('\n')}\n`)
}
