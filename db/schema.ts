/**
 * The Paylinks database: the single source of truth for both SQLite on Node and D1 on Workers.
 * Times are integer milliseconds since the epoch (`*_at`); money is integer centimes.
 * Migrations in db/migrations are generated from this file with `npm run db:generate`.
 */
import { sql } from 'drizzle-orm'
import {
  check,
  customType,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/sqlite-core'
import { type Metadata, readMetadata } from '../src/domain/metadata.js'
import type {
  CustomField,
  CustomFieldValues,
  LinkLineItem,
  SoldLineItem,
} from '../src/domain/order.js'

declare global {
  /**
   * Set by the Worker's build only (wrangler.toml's [define]). The tables' indexes and checks
   * (each table's last argument) are what drizzle-kit generates the migrations from; no query
   * reads them, and D1 has them from the migrations, so the Worker's upload leaves them out.
   */
  var PAYLINKS_QUERIES_ONLY: true | undefined
}

/** The languages a link and its pages speak. */
export const LANGUAGES = ['ar', 'fr', 'en'] as const
export type Language = (typeof LANGUAGES)[number]

/** Every state a payment can be in (transitions live in src/domain/payment-state.ts). */
export const PAYMENT_STATUSES = [
  'initiated',
  'pending',
  'paid',
  'failed',
  'canceled',
  'expired',
  'error',
] as const
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]

/**
 * What moved a payment: the customer's checkout (creation, the gateway's answer to it), the
 * customer's return to the receipt, the gateway's webhook, the reconciler's scheduled check, the
 * merchant (dashboard, API or command line).
 */
export const TRANSITION_CAUSES = [
  'checkout',
  'return',
  'webhook',
  'reconciler',
  'merchant',
] as const
export type TransitionCause = (typeof TRANSITION_CAUSES)[number]

/**
 * Why a payment did not succeed, in a small stable set read from the card network's answers
 * (src/domain/failure-reasons.ts): what the customer, the dashboard, the CSV and the API show.
 */
export const FAILURE_CODES = [
  'insufficient_funds',
  'expired_card',
  'declined',
  'authentication_failed',
  'canceled_by_customer',
  'session_expired',
  'gateway_error',
  'unknown',
] as const
export type FailureCode = (typeof FAILURE_CODES)[number]

/**
 * Where a link was made: the dashboard's form, the merchant API, the till, or a checkout session
 * (the link a checkout pays through, made with it: see `checkouts`). Null: before 0016.
 */
export const LINK_SOURCES = ['dashboard', 'api', 'till', 'checkout'] as const
export type LinkSource = (typeof LINK_SOURCES)[number]

export const WEBHOOK_EVENT_STATUSES = ['received', 'processed', 'ignored', 'failed'] as const
export type WebhookEventStatus = (typeof WEBHOOK_EVENT_STATUSES)[number]

// A literal list for CHECK constraints: the generated SQL must not carry bound parameters.
function sqlList(values: readonly string[]) {
  return sql.raw(`(${values.map((v) => `'${v}'`).join(', ')})`)
}

/** One line of an invoice link; `unitPrice` is in centimes. */
export type InvoiceItem = { description: string; quantity: number; unitPrice: number }

const isItem = (v: unknown): v is InvoiceItem =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as InvoiceItem).description === 'string' &&
  typeof (v as InvoiceItem).quantity === 'number' &&
  typeof (v as InvoiceItem).unitPrice === 'number'

/**
 * Invoice items as JSON text. Read back leniently: text that is not JSON or not a list reads as
 * no items and a malformed line is left out, so one row written by other means cannot make every
 * page that lists links fail (the column is TEXT either way; no migration).
 */
const invoiceItemsJson = customType<{ data: InvoiceItem[] | null; driverData: string }>({
  dataType: () => 'text',
  toDriver: (items) => JSON.stringify(items),
  fromDriver: (text) => {
    try {
      const value: unknown = JSON.parse(text)
      return Array.isArray(value) ? value.filter(isItem) : null
    } catch {
      return null
    }
  },
})

/**
 * A merchant's metadata (src/domain/metadata.ts) as JSON text, `{}` when there is none. Read back
 * leniently, like invoice items: text that is not a JSON object of texts reads as none.
 */
const metadataJson = customType<{ data: Metadata; driverData: string }>({
  dataType: () => 'text',
  toDriver: (metadata) => JSON.stringify(metadata),
  fromDriver: (text) => readMetadata(text),
})

