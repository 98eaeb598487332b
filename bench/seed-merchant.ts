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
 * The shop sells from a catalogue too: 500 products (a fifth with a stock, the rest unlimited, a
 * tenth archived), one link in twenty is a cart of one to four of them (some quantities the
 * customer chooses) taking promo codes, and 40 promo codes (percent or amount off, some limited,
 * some expired). A cart link's payments carry the lines they sold (names and prices of then),
 * their subtotal and, one in three, a code's discount; the products' sold and held units and the
 * codes' redemptions are then counted from the payments, as the database's triggers keep them.
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
  const insertProduct = sqlite.prepare(
    `INSERT INTO products (id, name, description, price, stock, sku, active, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const insertPromo = sqlite.prepare(
    `INSERT INTO promo_codes (id, code, percent_off, amount_off, min_amount, max_redemptions,
       expires_at, active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const setCart = sqlite.prepare(
    `UPDATE links SET line_items = ?, allow_promo_codes = 1, amount = ?, invoice_id = NULL,
       invoice_items = NULL WHERE id = ?`,
  )
  const setSold = sqlite.prepare(
    `UPDATE payments SET line_items = ?, subtotal = ?, discount = ?, promo_code = ?,
       promo_code_id = ? WHERE id = ?`,
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
  const catalogue = seedCatalogue(now, r, insertProduct, insertPromo)
  /** A cart link's lines: one to four products, some with a quantity the customer chooses. */
  const carts = new Map<string, CartLine[]>()
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
      if (i % 20 === 5) {
        const lines = cartLines(r, catalogue.products)
        const total = lines.reduce((sum, l) => sum + l.product.price * l.quantity, 0)
        setCart.run(JSON.stringify(lines.map(linkLine)), total, id)
        carts.set(id, lines)
        linkRows.push({ id, created, amount: total, min: 50_000, lang })
        continue
      }
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
      const cart = carts.get(link.id)
      const sold = cart && soldOrder(r, cart, catalogue.promos, created)
      const amount = sold
        ? sold.subtotal - sold.discount
        : (link.amount ?? link.min + r.int(4_000) * 100)
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
      if (sold) {
        const promo = sold.promo
        setSold.run(
          JSON.stringify(sold.lines),
          sold.subtotal,
          sold.discount,
          promo?.code ?? null,
          promo?.id ?? null,
          paymentId,
        )
      }
    }
    countSales(sqlite)
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

interface SeededProduct {
  id: string
  name: string
  sku: string | null
  price: number
}
interface SeededPromo {
  id: string
  code: string
  percentOff: number | null
  amountOff: number | null
  minAmount: number | null
  expiresAt: number | null
}
interface CartLine {
  product: SeededProduct
  quantity: number
  adjustable: { min: number; max: number } | null
}

const PRODUCT_NAMES = [
  'Tapis',
  'Tajine',
  'Miel',
  'Huile d’olive',
  'Burnous',
  'سجاد',
  'عسل',
  'Dattes',
]

/** The catalogue: 500 products and 40 promo codes, written before the links that sell them. */
function seedCatalogue(
  now: number,
  r: ReturnType<typeof random>,
  insertProduct: { run: (...v: unknown[]) => unknown },
  insertPromo: { run: (...v: unknown[]) => unknown },
) {
  const products: SeededProduct[] = []
  for (let i = 0; i < 500; i++) {
    const id = `prod_${randomBase62(16)}`
    const name = `${r.pick(PRODUCT_NAMES)} ${i}`
    const price = 50_000 + r.int(400) * 500
    const sku = i % 3 === 0 ? null : `SKU-${10_000 + i}`
    const created = now - YEAR - 31 * DAY + i * 60_000
    // A large stock where there is one: the year's sales come off it (countSales).
    const stock = i % 5 === 0 ? 100_000 : null
    insertProduct.run(
      id,
      name,
      i % 4 === 0 ? 'Fait main' : null,
      price,
      stock,
      sku,
      i % 10 === 9 ? 0 : 1,
      created,
      created,
    )
    // Archived products are in the list, never in a cart.
    if (i % 10 !== 9) products.push({ id, name, sku, price })
  }
  const promos: SeededPromo[] = []
  for (let i = 0; i < 40; i++) {
    const id = `promo_${randomBase62(16)}`
    const percent = i % 2 === 0
    const promo: SeededPromo = {
      id,
      code: `PROMO${100 + i}`,
      percentOff: percent ? 5 + r.int(4) * 5 : null,
      amountOff: percent ? null : 10_000 + r.int(5) * 5_000,
      minAmount: i % 4 === 1 ? 100_000 : null,
      expiresAt: i % 8 === 7 ? now - 30 * DAY : null,
    }
    insertPromo.run(
      id,
      promo.code,
      promo.percentOff,
      promo.amountOff,
      promo.minAmount,
      i % 5 === 0 ? 1_000_000 : null,
      promo.expiresAt,
      i % 10 === 3 ? 0 : 1,
      now - YEAR,
      now - YEAR,
    )
    promos.push(promo)
  }
  return { products, promos }
}

/** One to four distinct products; one line in three lets the customer choose 1 to 5. */
function cartLines(r: ReturnType<typeof random>, products: SeededProduct[]): CartLine[] {
  const lines: CartLine[] = []
  const count = 1 + r.int(4)
  while (lines.length < count) {
    const product = r.pick(products)
    if (lines.some((l) => l.product.id === product.id)) continue
    const adjustable = r.next() < 0.33 ? { min: 1, max: 5 } : null
    lines.push({ product, quantity: 1 + r.int(2), adjustable })
  }
  return lines
}

/** A link's line as the link stores it (src/domain/order.ts's LinkLineItem). */
function linkLine(line: CartLine) {
  return { productId: line.product.id, quantity: line.quantity, adjustable: line.adjustable }
}

/** What one payment on a cart link sold: its lines, their total and, one in three, a code's discount. */
function soldOrder(
  r: ReturnType<typeof random>,
  lines: CartLine[],
  promos: SeededPromo[],
  at: number,
) {
  const sold = lines.map((l) => ({
    productId: l.product.id,
    name: l.product.name,
    sku: l.product.sku,
    quantity: l.adjustable ? l.adjustable.min + r.int(l.adjustable.max) : l.quantity,
    unitPrice: l.product.price,
  }))
  const subtotal = sold.reduce((sum, l) => sum + l.unitPrice * l.quantity, 0)
  const promo = r.next() < 0.33 ? r.pick(promos) : null
  const usable =
    promo &&
    (promo.expiresAt === null || promo.expiresAt > at) &&
    subtotal >= (promo.minAmount ?? 0)
  const off = !usable
    ? 0
    : promo.percentOff !== null
      ? Math.floor((subtotal * promo.percentOff) / 100)
      : Math.min(promo.amountOff ?? 0, subtotal - 5_000)
  return { lines: sold, subtotal, discount: off, promo: usable ? promo : null }
}

/**
 * The products' sold and held units and the codes' redemptions, counted from the payments as the
 * triggers keep them (a seeded payment is written in its final status, past the triggers that
 * move them): paid lines sold (off the stock), in-flight ones held; paid payments redeem a code,
 * in-flight ones hold it.
 */
function countSales(sqlite: ReturnType<typeof openSqlite>['sqlite']) {
  // Summed once over the payments, by product and by code, then written to each row.
  sqlite.exec(`
    CREATE TEMP TABLE sales AS SELECT json_extract(j.value, '$.productId') AS id,
        sum(CASE WHEN p.status = 'paid' THEN json_extract(j.value, '$.quantity') END) AS sold,
        sum(CASE WHEN p.status IN ('initiated', 'pending')
          THEN json_extract(j.value, '$.quantity') END) AS held
      FROM payments p, json_each(p.line_items) j WHERE p.line_items IS NOT NULL GROUP BY 1;
    UPDATE products SET
      sold_count = coalesce((SELECT sold FROM temp.sales s WHERE s.id = products.id), 0),
      held_count = coalesce((SELECT held FROM temp.sales s WHERE s.id = products.id), 0);
    UPDATE products SET stock = stock - sold_count WHERE stock IS NOT NULL;
    CREATE TEMP TABLE redemptions AS SELECT promo_code_id AS id,
        sum(status = 'paid') AS redeemed, sum(status IN ('initiated', 'pending')) AS held
      FROM payments WHERE promo_code_id IS NOT NULL GROUP BY 1;
    UPDATE promo_codes SET
      redeemed_count = coalesce((SELECT redeemed FROM temp.redemptions r WHERE r.id = promo_codes.id), 0),
      held_count = coalesce((SELECT held FROM temp.redemptions r WHERE r.id = promo_codes.id), 0);
    DROP TABLE temp.sales;
    DROP TABLE temp.redemptions;`)
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
