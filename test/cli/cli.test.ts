import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MIGRATIONS_FOLDER } from '../../src/runtime/node/database.js'
import { freePort, killAll, pay, runCli, type Server, startServer, submit } from './support.js'

/** Every migration of this checkout: a backup of a current database has them all. */
const MIGRATIONS = readdirSync(MIGRATIONS_FOLDER).filter((f) => f.endsWith('.sql')).length

const dir = mkdtempSync(join(tmpdir(), 'paylinks-cli-'))
const dbPath = join(dir, 'live.db')
let server: Server
let api: Record<string, string>

beforeAll(async () => {
  server = await startServer({ DATABASE_PATH: dbPath })
  api = { PAYLINKS_URL: server.url, PAYLINKS_TOKEN: server.token ?? '' }
}, 60_000)

afterAll(() => {
  killAll()
  rmSync(dir, { recursive: true, force: true })
})

const paymentIds = (path: string) => {
  const db = new Database(path, { readonly: true })
  try {
    return (db.prepare('SELECT id FROM payments').all() as { id: string }[]).map((r) => r.id).sort()
  } finally {
    db.close()
  }
}

describe('paylinks links and payments (merchant API)', () => {
  it('creates a link with a DZD amount, lists it as a table, and lists its payments as JSON', async () => {
    const created = await runCli(
      ['links', 'create', '--title', 'Coffee beans', '--amount', '1500.50', '--json'],
      api,
    )
    expect(created.code).toBe(0)
    const link = JSON.parse(created.stdout)
    expect(link).toMatchObject({ title: 'Coffee beans', amount: 1500.5, active: true })

    await pay(server.url, link.slug)
    await pay(server.url, link.slug)

    const table = await runCli(['links', 'list'], api)
    expect(table.code).toBe(0)
    expect(table.stdout).toMatch(/^ID\s+TITLE\s+AMOUNT/)
    expect(table.stdout).toMatch(new RegExp(`${link.id}\\s+Coffee beans\\s+1500\\.50 DZD`))

    const payments = await runCli(['payments', 'list', '--link', link.id, '--json'], api)
    expect(payments.code).toBe(0)
    const list = JSON.parse(payments.stdout)
    expect(list).toHaveLength(2)
    expect(list.map((p: { amount: number; link_id: string }) => [p.link_id, p.amount])).toEqual([
      [link.id, 1500.5],
      [link.id, 1500.5],
    ])
    // The token never shows in what the command prints.
    expect(table.stdout + payments.stdout + created.stdout).not.toContain(api.PAYLINKS_TOKEN)

    // The export takes the list's search (`q`): a part of the customer's phone, typed with a space.
    const found = await runCli(['payments', 'export', '--search', '0550 12', '--json'], api)
    expect(JSON.parse(found.stdout)).toHaveLength(2)
    const none = await runCli(['payments', 'export', '--search', 'Zoubir', '--json'], api)
    expect(JSON.parse(none.stdout)).toEqual([])
  }, 60_000)

  it('says what is wrong with exit code 2 for usage and 1 for a refusal, without echoing the token', async () => {
    const amount = await runCli(['links', 'create', '--title', 'x', '--amount', '12.345'], api)
    expect(amount.code).toBe(2)
    expect(amount.stderr).toContain('--amount must be an amount of DZD')

    const wrong = 'plk_not-the-token-at-all'
    const refused = await runCli(['links', 'list'], { ...api, PAYLINKS_TOKEN: wrong })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('401 unauthorized')
    expect(refused.stderr + refused.stdout).not.toContain(wrong)

    const unknown = await runCli(['links', 'list', '--colour'], api)
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain("unknown option '--colour'")
  }, 60_000)
})

