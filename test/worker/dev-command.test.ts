/**
 * `npm run dev:worker` as the README starts it: scripts/dev-worker.ts, then `wrangler dev` with
 * the development Worker, offline, on a port of its own (`-- --port N`) and a local D1 of its own
 * (`--persist-to`, a copy of the run's migrated one, so the migrations step finds nothing left to
 * apply). Started once for the whole file (wrangler dev is the slowest thing the tests start):
 * what it prints, the addresses it hands out, and the scheduled run the README gives
 * (`/__scheduled`) settling a pending payment and retrying an outbound webhook to a real
 * receiver on loopback.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  banner,
  configuredPort,
  migrationSummary,
  modeOf,
  optionValue,
  withoutGiven,
} from '../../scripts/dev-worker.js'
import { type Receiver, startReceiver, verify } from '../outbound-webhooks/receiver.js'
import { formAction, inputValue, migratedState, postForm, ROOT } from './support.js'

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('port')),
      )
    })
  })
}

let dir = ''
let state = ''
let url = ''
let output = ''
let dev: ChildProcess | undefined
let receiver: Receiver

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paylinks-dev-command-'))
  const [migrated, port, started] = await Promise.all([
    migratedState(dir),
    freePort(),
    startReceiver(),
  ])
  state = migrated
  receiver = started
  url = `http://localhost:${port}`
  // The environment a newcomer's shell has: nothing set for wrangler (the script and
  // wrangler.toml keep it offline and quiet).
  const env = { ...process.env }
  for (const name of Object.keys(env))
    if (name.startsWith('WRANGLER_') || name.startsWith('CLOUDFLARE_')) delete env[name]
  dev = spawn(
    'npm',
    [
      'run',
      '--silent',
      'dev:worker',
      '--',
      '--port',
      String(port),
      '--persist-to',
      state,
      // Only so that the checkout below needs no proof of work.
      '--var',
      'CAPTCHA:off',
    ],
    { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  )
  await new Promise<void>((resolve, reject) => {
    const take = (chunk: Buffer) => {
      output += chunk.toString('utf8')
      // The start line, and the token line the Worker writes through wrangler (in either order).
      if (
        output.includes('Paylinks is listening on') &&
        /admin token \(shown once, keep it\): plk_/.test(output)
      )
        resolve()
    }
    dev?.stdout?.on('data', take)
    dev?.stderr?.on('data', take)
    dev?.once('exit', (code) => reject(new Error(`dev:worker exited (${code}):\n${output}`)))
  })
}, 300_000)

afterAll(async () => {
  if (dev?.pid && dev.exitCode === null) {
    const exited = new Promise((resolve) => dev?.once('exit', resolve))
    // The whole group: npm, the script and wrangler (with workerd) under it.
    process.kill(-dev.pid, 'SIGTERM')
    await exited
  }
  await receiver?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
}, 60_000)

/** The local D1's SQLite file, for what only time would otherwise do (a check or retry due now). */
function makeDue(sql: string, ...params: unknown[]): void {
  const d1 = join(state, 'v3', 'd1', 'miniflare-D1DatabaseObject')
  const file = readdirSync(d1).find(
    (name) => name.endsWith('.sqlite') && name !== 'metadata.sqlite',
  )
  const db = new Database(join(d1, file!))
  try {
    db.prepare(sql).run(...params)
  } finally {
    db.close()
  }
}