export const links = sqliteTable(
  'links',
  {
    id: text('id').primaryKey(),
    slug: text('slug').notNull().unique(),
    title: text('title').notNull(),
    description: text('description'),
    // Fixed and invoice links: the amount to pay. Open links: null, with amount_min/amount_max.
    amount: integer('amount'),
    amountMin: integer('amount_min'),
    amountMax: integer('amount_max'),
    invoiceId: text('invoice_id'),
    invoiceItems: invoiceItemsJson('invoice_items'),
    maxPayments: integer('max_payments'),
    expiresAt: integer('expires_at'),
    language: text('language', { enum: LANGUAGES }).notNull(),
    memo: text('memo'),
    successMessage: text('success_message'),
    successUrl: text('success_url'),
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
    inactiveMessage: text('inactive_message'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    // What the link's payments add up to, kept by SQLite triggers on payments (migration
    // 0006_link_counter_triggers), inside the statement that moves a payment: paid payments,
    // their total in centimes (each its amount less the customer's fee, 0028_deposit_balance),
    // and `initiated` or `pending` ones (each holds a place).
    paidCount: integer('paid_count').notNull().default(0),
    paidTotal: integer('paid_total').notNull().default(0),
    inFlightCount: integer('in_flight_count').notNull().default(0),
    // Where the link was made (LINK_SOURCES; null for links made before migration 0016, which
    // read as the dashboard's) and, for the till, who made it (the principal's label): a till
    // sale is a till link, and its payments are the till's (each keeps a copy: payments.source).
    source: text('source', { enum: LINK_SOURCES }),
    createdBy: text('created_by'),
    // The merchant's metadata, copied to each payment by the INSERT that starts it (migration 0023).
    metadata: metadataJson('metadata').notNull().default({}),
    // Selling (src/domain/order.ts): the products of a cart, the questions the customer answers,
    // whether a promo code is taken, whether the customer pays the fee (settings'
    // customer_fee_percent), and a deposit's least payment (`allow_partial.min_amount`).
    lineItems: text('line_items', { mode: 'json' }).$type<LinkLineItem[]>(),
    customFields: text('custom_fields', { mode: 'json' }).$type<CustomField[]>(),
    allowPromoCodes: integer('allow_promo_codes', { mode: 'boolean' }).notNull().default(false),
    customerFee: integer('customer_fee', { mode: 'boolean' }).notNull().default(false),
    partialMinAmount: integer('partial_min_amount'),
    // The parts (amount less fee) of the link's `initiated` and `pending` payments, kept by
    // 0028_deposit_balance's triggers: a deposit link's balance held by payments in flight, so
    // two of them never pay more than is due.
    inFlightTotal: integer('in_flight_total').notNull().default(0),
  },
  globalThis.PAYLINKS_QUERIES_ONLY
    ? undefined
    : (t) => [
        index('links_created_at_idx').on(t.createdAt, t.id),
        // The till's open sale and its shift report read till links by time.
        index('links_source_created_at_idx').on(t.source, t.createdAt),
        check('links_max_payments_positive', sql`${t.maxPayments} IS NULL OR ${t.maxPayments} > 0`),
        check('links_amount_positive', sql`${t.amount} IS NULL OR ${t.amount} > 0`),
      ],
)

export const payments = sqliteTable(
  'payments',
  {
    id: text('id').primaryKey(),
    // The unguessable id in the customer's receipt URL (/r/:receiptId).
    receiptId: text('receipt_id').notNull().unique(),
    linkId: text('link_id')
      .notNull()
      .references(() => links.id),
    status: text('status', { enum: PAYMENT_STATUSES }).notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull().default('012'),
    customerName: text('customer_name').notNull(),
    customerPhone: text('customer_phone').notNull(),
    customerEmail: text('customer_email').notNull(),
    ref: text('ref'),
    language: text('language', { enum: LANGUAGES }).notNull(),
    invoiceId: text('invoice_id'),
    // The card network's order id (creation answer's cib_response.orderId, webhook order_id).
    orderId: text('order_id'),
    orderNumber: text('order_number'),
    transactionId: text('transaction_id'),
    cibTransactionId: text('cib_transaction_id').unique(),
    paymentUrl: text('payment_url'),
    approvalCode: text('approval_code'),
    message: text('message'),
    respCode: text('resp_code'),
    actionCode: text('action_code'),
    errorReason: text('error_reason'),
    gatewayResponse: text('gateway_response', { mode: 'json' }).$type<unknown>(),
    checkResponse: text('check_response', { mode: 'json' }).$type<unknown>(),
    checkAttempts: integer('check_attempts').notNull().default(0),
    nextCheckAt: integer('next_check_at'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    paidAt: integer('paid_at'),
    settledAt: integer('settled_at'),
    // Paid while other paid payments already filled the link's max_payments (its place had been
    // released, e.g. it had expired): the money was taken, so the merchant must hear of it.
    beyondMaxPayments: integer('beyond_max_payments', { mode: 'boolean' }).notNull().default(false),
    // What made the last change of status (TRANSITION_CAUSES), written by the same UPDATE; the
    // trigger that records the change in payment_events copies it.
    statusCause: text('status_cause', { enum: TRANSITION_CAUSES }),
    // Set with a failed, canceled, expired or error status (FAILURE_CODES); null otherwise.
    failureCode: text('failure_code', { enum: FAILURE_CODES }),
    // Where the payment's link was made (LINK_SOURCES; a link older than links.source reads as
    // the dashboard's), copied from the link by the INSERT that starts the payment: a link's
    // source never changes. Migration 0020 filled it for the payments before it.
    source: text('source', { enum: LINK_SOURCES }).notNull().default('dashboard'),
    // The link's metadata when the payment started, copied by the same INSERT: a later change of
    // the link's metadata leaves the payments already made with what they were sold with.
    metadata: metadataJson('metadata').notNull().default({}),
    // The checkout session the payment's link belongs to (null for other links), copied by the
    // INSERT that starts it (migration 0025), like its metadata.
    checkoutId: text('checkout_id'),
    // What was sold (src/domain/order.ts), written by the INSERT that starts the payment: amount =
    // subtotal − discount + fee. Null subtotal: a payment from before carts (subtotal = amount).
    subtotal: integer('subtotal'),
    discount: integer('discount').notNull().default(0),
    fee: integer('fee').notNull().default(0),
    promoCode: text('promo_code'),
    promoCodeId: text('promo_code_id'),
    lineItems: text('line_items', { mode: 'json' }).$type<SoldLineItem[]>(),
    customFields: text('custom_fields', { mode: 'json' }).$type<CustomFieldValues>(),
  },
  globalThis.PAYLINKS_QUERIES_ONLY
    ? undefined
    : (t) => [
        index('payments_link_status_idx').on(t.linkId, t.status),
        index('payments_status_next_check_idx').on(t.status, t.nextCheckAt),
        index('payments_created_at_idx').on(t.createdAt, t.id),
        // The payments lists filtered by status or by link, newest first, read in index order
        // (no sort of every matching row for a page of 50): test/data/query-plans.test.ts. The
        // failure code rides along so the overview's reasons (unsuccessful payments of 30 days,
        // by code) are read from the index alone (migration 0021).
        index('payments_status_created_at_idx').on(t.status, t.createdAt, t.id, t.failureCode),
        index('payments_link_created_at_idx').on(t.linkId, t.createdAt, t.id),
        // The till's sales (and each other source's payments) newest first: `source=till`.
        index('payments_source_created_at_idx').on(t.source, t.createdAt, t.id),
        // A link's payments recorded past its maximum (the link page counts them), without reading
        // every payment of a busy link: only the rare flagged rows are in it (migration 0019).
        index('payments_beyond_max_idx').on(t.linkId).where(sql`${t.beyondMaxPayments} = 1`),
        // The dashboard's overview: money collected per Algiers day and per link over 30 days, read
        // from this index alone (paid_at, amount and link_id in it), not from every paid row.
        index('payments_status_paid_at_idx').on(t.status, t.paidAt, t.amount, t.linkId),
        check('payments_amount_positive', sql`${t.amount} > 0`),
        check('payments_status_known', sql`${t.status} IN ${sqlList(PAYMENT_STATUSES)}`),
      ],
)

/**
 * Every change of a payment's status, in order: written by triggers on `payments` (migration
 * 0008) inside the statement that makes the change, so a change that did not happen has no row and
 * none is lost. The payment's timeline and the outbound notifications read it.
 */
export const paymentEvents = sqliteTable(
  'payment_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    paymentId: text('payment_id').notNull(),
    linkId: text('link_id').notNull(),
    // Null for the payment's creation.
    fromStatus: text('from_status', { enum: PAYMENT_STATUSES }),
    toStatus: text('to_status', { enum: PAYMENT_STATUSES }).notNull(),
    cause: text('cause', { enum: TRANSITION_CAUSES }),
    at: integer('at').notNull(),
  },
  globalThis.PAYLINKS_QUERIES_ONLY
    ? undefined
    : (t) => [index('payment_events_payment_idx').on(t.paymentId, t.id)],
)

export type PaymentEvent = typeof paymentEvents.$inferSelect

export const webhookEvents = sqliteTable(
  'webhook_events',
  {
    id: text('id').primaryKey(),
    // Computed by the receiver (the signed pair's SHA-256 and the transaction, src/data/gateway-inbox.ts
    // `inboxKey`) so a redelivery maps to one row.
    dedupeKey: text('dedupe_key').notNull().unique(),
    cibTransactionId: text('cib_transaction_id'),
    paymentStatus: text('payment_status'),
    paymentId: text('payment_id'),
    payload: text('payload').notNull(),
    receivedAt: integer('received_at').notNull(),
    processedAt: integer('processed_at'),
    status: text('status', { enum: WEBHOOK_EVENT_STATUSES }).notNull().default('received'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
  },
  // By dedupe key and id only: each index is one more page written by every delivery
  // (docs/decisions/performance.md, "Only the indexes that are read"). A payment's page finds its
  // deliveries by a range of ids, which sort by time (src/data/payment-inbox.ts). The partial
  // index holds only the rows still to be processed, for the reconciler to finish them
  // (src/data/gateway-inbox.ts `listInboxDue`); a delivery recorded `processed` or `ignored` never
  // enters it. Its 10 is INBOX_MAX_ATTEMPTS (src/domain/check-schedule.ts).
  globalThis.PAYLINKS_QUERIES_ONLY
    ? undefined
    : (t) => [
        check(
          'webhook_events_status_known',
          sql`${t.status} IN ${sqlList(WEBHOOK_EVENT_STATUSES)}`,
        ),
        index('webhook_events_unsettled_idx')
          .on(t.receivedAt)
          .where(sql`${t.status} IN ('received', 'failed') AND ${t.attempts} < 10`),
      ],
)

/** Generated secrets that must survive restarts (the admin token hash, the session secret). */
export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  createdAt: integer('created_at').notNull(),
})