describe('paylinks backup and restore', () => {
  it('backs up while serving under load, refuses to restore under a running server, restores into a new path that starts with every row, and rotates the token there', async () => {
    const { stdout } = await runCli(
      ['links', 'create', '--title', 'Load', '--amount', '900', '--json'],
      api,
    )
    const { slug } = JSON.parse(stdout)
    for (let i = 0; i < 5; i++) await pay(server.url, slug)
    const before = paymentIds(dbPath)

    // Customers keep submitting while the backup runs: each submission writes (a payment, or past
    // the checkout limit its counter), and reads go on beside.
    let loading = true
    const load = (async () => {
      let n = 0
      while (loading) {
        const [status] = await Promise.all([
          submit(server.url, slug),
          fetch(`${server.url}/api/v1/payments`, {
            headers: { 'x-api-key': api.PAYLINKS_TOKEN ?? '' },
          }).then((r) => r.text()),
        ])
        expect([303, 429]).toContain(status)
        n++
      }
      return n
    })()
    const backupFile = join(dir, 'copy.db')
    const backup = await runCli(['backup', backupFile, '--json'], { DATABASE_PATH: dbPath })
    loading = false
    const duringLoad = await load
    expect(backup.code, backup.stderr).toBe(0)
    expect(duringLoad).toBeGreaterThan(0)
    expect(JSON.parse(backup.stdout)).toMatchObject({ file: backupFile, migrations: MIGRATIONS })
    // One self-contained file: no log beside it.
    expect(existsSync(`${backupFile}-wal`)).toBe(false)

    const copied = paymentIds(backupFile)
    const after = paymentIds(dbPath)
    expect(copied).toEqual(expect.arrayContaining(before))
    expect(after).toEqual(expect.arrayContaining(copied))

    const held = await runCli(['restore', backupFile, '--yes'], { DATABASE_PATH: dbPath })
    expect(held.code).toBe(1)
    expect(held.stderr).toContain(`A Paylinks server (process ${server.child.pid}) holds`)

    const newPath = join(dir, 'restored', 'paylinks.db')
    mkdirSync(join(dir, 'restored'))
    const restored = await runCli(['restore', backupFile, '--db', newPath, '--json'], {})
    expect(restored.code, restored.stderr).toBe(0)
    expect(JSON.parse(restored.stdout)).toMatchObject({
      payments: copied.length,
      migrations: MIGRATIONS,
    })

    const rotated = await runCli(['token', 'rotate', '--db', newPath])
    expect(rotated.code, rotated.stderr).toBe(0)
    const newToken = rotated.stdout.trim()
    expect(newToken).toMatch(/^plk_\w{32}$/)

    const second = await startServer({ DATABASE_PATH: newPath })
    try {
      const listed = await runCli(['payments', 'list', '--limit', '1000', '--json'], {
        PAYLINKS_URL: second.url,
        PAYLINKS_TOKEN: newToken,
      })
      expect(listed.code, listed.stderr).toBe(0)
      expect(
        JSON.parse(listed.stdout)
          .map((p: { id: string }) => p.id)
          .sort(),
      ).toEqual(copied)
      const old = await fetch(`${second.url}/api/v1/links`, {
        headers: { 'x-api-key': api.PAYLINKS_TOKEN ?? '' },
      })
      expect(old.status).toBe(401)
    } finally {
      await second.stop()
    }
  }, 120_000)
})

describe('paylinks doctor', () => {
  it('names each problem of a broken live configuration, exits 1, and prints no secret', async () => {
    const secret = 'SBADSECRETSEEDTHATISNOTVALID'
    const closed = await freePort()
    const run = await runCli(['doctor'], {
      GATEWAY_MODE: 'live',
      PUBLIC_URL: 'http://pay.example.dz',
      MERCHANT_ACCOUNT: 'GCAZI7YBLIDJWIVEL7ETNAZGPP3LC24NO6KAOBWZHUERXQ7M5BC52DLA',
      GATEWAY_SECRET_KEY: secret,
      GATEWAY_SITE_URL: `http://127.0.0.1:${closed}`,
      GATEWAY_PUBLIC_KEY: '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----',
    })
    expect(run.code).toBe(1)
    const failed = run.stdout
      .split('\n')
      .filter((line) => line.startsWith('fail'))
      .map((line) => line.split(/\s{2,}/)[1])
    expect(failed).toEqual([
      'MERCHANT_ACCOUNT',
      'GATEWAY_SECRET_KEY',
      'GATEWAY_PUBLIC_KEY',
      'PUBLIC_URL',
      'webhook URL',
      'gateway',
    ])
    expect(run.stdout).toContain('ECONNREFUSED')
    expect(run.stdout + run.stderr).not.toContain(secret)
  }, 30_000)
})

describe('paylinks gateway (against the simulator)', () => {
  it('refuses a top-up without --yes and no terminal, sends it once with --yes, and lists it in the operations history', async () => {
    const port = new URL(server.url).port
    const env = { PORT: port, PUBLIC_URL: `http://127.0.0.1:${port}` }
    const args = ['gateway', 'topup', 'phone', '--operator', 'djezzy', '--offer', 'prepaid']
    const top = [...args, '--phone', '0555123456', '--amount', '250']

    const refused = await runCli(top, env)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('pass --yes to go ahead')
    const sent = await runCli([...top, '--yes', '--json'], env)
    expect(sent.code, sent.stderr).toBe(0)
    const { operation_id } = JSON.parse(sent.stdout)

    const list = await runCli(['gateway', 'operations', 'list', '--json'], env)
    expect(list.code, list.stderr).toBe(0)
    const operations = JSON.parse(list.stdout).data.operations
    expect(operations.map((o: { id: string }) => o.id)).toEqual([operation_id])
    expect(operations[0]).toMatchObject({
      operator: 'djezzy',
      phone: '0555123456',
      amount: '250.00',
    })
  }, 60_000)

  it('reads the product catalogue, whose query travels in a GET body as the gateway takes it', async () => {
    const port = new URL(server.url).port
    const env = { PORT: port, PUBLIC_URL: `http://127.0.0.1:${port}` }
    const all = await runCli(['gateway', 'products', '--json'], env)
    expect(all.code, all.stderr).toBe(0)
    const products = JSON.stringify(JSON.parse(all.stdout))
    expect(products.length).toBeGreaterThan(100)
  }, 30_000)
})
