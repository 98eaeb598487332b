/**
 * A large merchant in a migrated SQLite file: 1,000 links (fixed, open and invoice pricing) and
 * 100,000 payments spread over the year before now, in every status, from customers with Arabic
 * and Latin names; 3 % of those payments are the till's sales of the last 30 days (each its own
 * single-use till link, made by one of the shop's people); and an audit log of one entry per two
 * payments over the year (sign-ins, links, exports, settings, by the admin token and the
 * people); and two outbound webhook endpoints with their delivery logs: one that took every
 * final payment's event over the year (a delivery and its attempt each), one added two weeks ago
 * and failing for the last day (its deliveries retried, then pending or given up). Rows go in
 * through prepared statements in one transaction; the database's triggers keep the links'
 * counters, which are then checked against the payments.
 *
 * `npx tsx bench/seed-merchant.ts <db path> [payments] [links]`
 */
import { existsSync } from 'node:fs'
import { randomBase62 } from '../src/lib/bytes.js'
import { openSqlite } from '../src/runtime/node/database.js'

const DAY = 86_400_000
const YEAR = 365 * DAY

/** A small seeded generator (mulberry32), so two runs write the same merchant. */
function random(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number) => Math.floor(next() * n)
  const pick = <T>(list: readonly T[]): T => list[int(list.length)]!
  return { next, int, pick }
}

const LATIN_FIRST = ['Amina', 'Yacine', 'Sofiane', 'Lina', 'Karim', 'Nesrine', 'Walid', 'Meriem']
const LATIN_LAST = ['Benali', 'Haddad', 'Boudiaf', 'Mansouri', 'Cherif', 'Belkacem', 'Saidi']
const ARABIC_FIRST = ['أمينة', 'ياسين', 'سفيان', 'لينا', 'كريم', 'نسرين', 'وليد', 'مريم']
const ARABIC_LAST = ['بن علي', 'حداد', 'بوضياف', 'منصوري', 'شريف', 'بلقاسم', 'سعيدي']
const LATIN_EMAIL = ['amina', 'yacine', 'sofiane', 'lina', 'karim', 'nesrine', 'walid', 'meriem']
const DOMAINS = ['gmail.com', 'yahoo.fr', 'outlook.com', 'djaweb.dz', 'example.dz']
const TITLES = ['Abonnement', 'Commande', 'اشتراك', 'Formation', 'Don', 'Facture', 'Billet']
const LANGUAGES = ['ar', 'fr', 'en'] as const

// Shares of the statuses among payments older than a day; newer ones may still be in flight.
/** The shop's people: the till's sales are made by the cashiers and the manager. */
const PEOPLE = [
  ['Samira', 'owner'],
  ['Rachid', 'manager'],
  ['Farid', 'cashier'],
  ['Houda', 'cashier'],
] as const
/** The till's share of the payments, all in its last TILL_DAYS days. */
const TILL_SHARE = 0.03
const TILL_DAYS = 30
/** What the audit log holds, as a shop's days make it: mostly sign-ins, links and exports. */
const AUDITED: ReadonlyArray<readonly [string, string | null]> = [
  ['login', null],
  ['login', null],
  ['login', null],
  ['logout', null],
  ['login_failed', null],
  ['link_created', 'link'],
  ['link_created', 'link'],
  ['link_updated', 'link'],
  ['link_deactivated', 'link'],
  ['export_downloaded', null],
  ['settings_changed', null],
  ['key_created', 'key'],
]

const SETTLED = [
  ['paid', 0.68],
  ['failed', 0.12],
  ['canceled', 0.08],
  ['expired', 0.1],
  ['error', 0.02],
] as const

