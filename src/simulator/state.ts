/**
 * The simulator's in-memory state: plain maps owned by one simulator instance (never module
 * state), so two simulators in one process do not see each other.
 */

import type { TestCardOutcome } from './constants.js'
import type { Centimes } from './wire/amounts.js'

export type Language = 'ar' | 'fr' | 'en'

/** How a card payment ended: a test card's outcome, or the customer cancelled, or the session ran out. */
export type CardOutcome = TestCardOutcome | 'canceled' | 'session_expired'

/** A merchant known to the simulator: the default one, or one per other accepted secret seed. */
export interface Merchant {
  id: string
  account: string
}

/** A card payment transaction and its card-page session. */
export interface CardTransaction {
  transactionId: string
  cibTransactionId: string
  orderId: string
  sandbox: boolean
  via: 'direct' | 'v1'
  account: string
  amount: Centimes
  fullName: string
  phone: string
  email: string
  returnUrl: string | null
  webhookUrl: string | null
  invoiceId: string | null
  language: Language
  memo: string | null
  keepReturnUrl: boolean
  /** The caller's own reference (`order_id` on the `/v1` interface). */
  merchantOrderId: string | null
  description: string | null
  createdAt: number
  expiresAt: number
  step: 'card' | 'otp' | 'done'
  cardNumber: string | null
  cardOutcome: TestCardOutcome | null
  outcome: CardOutcome | null
  approvalCode: string | null
  completedAt: number | null
  /** Where the browser goes after the outcome (null without a return URL). */
  returnRedirect: string | null
}

export type OperationKind = 'phone' | 'internet' | 'game' | 'bill'

/** A top-up or bill payment (direct `operation_post` or the `/v1` endpoints). */
export interface Operation {
  id: string
  merchantId: string
  kind: OperationKind
  via: 'direct' | 'v1'
  operator: string
  offer: string
  amount: Centimes
  phone: string | null
  details: Record<string, string>
  createdAt: number
  ledger: {
    id: string
    sourceAccount: string
    memo: string
    hash: string
  }
}

export interface InvoiceItem {
  id: string
  itemId: string | null
  name: string
  quantity: number
  unitPrice: Centimes
}

export type InvoiceStatus = 'PENDING' | 'PAID' | 'CANCELLED'

export interface Invoice {
  id: string
  merchantId: string
  amount: Centimes
  status: InvoiceStatus
  items: InvoiceItem[]
  createdAt: number
  updatedAt: number
}

/** One try at delivering a webhook, as the inspector shows it. */
export interface DeliveryAttempt {
  at: number
  /** The receiver's HTTP status, or null when it could not be reached. */
  status: number | null
  error: string | null
  /** The start of the receiver's answer. */
  body: string
}

export type DeliveryState = 'held' | 'scheduled' | 'sending' | 'delivered' | 'failed' | 'dropped'

/** A webhook delivery: one event to one URL, with every attempt. */
export interface Delivery {
  id: string
  transactionId: string
  cibTransactionId: string
  url: string
  payload: Record<string, unknown>
  state: DeliveryState
  attempts: DeliveryAttempt[]
  createdAt: number
  nextAttemptAt: number | null
  /** Why this delivery is unusual (a fault), or null. */
  note: string | null
}

/** All state of one simulator instance. */
export interface SimState {
  /** Card transactions by card-network order id (the card page's id). */
  transactions: Map<string, CardTransaction>
  /** Card-network transaction id (`order_number`) → order id. */
  byCibId: Map<string, string>
  operations: Map<string, Operation>
  invoices: Map<string, Invoice>
  deliveries: Map<string, Delivery>
  /** Merchants by the credential that names them (a secret seed, or `api-key`). */
  merchants: Map<string, Merchant>
}

/** Creates an empty state. */
export function createState(): SimState {
  return {
    transactions: new Map(),
    byCibId: new Map(),
    operations: new Map(),
    invoices: new Map(),
    deliveries: new Map(),
    merchants: new Map(),
  }
}
