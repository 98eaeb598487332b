/**
 * The shop's own SQLite file: carts, orders, and the ids of the Paylinks events already handled.
 * Every change of an order's status is one conditional UPDATE, so two deliveries of the same
 * event, or two processes, can never both mark an order paid.
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS cart_items (
    cart_id    TEXT NOT NULL,
    product_id TEXT NOT NULL,
    quantity   INTEGER NOT NULL CHECK (quantity > 0),
    PRIMARY KEY (cart_id, product_id)
  );
  CREATE TABLE IF NOT EXISTS orders (
    id          TEXT PRIMARY KEY,               -- ord_…, sent to Paylinks as the reference
    cart_id     TEXT NOT NULL,
    items       TEXT NOT NULL,                  -- JSON [{product_id, name, quantity, unit_price}]
    total       INTEGER NOT NULL,               -- centimes
    language    TEXT NOT NULL,
    status      TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid')),
    checkout_id TEXT UNIQUE,                    -- chk_…, once Paylinks answered
    paid_at     TEXT,
    created_at  TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS orders_cart ON orders (cart_id, status);
  CREATE TABLE IF NOT EXISTS processed_events (
    webhook_id  TEXT PRIMARY KEY,               -- the webhook-id header: the same on every retry
    type        TEXT NOT NULL,
    received_at TEXT NOT NULL
  );
`

/**
 * How long a pending order is offered again to a "Pay" of the same cart: a little less than the
 * checkout's own life (CHECKOUT_SECONDS in checkout.mjs), so a retried "Pay" finds the same
 * checkout still open, and a customer coming back later gets a fresh one.
 */
const REUSE_MS = 25 * 60 * 1000

/** A random id with a prefix: `ord_4hX…`. Random, not 1, 2, 3: see README.md. */
export const newId = (prefix) => `${prefix}_${randomBytes(12).toString('base64url')}`

const now = () => new Date().toISOString()

/** Opens (and creates if needed) the shop's database; every query the shop runs is here. */
export function openShopDatabase(path) {
  mkdirSync(dirname(path), { recursive: true })
  const db = new Database(path)
  db.pragma('journal_mode = WAL')
  db.exec(SCHEMA)

  const q = {
    cart: db.prepare('SELECT product_id, quantity FROM cart_items WHERE cart_id = ?'),
    add: db.prepare(`INSERT INTO cart_items (cart_id, product_id, quantity) VALUES (?, ?, ?)
      ON CONFLICT (cart_id, product_id) DO UPDATE SET quantity = min(quantity + excluded.quantity, 99)`),
    remove: db.prepare('DELETE FROM cart_items WHERE cart_id = ? AND product_id = ?'),
    empty: db.prepare('DELETE FROM cart_items WHERE cart_id = ?'),
    reusable: db.prepare(`SELECT * FROM orders WHERE cart_id = ? AND status = 'pending'
      AND items = ? AND language = ? AND created_at > ? ORDER BY created_at DESC LIMIT 1`),
    insertOrder: db.prepare(`INSERT INTO orders (id, cart_id, items, total, language, created_at)
      VALUES (?, ?, ?, ?, ?, ?)`),
    order: db.prepare('SELECT * FROM orders WHERE id = ?'),
    orderByCheckout: db.prepare('SELECT * FROM orders WHERE checkout_id = ?'),
    // Set once: a replayed answer names the same checkout, so this is a no-op the second time.
    setCheckout: db.prepare(
      'UPDATE orders SET checkout_id = ? WHERE id = ? AND (checkout_id IS NULL OR checkout_id = ?)',
    ),
    recordEvent: db.prepare(
      'INSERT INTO processed_events (webhook_id, type, received_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
    ),
    // The only way an order becomes paid: pending, and the checkout's amount is the order's total.
    markPaid: db.prepare(`UPDATE orders SET status = 'paid', paid_at = ?,
        checkout_id = coalesce(checkout_id, ?)
      WHERE id = ? AND status = 'pending' AND total = ?`),
  }

  const readOrder = (row) => (row ? { ...row, items: JSON.parse(row.items) } : undefined)

  return {
    close: () => db.close(),

    /** The cart's lines: [{product_id, quantity}]. */
    cartItems: (cartId) => q.cart.all(cartId),
    addToCart: (cartId, productId, quantity) => q.add.run(cartId, productId, quantity),
    removeFromCart: (cartId, productId) => q.remove.run(cartId, productId),

    /**
     * The order a "Pay" of this cart stands for: the pending one made from the same lines a few
     * minutes ago (a double click, a retry after a time-out), or a new one. One transaction, so
     * two "Pay" requests at once still make one order.
     */
    orderForCart: db.transaction((cartId, items, total, language) => {
      const json = JSON.stringify(items)
      const since = new Date(Date.now() - REUSE_MS).toISOString()
      const kept = q.reusable.get(cartId, json, language, since)
      if (kept) return readOrder(kept)
      const id = newId('ord')
      q.insertOrder.run(id, cartId, json, total, language, now())
      return readOrder(q.order.get(id))
    }),

    order: (id) => readOrder(q.order.get(id)),
    orderByCheckout: (checkoutId) => readOrder(q.orderByCheckout.get(checkoutId)),
    setCheckout: (orderId, checkoutId) => q.setCheckout.run(checkoutId, orderId, checkoutId),

    /**
     * Handles one verified event once: records its webhook-id and, for a completed checkout,
     * marks the order paid and empties its cart, all in one transaction. Returns 'duplicate' for
     * an id already recorded (a redelivery: nothing changes), 'paid' when this event paid the
     * order, 'wrong_amount' when the checkout's amount is not the order's total (left pending, for
     * a person to look at), 'ignored' otherwise (another event type, an unknown or paid order).
     */
    handleEvent: db.transaction((webhookId, event) => {
      if (q.recordEvent.run(webhookId, event.type, now()).changes === 0) return 'duplicate'
      if (event.type !== 'checkout.completed') return 'ignored'
      const checkout = event.data
      const order = checkout.reference ? q.order.get(checkout.reference) : undefined
      if (!order) return 'ignored'
      // Paylinks' amounts are DZD with two decimals at most: whole centimes once rounded.
      const amount = Math.round(checkout.amount * 100)
      if (q.markPaid.run(now(), checkout.id, order.id, amount).changes === 1) {
        q.empty.run(order.cart_id)
        return 'paid'
      }
      return order.status === 'pending' && order.total !== amount ? 'wrong_amount' : 'ignored'
    }),
  }
}