/** Seeds `path` (which must not exist yet) and returns what it wrote and how long it took. */
export function seedMerchant(
  path: string,
  paymentCount = 100_000,
  linkCount = 1_000,
  now = Date.now(),
) {
  if (existsSync(path)) throw new Error(`${path} exists: seeding wants a new file`)
  const started = performance.now()
  const handle = openSqlite(path)
  const { sqlite } = handle
  // A new file that is thrown away if seeding fails: no need to wait for the disk on each page.
  sqlite.pragma('synchronous = OFF')
  sqlite.pragma('cache_size = -65536')
  const r = random(16)
  const insertLink = sqlite.prepare(
    `INSERT INTO links (id, slug, title, description, amount, amount_min, amount_max, invoice_id,
       invoice_items, max_payments, expires_at, language, active, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const insertPayment = sqlite.prepare(
    `INSERT INTO payments (id, receipt_id, link_id, status, amount, customer_name, customer_phone,
       customer_email, ref, language, order_id, order_number, transaction_id, cib_transaction_id,
       approval_code, message, created_at, updated_at, paid_at, settled_at, failure_code, source)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const insertUser = sqlite.prepare(
    `INSERT INTO users (id, email, name, role, password_hash, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  )
  const insertAudit = sqlite.prepare(
    `INSERT INTO audit_log (at, actor_kind, actor_id, actor_label, action, target_kind, target_id,
       detail, address) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const insertTillLink = sqlite.prepare(
    `INSERT INTO links (id, slug, title, amount, max_payments, expires_at, language, active,
       created_at, updated_at, source, created_by)
     VALUES (?, ?, 'Vente', ?, 1, ?, 'fr', 1, ?, ?, 'till', ?)`,
  )
  /** A till sale's link: single-use, made by `by` at `created`, expiring 15 minutes later. */
  const insertEndpoint = sqlite.prepare(
    `INSERT INTO webhook_endpoints (id, url, description, event_types, enabled, secret,
       created_at, updated_at, consecutive_failures, failing_since)
     VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?)`,
  )
  const insertDelivery = sqlite.prepare(
    `INSERT INTO deliveries (event_id, channel, endpoint_id, type, payment_id, link_id,
       occurred_at, state, attempts, next_attempt_at, payload, last_attempt_at, last_status,
       last_response, last_duration_ms, last_error, delivered_at, created_at)
     VALUES (?, 'webhook', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const insertAttempt = sqlite.prepare(
    `INSERT INTO delivery_attempts (delivery_id, at, status, response_excerpt, duration_ms, error)
     VALUES (?, ?, ?, ?, ?, ?)`,
  )
  /**
   * The two endpoints and their logs, in the order the sender would have written them: every
   * final event to the first; to the second, added two weeks ago, the events since, delivered
   * until a day ago, then answered 503 (retried: pending, or failed for good after its attempts).
   */
  const seedWebhooks = (events: FinalEvent[], at: number) => {
    const shop = `whe_${randomBase62(16)}`
    const crm = `whe_${randomBase62(16)}`
    const types = JSON.stringify(['payment.paid', 'payment.failed', 'payment.canceled'])
    insertEndpoint.run(
      shop,
      'https://shop.example.dz/hooks/paylinks',
      'Boutique',
      types,
      `whsec_${randomBase62(32)}`,
      at - YEAR,
      at - YEAR,
      0,
      null,
    )
    const failingSince = at - DAY
    insertEndpoint.run(
      crm,
      'https://crm.example.dz/in',
      'CRM',
      types,
      `whsec_${randomBase62(32)}`,
      at - 14 * DAY,
      at - 14 * DAY,
      40,
      failingSince,
    )
    const logged = (endpoint: string, e: FinalEvent, failing: boolean) => {
      const payload = JSON.stringify({ type: e.type, data: { id: e.paymentId } })
      const attempts = failing ? (r.next() < 0.5 ? 8 : 1 + r.int(6)) : 1
      const state = !failing ? 'delivered' : attempts === 8 ? 'failed' : 'pending'
      const last = e.at + (attempts - 1) * 60_000
      const { lastInsertRowid } = insertDelivery.run(
        `msg_${randomBase62(22)}`,
        endpoint,
        e.type,
        e.paymentId,
        e.linkId,
        e.at,
        state,
        attempts,
        // Retried later than the bench runs, so its sender stays idle.
        failing ? at + 3_600_000 + r.int(3_600_000) : e.at,
        payload,
        last,
        failing ? 503 : 200,
        failing ? 'Service Unavailable' : '{"ok":true}',
        40 + r.int(400),
        null,
        failing ? null : e.at + 300,
        e.at,
      )
      for (let k = 0; k < attempts; k++)
        insertAttempt.run(
          lastInsertRowid,
          e.at + k * 60_000,
          failing ? 503 : 200,
          failing ? 'Service Unavailable' : '{"ok":true}',
          40 + r.int(400),
          null,
        )
    }
    events.sort((a, b) => a.at - b.at)
    for (const e of events) {
      if (e.at > at) continue
      logged(shop, e, false)
      if (e.at >= at - 14 * DAY) logged(crm, e, e.at >= failingSince)
    }
  }
  const tillLink = (created: number, by: { email: string }) => {
    const id = `lnk_${randomBase62(16)}`
    const amount = 20_000 + r.int(300) * 500
    insertTillLink.run(
      id,
      randomBase62(12),
      amount,
      created + 15 * 60_000,
      created,
      created,
      by.email,
    )
    return { id, created, amount, min: amount, lang: 'fr' }
  }
  const linkRows: {
    id: string
    created: number
    amount: number | null
    min: number
    lang: string
  }[] = []
  sqlite.transaction(() => {
    for (let i = 0; i < linkCount; i++) {
      const id = `lnk_${randomBase62(16)}`
      const created = now - YEAR - 30 * DAY + Math.floor((i / linkCount) * YEAR)
      const kind = i % 4 // fixed, fixed with an invoice id, open, invoice items
      const items =
        kind === 3
          ? [
              {
                description: 'Article',
                quantity: 1 + r.int(3),
                unitPrice: 50_000 + r.int(200) * 100,
              },
              { description: 'Livraison', quantity: 1, unitPrice: 40_000 },
            ]
          : null
      const amount =
        kind === 2
          ? null
          : items
            ? items.reduce((s, x) => s + x.quantity * x.unitPrice, 0)
            : 100_000 + r.int(500) * 1000
      const lang = r.pick(LANGUAGES)
      insertLink.run(
        id,
        randomBase62(12),
        `${r.pick(TITLES)} ${i}`,
        i % 5 === 0 ? 'Paiement en ligne' : null,
        amount,
        kind === 2 ? 50_000 : null,
        kind === 2 ? 5_000_000 : null,
        kind === 1 ? `INV-${10_000 + i}` : null,
        items ? JSON.stringify(items) : null,
        i % 50 === 7 ? 1_000_000 : null,
        i % 40 === 3 ? now - 10 * DAY : null,
        lang,
        i % 25 === 0 ? 0 : 1,
        created,
        created,
      )
      linkRows.push({ id, created, amount, min: 50_000, lang })
    }
    const people = PEOPLE.map(([name, role]) => {
      const id = `usr_${randomBase62(16)}`
      const email = `${name.toLowerCase()}@shop.example.dz`
      // Not a password hash: nobody signs in as these people.
      insertUser.run(id, email, name, role, 'seeded', now - YEAR, now - YEAR)
      return { id, email, role }
    })
    const sellers = people.filter((p) => p.role === 'cashier' || p.role === 'manager')
    const tillSales = Math.round(paymentCount * TILL_SHARE)
    const finals: FinalEvent[] = []
    for (let i = 0; i < paymentCount; i++) {
      // The first ones are the till's sales, spread over its last days; each has its own link.
      const sale = i < tillSales
      // Skewed: a few links take most payments, as a merchant's best sellers do.
      const link = sale
        ? tillLink(now - Math.floor(((i + 0.5) / tillSales) * TILL_DAYS * DAY), r.pick(sellers))
        : linkRows[Math.floor(linkRows.length * r.next() ** 3)]!
      const created = sale
        ? link.created + 20_000
        : Math.max(link.created, now - Math.floor(r.next() * YEAR))
      const age = now - created
      const status =
        age < DAY && r.next() < 0.3
          ? r.pick(['initiated', 'pending'] as const)
          : settledStatus(r.next())
      const amount = link.amount ?? link.min + r.int(4_000) * 100
      const latin = r.next() < 0.6
      const first = latin ? r.pick(LATIN_FIRST) : r.pick(ARABIC_FIRST)
      const last = latin ? r.pick(LATIN_LAST) : r.pick(ARABIC_LAST)
      const toGateway = status !== 'initiated' && status !== 'error'
      const paid = status === 'paid'
      const settled = status !== 'initiated' && status !== 'pending'
      const txn = toGateway ? `${100_000_000 + i}` : null
      const paymentId = `pay_${randomBase62(16)}`
      const event = FINAL_EVENTS[status]
      if (event) finals.push({ at: created + 90_000, type: event, paymentId, linkId: link.id })
      insertPayment.run(
        paymentId,
        randomBase62(22),
        link.id,
        status,
        amount,
        `${first} ${last}`,
        `0${r.pick([5, 6, 7])}${String(r.int(100_000_000)).padStart(8, '0')}`,
        `${r.pick(LATIN_EMAIL)}.${r.int(1000)}@${r.pick(DOMAINS)}`,
        r.next() < 0.2 ? `REF-${i}` : null,
        link.lang,
        txn && `ord-${randomBase62(20)}`,
        txn && `${900_000 + i}`,
        txn && `TX${i}`,
        txn,
        paid ? String(100_000 + r.int(900_000)) : null,
        paid ? 'Votre paiement a été accepté' : null,
        created,
        settled ? created + 90_000 : created,
        paid ? created + 90_000 : null,
        settled ? created + 90_000 : null,
        failureCodeOf(status, r.next()),
        // The link's source, as the payment's INSERT copies it.
        sale ? 'till' : 'dashboard',
      )
    }
    seedWebhooks(finals, now)
    const actors = [
      { id: null, email: 'admin token', kind: 'admin' },
      ...people.map((p) => ({ id: p.id, email: p.email, kind: 'user' })),
    ]
    const auditCount = Math.round(paymentCount / 2)
    for (let i = 0; i < auditCount; i++) {
      const at = now - YEAR + Math.floor(((i + r.next()) / auditCount) * YEAR)
      const actor = r.pick(actors)
      const [action, targetKind] = r.pick(AUDITED)
      insertAudit.run(
        at,
        actor.kind,
        actor.id,
        actor.email,
        action,
        targetKind,
        targetKind ? `${targetKind}_${randomBase62(16)}` : null,
        action === 'export_downloaded' ? JSON.stringify({ status: 'paid' }) : null,
        `197.${r.int(256)}.${r.int(256)}.${r.int(256)}`,
      )
    }
  })()
  const byStatus = sqlite
    .prepare('SELECT status, count(*) AS n FROM payments GROUP BY status')
    .all()
  checkCounters(sqlite)
  sqlite.pragma('wal_checkpoint(TRUNCATE)')
  handle.close()
  return {
    links: linkCount,
    payments: paymentCount,
    tillSales: Math.round(paymentCount * TILL_SHARE),
    auditEntries: Math.round(paymentCount / 2),
    ms: performance.now() - started,
    byStatus,
  }
}

/** A payment's final status and the outbound event it sends. */
const FINAL_EVENTS: Partial<Record<string, string>> = {
  paid: 'payment.paid',
  failed: 'payment.failed',
  canceled: 'payment.canceled',
}
interface FinalEvent {
  at: number
  type: string
  paymentId: string
  linkId: string
}

// Declines as a card platform reports them: mostly refusals and low balances.
const DECLINES: Array<[string, number]> = [
  ['declined', 0.4],
  ['insufficient_funds', 0.3],
  ['authentication_failed', 0.15],
  ['expired_card', 0.1],
  ['unknown', 0.05],
]

/** The stored reason of a payment that did not succeed (src/domain/failure-reasons.ts's codes). */
function failureCodeOf(status: string, x: number): string | null {
  if (status === 'error') return 'gateway_error'
  if (status === 'expired') return 'session_expired'
  if (status === 'canceled') return 'canceled_by_customer'
  if (status !== 'failed') return null
  let sum = 0
  for (const [code, share] of DECLINES) {
    sum += share
    if (x < sum) return code
  }
  return 'declined'
}

function settledStatus(x: number): string {
  let sum = 0
  for (const [status, share] of SETTLED) {
    sum += share
    if (x < sum) return status
  }
  return 'paid'
}

/** Throws when a link's counters differ from what its payments add up to. */
function checkCounters(sqlite: ReturnType<typeof openSqlite>['sqlite']) {
  const wrong = sqlite
    .prepare(
      `SELECT count(*) AS n FROM links l WHERE
        l.paid_count != (SELECT count(*) FROM payments p WHERE p.link_id = l.id AND p.status = 'paid')
        OR l.paid_total != (SELECT coalesce(sum(amount), 0) FROM payments p
             WHERE p.link_id = l.id AND p.status = 'paid')
        OR l.in_flight_count != (SELECT count(*) FROM payments p
             WHERE p.link_id = l.id AND p.status IN ('initiated', 'pending'))`,
    )
    .get() as { n: number }
  if (wrong.n > 0) throw new Error(`${wrong.n} links have counters that differ from their payments`)
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [path, payments, links] = process.argv.slice(2)
  if (!path) {
    process.stderr.write('usage: npx tsx bench/seed-merchant.ts <db path> [payments] [links]\n')
    process.exit(2)
  }
  const summary = seedMerchant(path, Number(payments ?? 100_000), Number(links ?? 1_000))
  process.stdout.write(`${JSON.stringify({ ...summary, ms: Math.round(summary.ms) })}\n`)
}
