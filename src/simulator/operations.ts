/** Recording top-ups and bill payments, and their JSON on each interface. */
import { SIMULATOR_SERVICE_ACCOUNT } from './constants.js'
import type { SimContext } from './context.js'
import type { Merchant, Operation, OperationKind } from './state.js'
import { isoMicro, isoUtc } from './time.js'
import { type Centimes, dzdText, ledgerMemo } from './wire/amounts.js'

/** An operation before it gets its ids. */
export interface OperationDraft {
  kind: OperationKind
  operator: string
  offer: string
  amount: Centimes
  phone: string | null
  details: Record<string, string>
}

/** Records an operation paid from the merchant's account and returns it. */
export function recordOperation(
  ctx: SimContext,
  merchant: Merchant,
  draft: OperationDraft,
  via: Operation['via'],
): Operation {
  const reference = draft.phone ?? Object.values(draft.details)[0] ?? ''
  const operation: Operation = {
    ...draft,
    id: ctx.ids.uuid(),
    merchantId: merchant.id,
    via,
    createdAt: ctx.clock(),
    ledger: {
      id: ctx.ids.uuid(),
      sourceAccount: merchant.account,
      memo: ledgerMemo(`${draft.kind} ${reference}`),
      hash: ctx.ids.hex(64),
    },
  }
  ctx.state.operations.set(operation.id, operation)
  return operation
}

/** The operations of a merchant, newest first. */
export function merchantOperations(ctx: SimContext, merchantId: string): Operation[] {
  return [...ctx.state.operations.values()]
    .filter((op) => op.merchantId === merchantId)
    .sort((a, b) => b.createdAt - a.createdAt)
}

function lifecycle(ctx: SimContext, op: Operation): { done: boolean; updatedAt: number } {
  const doneAt = op.createdAt + ctx.config.operationProcessingMs
  const done = ctx.clock() >= doneAt
  return { done, updatedAt: done ? doneAt : op.createdAt }
}

const OPERATION_TYPES: Record<OperationKind, string> = {
  phone: 'topup',
  internet: 'internet',
  game: 'game',
  bill: 'bill',
}

/** An operation as the direct interface's history and detail show it. */
export function directOperationJson(ctx: SimContext, op: Operation): Record<string, unknown> {
  const { done, updatedAt } = lifecycle(ctx, op)
  return {
    id: op.id,
    operation_type: OPERATION_TYPES[op.kind],
    phone: op.phone ?? '',
    operator: op.operator,
    amount: dzdText(op.amount),
    offer: op.offer,
    status: done ? 'completed' : 'processing',
    status_message: done ? 'Operation completed' : null,
    created_at: isoMicro(op.createdAt),
    updated_at: isoMicro(updatedAt),
    blockchain_transaction: {
      id: op.ledger.id,
      source_account: op.ledger.sourceAccount,
      destination_account: SIMULATOR_SERVICE_ACCOUNT,
      amount: `${dzdText(op.amount)}00000`,
      asset_code: 'DZD',
      memo: op.ledger.memo,
      status: 'confirmed',
      service_hash: op.ledger.hash,
      retry_count: 0,
      max_retries: 3,
      created_at: isoMicro(op.createdAt),
      confirmed_at: isoMicro(op.createdAt),
      last_retry_at: null,
    },
  }
}

/** An operation as the `/v1` interface shows it (OperationDetails). */
export function v1OperationJson(ctx: SimContext, op: Operation): Record<string, unknown> {
  const { done, updatedAt } = lifecycle(ctx, op)
  return {
    id: op.id,
    type: op.kind,
    status: done ? 'completed' : 'processing',
    operator: op.operator,
    offer: op.offer,
    amount: dzdText(op.amount),
    currency: 'DZD',
    details: op.details,
    transaction_id: op.ledger.id,
    created_at: isoUtc(op.createdAt),
    updated_at: isoUtc(updatedAt),
  }
}