/** The admin token the first start generated and printed, with the address it names. */
function adminTokenLine(): { token: string; dashboard: string } {
  const match = /Paylinks admin token \(shown once, keep it\): (\S+) — it logs into (\S+) /.exec(
    output,
  )
  if (!match) throw new Error(`no admin token line in:\n${output}`)
  return { token: match[1]!, dashboard: match[2]! }
}

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${url}/api/v1${path}`, {
    ...init,
    headers: {
      'content-type': 'application/json',
      'x-api-key': adminTokenLine().token,
      ...init.headers,
    },
  })

describe('npm run dev:worker', () => {
  it('prints one line for the migrations, builds the assets once, a start line like Node’s and no offline stack trace', () => {
    expect(output.match(/Local D1 \(/g)).toHaveLength(1)
    expect(output).toContain(`Local D1 (${state}): up to date.`)
    expect(output).not.toContain('│')
    // wrangler dev runs the build command twice as it starts: the assets are written at most once.
    expect(output.match(/Worker assets written/g)?.length ?? 0).toBeLessThanOrEqual(1)
    expect(output).toContain('Worker assets up to date')
    expect(output).not.toContain('Request.cf')
    expect(output).not.toContain('getaddrinfo')
    // Wrangler's own hint names the route that fails with static assets: not printed.
    expect(output).not.toContain('/cdn-cgi/handler/scheduled')
    const start = output.slice(output.indexOf('Paylinks is listening on'))
    expect(start).toContain(`Paylinks is listening on ${url} (wrangler dev, simulator mode)`)
    expect(start).toContain(`Dashboard: ${url}/dashboard`)
    expect(start).toContain(`Gateway simulator: ${url}/_sim/_inspect`)
    expect(start).toContain(`curl ${url}/__scheduled`)
    expect(start).toMatch(/Admin token: (ADMIN_TOKEN of \.dev\.vars|generated on the first start)/)
  })

  it('hands out links, card pages, return URLs and the token line on the port it was given', async () => {
    expect(adminTokenLine().dashboard).toBe(`${url}/dashboard`)
    const created = await api('/links', {
      method: 'POST',
      body: JSON.stringify({ title: 'Cours de piano', amount: 1500, language: 'fr' }),
    })
    expect(created.status).toBe(201)
    const link = (await created.json()) as { slug: string; url: string }
    expect(link.url).toBe(`${url}/l/${link.slug}`)
    const cardPage = await startPayment(link.slug)
    expect(cardPage).toMatch(new RegExp(`^${url}/_sim/pay/[\\w-]+$`))
    const returnUrl = await payOnCardPage(cardPage)
    expect(returnUrl).toMatch(new RegExp(`^${url}/r/[\\w-]+\\?`))
  })

  it('runs the scheduled work at /__scheduled: a pending payment settled, a failed webhook sent again', async () => {
    const registered = await api('/webhook-endpoints', {
      method: 'POST',
      body: JSON.stringify({ url: receiver.url, event_types: ['payment.paid'] }),
    })
    expect(registered.status).toBe(201)
    const endpoint = (await registered.json()) as { id: string; secret: string }
    receiver.answer(500)

    const created = await api('/links', {
      method: 'POST',
      body: JSON.stringify({ title: 'Abonnement', amount: 2500, language: 'fr' }),
    })
    const link = (await created.json()) as { id: string; slug: string }
    // The gateway's webhook is lost and the customer closes the tab on the card page.
    const faults = await fetch(`${url}/_sim/_faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ webhooks: { never: true, times: 1 } }),
    })
    expect(faults.status).toBe(200)
    await payOnCardPage(await startPayment(link.slug))
    const payment = await paymentOf(link.id)
    expect(payment.status).toBe('pending')
    // A minute passes: the payment is due for its first check.
    makeDue('UPDATE payments SET next_check_at = 0 WHERE id = ?', payment.id)

    const run = await fetch(`${url}/__scheduled`)
    expect([run.status, await run.text()]).toEqual([200, 'Ran scheduled event'])
    // The run answers once its work is done: settled, and the webhook tried once (refused).
    expect((await paymentOf(link.id)).status).toBe('paid')
    expect(receiver.received.map((r) => r.status)).toEqual([500])

    receiver.answer(200)
    makeDue("UPDATE deliveries SET next_attempt_at = 0 WHERE state = 'pending'")
    const again = await fetch(`${url}/__scheduled`)
    expect(again.status).toBe(200)
    expect(receiver.received.map((r) => r.status)).toEqual([500, 200])
    const event = verify(endpoint.secret, receiver.received[1]!, Date.now()) as {
      type: string
      data: { id: string }
    }
    expect([event.type, event.data.id]).toEqual(['payment.paid', payment.id])
  })
})