/** Fixed-window counters, one row per limited key. */
export const rateLimits = sqliteTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: integer('window_start').notNull(),
  count: integer('count').notNull(),
})

/**
 * Single-use proofs already used (a captcha solution), each kept until it expires by itself:
 * unlike a rate-limit window, nothing forgets one while it could still be presented.
 */
export const spentTokens = sqliteTable(
  'spent_tokens',
  {
    key: text('key').primaryKey(),
    expiresAt: integer('expires_at').notNull(),
  },
  globalThis.PAYLINKS_QUERIES_ONLY
    ? undefined
    : (t) => [index('spent_tokens_expires_at_idx').on(t.expiresAt)],
)

/** The counters the database keeps on a link row (see `links`); nothing else writes them. */
export type LinkCounters = Pick<
  typeof links.$inferSelect,
  'paidCount' | 'paidTotal' | 'inFlightCount'
>
/** A link as the merchant defines it; a row read from the table also carries its LinkCounters. */
export type Link = Omit<typeof links.$inferSelect, keyof LinkCounters>
export type NewLink = Omit<typeof links.$inferInsert, keyof LinkCounters>
export type Payment = typeof payments.$inferSelect
export type NewPayment = typeof payments.$inferInsert
export type WebhookEvent = typeof webhookEvents.$inferSelect
export type Setting = typeof settings.$inferSelect
export type RateLimit = typeof rateLimits.$inferSelect

