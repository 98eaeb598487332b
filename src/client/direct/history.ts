/** Types and lenient parsing of the direct interface's operation history. */
import { normalise } from '../core/normalise.js'
import { asString, isObject, type JsonObject } from '../core/parse.js'

/** The ledger transaction that paid for an operation (`blockchain_transaction`). */
export interface LedgerTransaction {
  id?: string
  source_account?: string
  destination_account?: string
  /** Decimal text with 7 decimals. */
  amount?: string
  asset_code?: string
  memo?: string
  status?: string
  service_hash?: string
  retry_count?: number
  max_retries?: number
  created_at?: string
  confirmed_at?: string | null
  last_retry_at?: string | null
  [key: string]: unknown
}

/** One operation of the history. */
export interface Operation {
  id?: string
  operation_type?: string
  phone?: string
  operator?: string
  /** Decimal text with 2 decimals. */
  amount?: string
  offer?: string
  status?: string
  status_message?: string | null
  created_at?: string
  updated_at?: string
  blockchain_transaction?: LedgerTransaction
  [key: string]: unknown
}

export interface Pagination {
  total_count?: number
  limit?: number
  offset?: number
  has_more?: boolean
  [key: string]: unknown
}

/** The 200 answer of `services/operation-history/`. */
export interface OperationHistory {
  status?: string
  data: { operations: Operation[]; pagination: Pagination; [key: string]: unknown }
  [key: string]: unknown
}

const OPERATION = {
  id: 'string',
  operation_type: 'string',
  phone: 'string',
  operator: 'string',
  amount: 'string',
  offer: 'string',
  status: 'string',
  status_message: 'string?',
  created_at: 'string',
  updated_at: 'string',
} as const

const LEDGER = {
  id: 'string',
  source_account: 'string',
  destination_account: 'string',
  amount: 'string',
  asset_code: 'string',
  memo: 'string',
  status: 'string',
  service_hash: 'string',
  retry_count: 'integer',
  max_retries: 'integer',
  created_at: 'string',
  confirmed_at: 'string?',
  last_retry_at: 'string?',
} as const

const PAGINATION = {
  total_count: 'integer',
  limit: 'integer',
  offset: 'integer',
  has_more: 'boolean',
} as const

/** Reads an operation, with its ledger transaction, leniently. */
export function parseOperation(value: unknown): Operation {
  const op = normalise(value, OPERATION)
  if (isObject(op.blockchain_transaction))
    op.blockchain_transaction = normalise(op.blockchain_transaction, LEDGER)
  return op as Operation
}

/** Reads the history answer leniently; missing lists and pagination read as empty. */
export function parseOperationHistory(body: JsonObject): OperationHistory {
  const data = isObject(body.data) ? body.data : {}
  const operations = Array.isArray(data.operations) ? data.operations.map(parseOperation) : []
  return {
    ...body,
    status: asString(body.status),
    data: {
      ...data,
      operations,
      pagination: normalise(data.pagination, PAGINATION) as Pagination,
    },
  }
}