/** The link's one payment, as the merchant API shows it. */
async function paymentOf(linkId: string): Promise<{ id: string; status: string }> {
  const res = await api(`/payments?link_id=${linkId}`)
  expect(res.status).toBe(200)
  const { data } = (await res.json()) as { data: { id: string; status: string }[] }
  expect(data).toHaveLength(1)
  return data[0]!
}

/** Submits the link's checkout as a customer; returns the card page's address. */
async function startPayment(slug: string): Promise<string> {
  const page = await (await fetch(`${url}/l/${slug}`)).text()
  const submitted = await postForm(`${url}/l/${slug}`, {
    name: 'Amina Benali',
    phone: '0555123456',
    email: 'amina@example.dz',
    terms: 'on',
    csrf: inputValue(page, 'csrf'),
    lang: 'fr',
  })
  expect(submitted.status).toBe(303)
  return submitted.headers.get('location')!
}

/** Pays on the simulator's card page (card, then the one-time code); returns the return URL. */
async function payOnCardPage(cardPage: string): Promise<string> {
  const form = await (await fetch(cardPage)).text()
  const afterCard = await postForm(new URL(formAction(form, '/card'), url).href, {
    pan: '6280580000000009',
    expiry: '12/30',
    cvv: '123',
  })
  expect(afterCard.status).toBe(303)
  const otpPage = await (await fetch(new URL(afterCard.headers.get('location')!, url))).text()
  const afterOtp = await postForm(new URL(formAction(otpPage, '/otp'), url).href, {
    otp: '123456',
  })
  expect(afterOtp.status).toBe(303)
  return new URL(afterOtp.headers.get('location')!, url).href
}

describe('scripts/dev-worker.ts, read without starting anything', () => {
  it('sums up wrangler’s migrations output in one line', () => {
    const first = [
      'Migrations to be applied:',
      '│ 0000_init.sql │',
      '? About to apply 23 migration(s)',
      '🚣 15 commands executed successfully.',
    ].join('\n')
    expect(migrationSummary(first, '.wrangler/state')).toBe(
      'Local D1 (.wrangler/state): 23 migration(s) applied.',
    )
    expect(migrationSummary('✅ No migrations to apply!', '.wrangler/state')).toBe(
      'Local D1 (.wrangler/state): up to date.',
    )
  })

  it('starts the production pair from both wrangler files and prod.env, on 8789 unless told otherwise', () => {
    const pair = modeOf(true)
    expect(pair.dev).toEqual(
      expect.arrayContaining(['wrangler.toml', 'wrangler.dashboard.toml', 'prod.env']),
    )
    expect(optionValue(pair.dev, '--port')).toBe('8789')
    // The user's own --port or --persist-to replaces the pair's, never doubled.
    const args = withoutGiven(pair.dev, ['--port', '9100'])
    expect(optionValue(args, '--port')).toBeUndefined()
    expect(args).toContain('wrangler.dashboard.toml')
    expect(withoutGiven(pair.migrate, ['--persist-to', 'x'])).toEqual(['--local'])
    const shown = banner('http://localhost:8789', 'ADMIN_TOKEN of prod.env', true)
    expect(shown).toContain('http://localhost:8789/dashboard')
    expect(shown).not.toContain('/_sim')
    expect(banner('http://localhost:8788', 'x')).toContain('http://localhost:8788/_sim/_inspect')
  })

  it('serves on --port when given, else on wrangler.toml’s [dev] port (8788, beside Node’s 8787)', () => {
    expect(optionValue(['--port', '27431'], '--port')).toBe('27431')
    expect(optionValue(['--ip=127.0.0.1', '--port=9000'], '--port')).toBe('9000')
    expect(optionValue(['--persist-to', 'x'], '--port')).toBeUndefined()
    expect(configuredPort(readFileSync(join(ROOT, 'wrangler.toml'), 'utf8'))).toBe(8788)
    expect(configuredPort('name = "x"\n[vars]\nport = 1\n')).toBe(8787)
  })
})