/*
 * Search (migration 0009, written by hand: drizzle has no virtual tables). `payments_search` is an
 * FTS5 index with the trigram tokenizer over payments' customer_name, customer_phone,
 * customer_email, order_number, cib_transaction_id and ref; `links_search` over links' title. Both
 * are external-content tables (no copy of the text) keyed by the rowid, kept by triggers on
 * payments and links; src/data/search-sql.ts reads them.
 */
/**
 * What an outbound event announces: a payment reaching a final status, or a link whose paid
 * payments reached its max_payments. The delivery triggers of migration 0012 write these names.
 */
export const OUTBOUND_EVENT_TYPES = [
  'payment.paid',
  'payment.failed',
  'payment.canceled',
  'payment.expired',
  'link.completed',
  'checkout.completed',
  'checkout.expired',
] as const
export type OutboundEventType = (typeof OUTBOUND_EVENT_TYPES)[number]

/** How a delivery leaves: a signed webhook to an endpoint, or mail (sent by src/mail/). */
export const DELIVERY_CHANNELS = ['webhook', 'mail'] as const
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number]

/** Which e-mail a mail delivery sends (migration 0013: one row per e-mail, so each is sent once). */
export const MAIL_KINDS = ['customer_receipt', 'merchant_notice'] as const
export type MailKind = (typeof MAIL_KINDS)[number]

/** pending (due at next_attempt_at), delivered, or failed for good (retries exhausted). */
export const DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const
export type DeliveryState = (typeof DELIVERY_STATES)[number]

/**
 * The merchant's webhook endpoints. `event_types` is a JSON list of OUTBOUND_EVENT_TYPES (the
 * delivery triggers read it with json_each); during a rotation the previous secret still signs
 * until `previous_secret_expires_at`.
 */
