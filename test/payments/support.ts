/**
 * The payment core on its own: a real SQLite file, the real simulator in process (no HTTP), the
 * real gateway client between them, and the dependencies the confirmation and webhook modules
 * take — no app, no routes. The simulator's `latencyMs` fault holds checks until the test
 * releases them; every request to the gateway is counted.
 */
import type { Link, Payment } from '../../db/schema.js'
import { type Background, createBackground } from '../../src/background.js'
import { createGatewayClient, verifyGatewaySignature } from '../../src/client/index.js'
import { parseConfig } from '../../src/config.js'
import { recordDelivery } from '../../src/data/gateway-inbox.js'
import { sha256Hex } from '../../src/lib/hash.js'
import { startCheckout } from '../../src/payments/checkout.js'
import type { ConfirmDeps } from '../../src/payments/confirm.js'
import { type ConfirmQueue, createConfirmQueue } from '../../src/payments/confirm-queue.js'
import type { receiveWebhook } from '../../src/payments/webhook.js'
import {
  createSimulator,
  SIMULATOR_API_KEY,
  SIMULATOR_MERCHANT_ACCOUNT,
  SIMULATOR_SECRET_SEED,
  type Simulator,
} from '../../src/simulator/index.js'
import { openTestDb, type TestDb } from '../data/helpers.js'
import { storeLink } from '../support/links.js'
import { type ManualTime, manualTime, T0 } from '../support/manual-time.js'

const PUBLIC_URL = 'http://paylinks.test'

export type WebhookDeps = Parameters<typeof receiveWebhook>[0]

export interface PaymentCore {
  db: TestDb
  time: ManualTime
  simulator: Simulator
  /** What the confirmation modules take; `confirmations` is the queue under test. */
  deps: WebhookDeps & ConfirmDeps
  confirmations: ConfirmQueue
  background: Background
  lines: Record<string, unknown>[]
  /** Card transaction checks that reached the simulator. */
  checks(): number
  /** The webhook bodies the simulator sent, signed, in order. */
  deliveries: string[]
  /** Holds every check at the simulator until `release` lets it answer. */
  holdChecks(): void
  /** Checks waiting at the simulator. */
  held(): number
  /** Lets the oldest held check answer (or all). */
  release(all?: boolean): void
  /** Starts a payment on `link` through the real checkout (a transaction at the simulator). */
  pay(link: Link, customer?: number): Promise<Payment>
  link(): Promise<Link>
  close(): void
}

/** Waits until `ready()` holds, giving pending promises and I/O their turn (no timers). */
export async function until(ready: () => boolean, what = 'the condition'): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (ready()) return
    await new Promise<void>((resolve) => setImmediate(resolve))
  }
  throw new Error(`never reached: ${what}`)
}

/** Assembles the payment core (see the module comment). */
export function openPaymentCore(options: { concurrency?: number } = {}): PaymentCore {
  const db = openTestDb()
  const time = manualTime(T0)
  const lines: Record<string, unknown>[] = []
  const log = (entry: Record<string, unknown>) => lines.push(entry)
  const waiting: Array<() => void> = []
  const deliveries: string[] = []
  let checks = 0
  const simulator = createSimulator({
    publicUrl: 'http://gateway.test',
    clock: time.clock,
    // The `latencyMs` fault's wait: over when the test says so.
    sleep: () => new Promise<void>((resolve) => waiting.push(resolve)),
    deliver: async (request) => {
      deliveries.push(await request.text())
      return new Response('{"received":true}', { status: 200 })
    },
  })
  const gateway = createGatewayClient({
    siteUrl: simulator.urls.siteUrl,
    apiKey: SIMULATOR_API_KEY,
    secretKey: SIMULATOR_SECRET_SEED,
    sleep: async () => {},
    fetch: async (input, init) => {
      const request = new Request(input, init)
      if (new URL(request.url).pathname.includes('cib-transaction-check')) checks++
      return simulator.app.fetch(request)
    },
  })
  const background = createBackground(log, undefined, time.setTimer)
  const confirmations = createConfirmQueue(
    options.concurrency ? { concurrency: options.concurrency } : {},
  )
  const publicKey = simulator.keys.publicKeyPem
  const deps = {
    db: db.db,
    gateway,
    merchantAccount: SIMULATOR_MERCHANT_ACCOUNT,
    clock: time.clock,
    log,
    verifySignature: (message: string, signature: string) =>
      verifyGatewaySignature(message, signature, publicKey),
    sha256Hex,
    recordDelivery: recordDelivery(db.db),
    confirmations,
  }
  const config = parseConfig({
    DATABASE_PATH: db.path,
    ADMIN_TOKEN: 'test-admin-token-0123456789abcdef',
    CAPTCHA: 'off',
    PUBLIC_URL,
  })
  return {
    db,
    time,
    simulator,
    deps,
    confirmations,
    background,
    lines,
    checks: () => checks,
    deliveries,
    holdChecks: () =>
      simulator.faults.set({ endpoints: { 'cib-transaction-check': { latencyMs: 1 } } }),
    held: () => waiting.length,
    release(all = false) {
      for (const resume of waiting.splice(0, all ? waiting.length : 1)) resume()
    },
    async pay(link, customer = 1) {
      const started = await startCheckout(
        { ...deps, config },
        link,
        {
          name: 'Amina Benali',
          phone: '0550123456',
          email: `c${customer}@example.dz`,
          ref: null,
          amount: null,
        },
        'fr',
      )
      if (started.kind !== 'redirect') throw new Error(`checkout: ${started.kind}`)
      return started.payment
    },
    link: () => storeLink(db.db, {}, time.clock()),
    close() {
      background.stop()
      db.cleanup()
    },
  }
}
