/** Helpers of the fault suite: database fingerprints, a status-change audit, checkouts, truth. */
import { createHash } from 'node:crypto'
import type Database from 'better-sqlite3'
import type { PaymentStatus } from '../../db/schema.js'
import { createGatewayClient } from '../../src/client/index.js'
import {
  type CardOutcome,
  SIMULATOR_API_KEY,
  SIMULATOR_SECRET_SEED,
} from '../../src/simulator/index.js'
import type { Paylinks } from '../support/harness.js'

/**
 * Row counts and a SHA-256 of every table a request could change, rows in insertion order.
 * `rate_limits` is left out on purpose: a rejected request still counts against its limit.
 */
export function fingerprint(
  sqlite: Database.Database,
  tables: readonly string[] = ['links', 'payments', 'webhook_events', 'settings'],
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const table of tables) {
    const rows = sqlite.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all()
    out[table] = `${rows.length}:${createHash('sha256').update(JSON.stringify(rows)).digest('hex')}`
  }
  return out
}

/** Records every change of a payment's status in a test-only table, by a trigger. */
export function auditStatusChanges(sqlite: Database.Database): () => StatusChange[] {
  sqlite.exec(`
    CREATE TABLE IF NOT EXISTS test_status_changes (
      seq INTEGER PRIMARY KEY AUTOINCREMENT, payment_id TEXT, old TEXT, new TEXT);
    CREATE TRIGGER IF NOT EXISTS test_status_audit AFTER UPDATE OF status ON payments
      WHEN OLD.status IS NOT NEW.status
      BEGIN INSERT INTO test_status_changes (payment_id, old, new)
        VALUES (OLD.id, OLD.status, NEW.status); END;`)
  return () =>
    sqlite
      .prepare('SELECT payment_id AS paymentId, old, new FROM test_status_changes ORDER BY seq')
      .all() as StatusChange[]
}

export type StatusChange = { paymentId: string; old: PaymentStatus; new: PaymentStatus }

/** What Paylinks must end with for each way the simulator can end a card payment. */
export const EXPECTED_STATUS: Record<CardOutcome, PaymentStatus> = {
  approved: 'paid',
  declined: 'failed',
  insufficient_funds: 'failed',
  expired_card: 'failed',
  canceled: 'canceled',
  session_expired: 'expired',
}

export const CUSTOMER = {
  name: 'Amina Benali',
  phone: '0550123456',
  email: 'amina@example.dz',
  terms: 'yes',
}

/** The CSRF token of a link's checkout form (tokens are stateless: one serves many posts). */
export async function formToken(p: Paylinks, slug: string): Promise<string> {
  const html = await (await p.app.request(`/l/${slug}`)).text()
  const token = /name="csrf" value="([^"]+)"/.exec(html)?.[1]
  if (!token) throw new Error('no CSRF token on the checkout page')
  return token
}

/** Posts the checkout form in process, as customer `n` (its own client address). */
export function postCheckout(
  p: Paylinks,
  slug: string,
  csrf: string,
  n: number,
  fields: Record<string, string> = {},
) {
  return p.app.request(`/l/${slug}`, {
    method: 'POST',
    body: new URLSearchParams({ ...CUSTOMER, email: `c${n}@example.dz`, csrf, ...fields }),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-test-ip': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
    },
  })
}

/** The receipt id in a simulator transaction's return URL (`…/r/<receiptId>`). */
export function receiptIdOf(returnUrl: string | null): string {
  return new URL(returnUrl ?? 'http://x/').pathname.split('/').pop() ?? ''
}

/** Runs `tasks` with at most `width` in flight, keeping their order in the results. */
export async function pool<T>(width: number, tasks: (() => T | Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(tasks.length)
  let next = 0
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++
      results[i] = await (tasks[i] as () => T | Promise<T>)()
    }
  }
  await Promise.all(Array.from({ length: Math.min(width, tasks.length) }, worker))
  return results
}

/**
 * Replaces the app's gateway client by one that does not wait between retries of a read (the
 * production backoff is seconds) and gives up after `timeoutMs`. Handlers read `c.var`, which is
 * filled from `deps` on every request, so the swap applies from the next request on.
 */
export function fastRetryingGateway(p: Paylinks, timeoutMs: number): void {
  const config = p.deps.config
  p.deps.gateway = createGatewayClient({
    siteUrl: config.gatewaySiteUrl,
    ...(config.gatewayApiUrl ? { apiUrl: config.gatewayApiUrl } : {}),
    apiKey: SIMULATOR_API_KEY,
    secretKey: SIMULATOR_SECRET_SEED,
    timeoutMs,
    sleep: async () => {},
  })
}