export const webhookEndpoints = sqliteTable('webhook_endpoints', {
  id: text('id').primaryKey(),
  url: text('url').notNull(),
  description: text('description'),
  eventTypes: text('event_types', { mode: 'json' }).$type<OutboundEventType[]>().notNull(),
  enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
  secret: text('secret').notNull(),
  previousSecret: text('previous_secret'),
  previousSecretExpiresAt: integer('previous_secret_expires_at'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
  consecutiveFailures: integer('consecutive_failures').notNull().default(0),
  // Set when consecutive_failures reaches the failing threshold; a delivered attempt clears it.
  failingSince: integer('failing_since'),
})

/**
 * The outbox: one row per (endpoint, event) for webhooks, one per e-mail of a paid payment for
 * mail (the receipt, and the merchant's notice when notices are `each`), written by triggers
 * (migrations 0012, 0013) inside the statement that changes the payment, so no event is lost
 * or invented. `event_id` (msg_…) is the webhook-id, the same on every attempt; `payload` is built
 * at the first attempt and kept, so retries send the same bytes.
 */
export const deliveries = sqliteTable(
  'deliveries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    eventId: text('event_id').notNull().unique(),
    channel: text('channel', { enum: DELIVERY_CHANNELS }).notNull(),
    // Null for mail.
    endpointId: text('endpoint_id'),
    type: text('type', { enum: OUTBOUND_EVENT_TYPES }).notNull(),
    paymentId: text('payment_id'),
    linkId: text('link_id').notNull(),
    // The payment_events row announced (null for link.completed).
    paymentEventId: integer('payment_event_id'),
    // When the event happened: the payload's timestamp.
    occurredAt: integer('occurred_at').notNull(),
    state: text('state', { enum: DELIVERY_STATES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at').notNull(),
    payload: text('payload'),
    lastAttemptAt: integer('last_attempt_at'),
    lastStatus: integer('last_status'),
    lastResponse: text('last_response'),
    lastDurationMs: integer('last_duration_ms'),
    lastError: text('last_error'),
    deliveredAt: integer('delivered_at'),
    createdAt: integer('created_at').notNull(),
    // Mail rows: which e-mail (null for webhooks).
    mailKind: text('mail_kind', { enum: MAIL_KINDS }),
  },
  globalThis.PAYLINKS_QUERIES_ONLY
    ? undefined
    : (t) => [
        index('deliveries_due_idx').on(t.state, t.nextAttemptAt),
        index('deliveries_endpoint_idx').on(t.endpointId, t.id),
        index('deliveries_endpoint_payment_idx').on(t.endpointId, t.paymentId, t.id),
        check('deliveries_state_known', sql`${t.state} IN ${sqlList(DELIVERY_STATES)}`),
        check('deliveries_channel_known', sql`${t.channel} IN ${sqlList(DELIVERY_CHANNELS)}`),
      ],
)

/** Each attempt at a delivery, for the delivery log: its answer cut to 1 KB, or its error. */
export const deliveryAttempts = sqliteTable(
  'delivery_attempts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    deliveryId: integer('delivery_id').notNull(),
    at: integer('at').notNull(),
    status: integer('status'),
    responseExcerpt: text('response_excerpt'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
  },
  globalThis.PAYLINKS_QUERIES_ONLY
    ? undefined
    : (t) => [index('delivery_attempts_delivery_idx').on(t.deliveryId, t.id)],
)

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect
export type Delivery = typeof deliveries.$inferSelect
export type DeliveryAttempt = typeof deliveryAttempts.$inferSelect

/**
 * What a person may do in a store (src/auth/roles.ts gives each its permissions): owner —
 * everything; manager — links, payments, exports, webhooks; cashier — the till and today's
 * payments; viewer — read only.
 */
export const ROLES = ['owner', 'manager', 'cashier', 'viewer'] as const
export type Role = (typeof ROLES)[number]

/** What an API key may do: read (GET) or write (everything its creator's role allows). */
export const API_KEY_SCOPES = ['read', 'write'] as const
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number]

/**
 * The people who sign in to the dashboard. `email` is kept lower-case; `password_hash` is the
 * self-describing string of src/security/passwords.ts. `totp_secret` is set at enrolment and
 * counts once `totp_enabled_at` is; `recovery_codes` is a JSON list of hashes, each removed
 * when used. A disabled person cannot sign in and their sessions and keys stop working.
 */
export const users = sqliteTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull().unique(),
    name: text('name').notNull(),
    role: text('role', { enum: ROLES }).notNull(),
    passwordHash: text('password_hash').notNull(),
    totpSecret: text('totp_secret'),
    totpEnabledAt: integer('totp_enabled_at'),
    // The last TOTP step accepted: a code is good once, so that step and any earlier are refused.
    totpLastStep: integer('totp_last_step'),
    recoveryCodes: text('recovery_codes', { mode: 'json' }).$type<string[]>(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    lastLoginAt: integer('last_login_at'),
    disabledAt: integer('disabled_at'),
  },
  globalThis.PAYLINKS_QUERIES_ONLY
    ? undefined
    : (t) => [check('users_role_known', sql`${t.role} IN ${sqlList(ROLES)}`)],
)

/**
 * One-time invitations: the link carries a token whose SHA-256 is `token_hash`; accepting it
 * (before `expires_at`, once) creates the person with `role`.
 */
export const invites = sqliteTable(
  'invites',
  {
    id: text('id').primaryKey(),
    tokenHash: text('token_hash').notNull().unique(),
    email: text('email').notNull(),
    role: text('role', { enum: ROLES }).notNull(),
    // The inviter's user id; null when invited with the admin token.
    invitedBy: text('invited_by'),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    acceptedAt: integer('accepted_at'),
    revokedAt: integer('revoked_at'),
  },
  globalThis.PAYLINKS_QUERIES_ONLY
    ? undefined
    : (t) => [check('invites_role_known', sql`${t.role} IN ${sqlList(ROLES)}`)],
)

/**
 * Dashboard sessions, by the SHA-256 of the cookie's random token (a copy of the database opens
 * no session). `user_id` is null for a session opened with the admin token, which then records
 * the first 16 characters of that token's hash: replacing ADMIN_TOKEN ends those sessions.
 * "Log out everywhere" deletes rows.
 */
export const sessions = sqliteTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: text('user_id'),
    adminKey: text('admin_key'),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  globalThis.PAYLINKS_QUERIES_ONLY
    ? undefined
    : (t) => [
        index('sessions_user_idx').on(t.userId),
        index('sessions_expires_idx').on(t.expiresAt),
      ],
)

/**
 * API keys for people and integrations: shown once as `plk_<prefix>_<secret>`, stored as the
 * SHA-256 of the whole key. `user_id` is the person the key acts for (null: the store, as its
 * owner); a key never does more than that person's role allows, nor more than its scope.
 */
export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    scope: text('scope', { enum: API_KEY_SCOPES }).notNull(),
    userId: text('user_id'),
    createdBy: text('created_by'),
    createdAt: integer('created_at').notNull(),
    lastUsedAt: integer('last_used_at'),
    revokedAt: integer('revoked_at'),
  },
  globalThis.PAYLINKS_QUERIES_ONLY
    ? undefined
    : (t) => [check('api_keys_scope_known', sql`${t.scope} IN ${sqlList(API_KEY_SCOPES)}`)],
)

/**
 * Who did what and when. `actor_kind` is admin (the admin token), user, key, system or anonymous
 * (a failed login names no one); `actor_label` is the e-mail or key name at the time, so the
 * entry stays readable after the person or key is gone. `detail` is JSON and never holds a
 * secret, a password or a customer's data.
 */
export const auditLog = sqliteTable(
  'audit_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    at: integer('at').notNull(),
    actorKind: text('actor_kind').notNull(),
    actorId: text('actor_id'),
    actorLabel: text('actor_label'),
    action: text('action').notNull(),
    targetKind: text('target_kind'),
    targetId: text('target_id'),
    detail: text('detail', { mode: 'json' }).$type<Record<string, unknown>>(),
    address: text('address'),
  },
  globalThis.PAYLINKS_QUERIES_ONLY
    ? undefined
    : (t) => [
        index('audit_log_at_idx').on(t.at),
        index('audit_log_action_idx').on(t.action, t.at),
        // The log filtered by who acted (migration 0017).
        index('audit_log_actor_idx').on(t.actorId, t.at),
      ],
)

export type User = typeof users.$inferSelect
export type Invite = typeof invites.$inferSelect
export type ApiKey = typeof apiKeys.$inferSelect
export type AuditEntry = typeof auditLog.$inferSelect

/**
 * The merchant's branding, set in the dashboard's settings: one row (id 1), each column null
 * while the environment's value applies. `version` grows with every change; the checkout reads
 * it with the link, so every process and Workers isolate sees a change at once.
 */
export const branding = sqliteTable(
  'branding',
  {
    id: integer('id').primaryKey(),
    version: integer('version').notNull(),
    merchantName: text('merchant_name'),
    brandColor: text('brand_color'),
    contactPhone: text('contact_phone'),
    contactEmail: text('contact_email'),
    contactAddress: text('contact_address'),
    termsUrl: text('terms_url'),
    termsAr: text('terms_ar'),
    termsFr: text('terms_fr'),
    termsEn: text('terms_en'),
    defaultLanguage: text('default_language', { enum: LANGUAGES }),
    receiptFooter: text('receipt_footer'),
    /** The logo's SHA-256 (hex), type and size: its address and `<img>` without reading it. */
    logoHash: text('logo_hash'),
    logoType: text('logo_type'),
    logoWidth: integer('logo_width'),
    logoHeight: integer('logo_height'),
    updatedAt: integer('updated_at').notNull(),
  },
  globalThis.PAYLINKS_QUERIES_ONLY
    ? undefined
    : (t) => [check('branding_one_row', sql`${t.id} = 1`)],
)

/** Bytes as a BLOB: better-sqlite3 gives a Buffer, D1 an array or ArrayBuffer. */
const bytes = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'blob',
  toDriver: (value) => value,
  fromDriver: (value) =>
    value instanceof Uint8Array ? value : new Uint8Array(value as unknown as ArrayLike<number>),
})

/**
 * Logos by SHA-256 (hex): checked PNG, JPEG or WebP bytes, served at their hash's address. A new
 * one is stored before `branding` points at it and the others are then removed, so the current
 * logo is always there.
 */
export const logo = sqliteTable('logo', {
  sha256: text('sha256').primaryKey(),
  contentType: text('content_type').notNull(),
  bytes: bytes('bytes').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  updatedAt: integer('updated_at').notNull(),
})

export type Branding = typeof branding.$inferSelect

/** Where an `Idempotency-Key` stands: its first request still running, or answered and kept. */
export const IDEMPOTENCY_STATES = ['running', 'done'] as const
export type IdempotencyState = (typeof IDEMPOTENCY_STATES)[number]

/**
 * The merchant API's `Idempotency-Key`s, per credential (an API key's id, or `admin` for the admin
 * token) and key: the first request's method, path and body hash, and once it is answered, the
 * answer (status, the headers that matter, body bytes) to replay for 24 hours from `created_at`.
 * The kept bodies are the API's own answers, so they may hold customer data, like `payments`.
 * See docs/decisions/idempotency.md.
 */
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    credentialId: text('credential_id').notNull(),
    key: text('key').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    bodySha256: text('body_sha256').notNull(),
    state: text('state', { enum: IDEMPOTENCY_STATES }).notNull(),
    /** A random id of the run that holds the key: only it stores the answer or lets the key go. */
    attempt: text('attempt').notNull(),
    status: integer('status'),
    /** `[[name, value], …]` of the answer's headers a replay gives again (Content-Type, Location). */
    headers: text('headers', { mode: 'json' }).$type<[string, string][]>(),
    body: bytes('body'),
    createdAt: integer('created_at').notNull(),
  },
  globalThis.PAYLINKS_QUERIES_ONLY
    ? undefined
    : (t) => [
        primaryKey({ columns: [t.credentialId, t.key] }),
        index('idempotency_keys_created_at_idx').on(t.createdAt),
        check('idempotency_keys_state_known', sql`${t.state} IN ${sqlList(IDEMPOTENCY_STATES)}`),
      ],
)

export type IdempotencyRecord = typeof idempotencyKeys.$inferSelect

/** Where a checkout session stands (docs/decisions/checkouts.md). */
export const CHECKOUT_STATUSES = ['open', 'completed', 'expired', 'canceled'] as const
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number]

/** A checkout's line item as the shop gave it: a name, a quantity and a unit price in centimes. */
export type CheckoutLineItem = {
  name: string
  quantity: number
  unitPrice: number
  /** A product of the catalogue: the name and price it had when the checkout was made. */
  productId?: string
}

/**
 * Checkout sessions: a shop's order to be paid once (`chk_…`). Each pays through a link of its own
 * (`links.source` = `checkout`, at most one payment, expiring with it), so the customer's page,
 * places, retries and the gateway's flow are a link's. The triggers of migration 0025 keep the
 * checkout's status in the statements that move its payments: the link's paid_count reaching 1
 * completes it (and names the payment), and `checkout.completed` / `checkout.expired` deliveries
 * are written by the UPDATE that changes the status. See docs/decisions/checkouts.md.
 */
export const checkouts = sqliteTable(
  'checkouts',
  {
    id: text('id').primaryKey(),
    linkId: text('link_id')
      .notNull()
      .unique()
      .references(() => links.id),
    status: text('status', { enum: CHECKOUT_STATUSES }).notNull().default('open'),
    /** The shop's order id (≤ 100 characters), kept as its payments' `ref`. */
    reference: text('reference'),
    amount: integer('amount').notNull(),
    lineItems: text('line_items', { mode: 'json' }).$type<CheckoutLineItem[]>(),
    customerName: text('customer_name'),
    customerPhone: text('customer_phone'),
    customerEmail: text('customer_email'),
    successUrl: text('success_url').notNull(),
    cancelUrl: text('cancel_url'),
    expiresAt: integer('expires_at').notNull(),
    /** The paid payment, set by the trigger that completes the checkout. */
    paymentId: text('payment_id'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    completedAt: integer('completed_at'),
  },
  globalThis.PAYLINKS_QUERIES_ONLY
    ? undefined
    : (t) => [
        index('checkouts_created_at_idx').on(t.createdAt, t.id),
        index('checkouts_status_created_at_idx').on(t.status, t.createdAt, t.id),
        index('checkouts_reference_idx').on(t.reference, t.createdAt, t.id),
        // The reconciler's sweep of open checkouts past their time.
        index('checkouts_status_expires_at_idx').on(t.status, t.expiresAt),
        check('checkouts_status_known', sql`${t.status} IN ${sqlList(CHECKOUT_STATUSES)}`),
        check('checkouts_amount_positive', sql`${t.amount} > 0`),
      ],
)

export type Checkout = typeof checkouts.$inferSelect

/**
 * The catalogue: products with a price (centimes) and a stock (null: unlimited). `sold_count` is
 * how many units payments have taken; a product sold once is archived (`active` false), never
 * deleted. The SKU, when set, is unique whatever its case (an index on `lower(sku)`; a SKU is
 * ASCII, so lower() folds every letter it may hold). The image, when set, is a row of
 * `product_images` named by its SHA-256, served at its hash's address.
 */
export const products = sqliteTable(
  'products',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description'),
    price: integer('price').notNull(),
    stock: integer('stock'),
    sku: text('sku'),
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
    imageHash: text('image_hash'),
    imageType: text('image_type'),
    imageWidth: integer('image_width'),
    imageHeight: integer('image_height'),
    soldCount: integer('sold_count').notNull().default(0),
    // Units held by payments in flight (`initiated`, `pending`): what may still be sold is
    // stock − held_count. Kept by triggers on payments, in the statement that moves the payment.
    heldCount: integer('held_count').notNull().default(0),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  globalThis.PAYLINKS_QUERIES_ONLY
    ? undefined
    : (t) => [
        index('products_created_at_idx').on(t.createdAt, t.id),
        uniqueIndex('products_sku_unique').on(sql`lower(${t.sku})`),
        index('products_image_hash_idx').on(t.imageHash),
        check('products_price_positive', sql`${t.price} > 0`),
        check('products_stock_not_negative', sql`${t.stock} IS NULL OR ${t.stock} >= 0`),
        check('products_sold_count_not_negative', sql`${t.soldCount} >= 0`),
      ],
)

export type Product = typeof products.$inferSelect

/**
 * Product images by SHA-256 (hex): checked PNG, JPEG or WebP bytes (src/domain/logo-image.ts),
 * served at their hash's address; a row no product names any more is removed.
 */
export const productImages = sqliteTable('product_images', {
  sha256: text('sha256').primaryKey(),
  contentType: text('content_type').notNull(),
  bytes: bytes('bytes').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  createdAt: integer('created_at').notNull(),
})

/**
 * Promo codes (`promo_…`): a percent or an amount off, taken on links and checkouts that allow
 * them. The code is unique whatever its case. `redeemed_count` counts paid payments that used it,
 * `held_count` those in flight: both kept by triggers on payments, so `max_redemptions` is never
 * overrun, as a link's places are not.
 */
export const promoCodes = sqliteTable(
  'promo_codes',
  {
    id: text('id').primaryKey(),
    code: text('code').notNull(),
    /** Whole percent, 1 to 100; or null with amount_off set. */
    percentOff: integer('percent_off'),
    /** Centimes; or null with percent_off set. */
    amountOff: integer('amount_off'),
    /** The least subtotal (centimes) the code applies to. */
    minAmount: integer('min_amount'),
    maxRedemptions: integer('max_redemptions'),
    expiresAt: integer('expires_at'),
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
    redeemedCount: integer('redeemed_count').notNull().default(0),
    heldCount: integer('held_count').notNull().default(0),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  globalThis.PAYLINKS_QUERIES_ONLY
    ? undefined
    : (t) => [
        index('promo_codes_created_at_idx').on(t.createdAt, t.id),
        uniqueIndex('promo_codes_code_unique').on(sql`lower(${t.code})`),
        check('promo_codes_one_kind', sql`(${t.percentOff} IS NULL) <> (${t.amountOff} IS NULL)`),
        check(
          'promo_codes_percent_range',
          sql`${t.percentOff} IS NULL OR (${t.percentOff} BETWEEN 1 AND 100)`,
        ),
        check('promo_codes_amount_positive', sql`${t.amountOff} IS NULL OR ${t.amountOff} > 0`),
        check(
          'promo_codes_counts_not_negative',
          sql`${t.redeemedCount} >= 0 AND ${t.heldCount} >= 0`,
        ),
      ],
)

export type PromoCode = typeof promoCodes.$inferSelect
