/** Creating a card transaction and its JSON: the creation answer and the check answer. */
import * as z from 'zod'
import type { SimContext } from '../context.js'
import type { CardTransaction, Language } from '../state.js'
import { dzdAmount } from '../validation.js'
import { type Centimes, dzdText, ledgerMemo } from '../wire/amounts.js'
import { isStrKey } from '../wire/strkey.js'
import { NOT_PAID, OUTCOMES } from './outcomes.js'

const MIN_AMOUNT: Centimes = 5000
const required = z.string().trim().min(1)
const httpUrl = z
  .string()
  .trim()
  .refine(
    (text) => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol),
    'must be an http(s) URL',
  )

/** The query of `make-cib-transaction` (gateway-direct-interface.md). */
export const createCardSchema = z.object({
  account: z
    .string()
    .refine((text) => isStrKey('account', text), 'must be a valid G… ledger account'),
  amount: dzdAmount.refine((c) => c >= MIN_AMOUNT, 'must be at least 50 DZD'),
  full_name: required,
  phone: required,
  email: required.refine((text) => /^[^\s@]+@[^\s@]+$/.test(text), 'must be an e-mail address'),
  return_url: httpUrl.optional(),
  webhook_url: httpUrl.optional(),
  invoice_id: z.string().trim().optional(),
  language: z.string().optional(),
  memo: z.string().optional(),
  redirect: z.enum(['yes', 'no']),
  keep_return_url: z.string().optional(),
})

/** What a card transaction is created from, once validated. */
export interface CardDraft {
  account: string
  amount: Centimes
  fullName: string
  phone: string
  email: string
  returnUrl?: string | undefined
  webhookUrl?: string | undefined
  invoiceId?: string | undefined
  language?: string | undefined
  memo?: string | undefined
  keepReturnUrl: boolean
  merchantOrderId?: string | undefined
  description?: string | undefined
}

/** Maps the validated `make-cib-transaction` query to a draft. */
export function draftFromQuery(input: z.infer<typeof createCardSchema>): CardDraft {
  return {
    account: input.account,
    amount: input.amount,
    fullName: input.full_name,
    phone: input.phone,
    email: input.email,
    returnUrl: input.return_url,
    webhookUrl: input.webhook_url,
    invoiceId: input.invoice_id || undefined,
    language: input.language,
    memo: input.memo,
    // Integrators send the strings True/False (gateway-facts.md); be kind to `true`.
    keepReturnUrl: input.keep_return_url === 'True' || input.keep_return_url === 'true',
  }
}

const asLanguage = (value?: string): Language =>
  value === 'fr' || value === 'en' || value === 'ar' ? value : 'ar'

/** Creates and stores a card transaction awaiting the customer on the card page. */
export function createCardTransaction(
  ctx: SimContext,
  draft: CardDraft,
  options: { sandbox: boolean; via: CardTransaction['via'] },
): CardTransaction {
  let cibTransactionId = ctx.ids.digits(10)
  while (ctx.state.byCibId.has(cibTransactionId)) cibTransactionId = ctx.ids.digits(10)
  const now = ctx.clock()
  const tx: CardTransaction = {
    transactionId: ctx.ids.uuid(),
    cibTransactionId,
    orderId: ctx.ids.uuid(),
    sandbox: options.sandbox,
    via: options.via,
    account: draft.account,
    amount: draft.amount,
    fullName: draft.fullName,
    phone: draft.phone,
    email: draft.email,
    returnUrl: draft.returnUrl ?? null,
    webhookUrl: draft.webhookUrl ?? null,
    invoiceId: draft.invoiceId ?? null,
    language: asLanguage(draft.language),
    memo: draft.memo === undefined ? null : ledgerMemo(draft.memo),
    keepReturnUrl: draft.keepReturnUrl,
    merchantOrderId: draft.merchantOrderId ?? null,
    description: draft.description ?? null,
    createdAt: now,
    expiresAt: now + ctx.config.sessionTtlMs,
    step: 'card',
    cardNumber: null,
    cardOutcome: null,
    outcome: null,
    approvalCode: null,
    completedAt: null,
    returnRedirect: null,
  }
  ctx.state.transactions.set(tx.orderId, tx)
  ctx.state.byCibId.set(cibTransactionId, tx.orderId)
  return tx
}

/** The card page of a transaction. */
export function paymentUrl(ctx: SimContext, tx: CardTransaction): string {
  return `${ctx.config.publicUrl}/pay/${tx.orderId}`
}

/** The `redirect=no` answer of `make-cib-transaction`. */
export function creationJson(ctx: SimContext, tx: CardTransaction): Record<string, unknown> {
  const url = paymentUrl(ctx, tx)
  return {
    success: true,
    transaction_id: tx.transactionId,
    // A JSON number, as the live gateway often sends it (gateway-facts.md).
    cib_transaction_id: Number(tx.cibTransactionId),
    payment_url: url,
    amount: dzdText(tx.amount),
    status: ctx.config.creationStatus,
    more_info_url: `${url}/info`,
    webhook_url: tx.webhookUrl,
    cib_response: { errorCode: '0', orderId: tx.orderId, formUrl: url },
  }
}

/** The check endpoint's flat answer in the card network's vocabulary (numbers and strings mixed as it does). */
export function checkJson(tx: CardTransaction): Record<string, unknown> {
  const lang = tx.language
  const spec = tx.outcome ? OUTCOMES[tx.outcome] : null
  const respCodeDesc = spec?.respCodeDesc?.[lang] ?? ''
  const actionCodeDescription = (spec ?? NOT_PAID).actionCodeDescription[lang]
  return {
    order_number: tx.cibTransactionId,
    orderId: tx.orderId,
    orderStatus: (spec ?? NOT_PAID).orderStatus,
    errorCode: (spec ?? NOT_PAID).errorCode,
    errorMessage: (spec ?? NOT_PAID).errorMessage,
    actionCode: (spec ?? NOT_PAID).actionCode,
    actionCodeDescription,
    respCode: (spec ?? NOT_PAID).respCode,
    respCode_desc: respCodeDesc,
    ResponseDescription: respCodeDesc || actionCodeDescription,
    destination_account: tx.account,
    Amount: tx.amount,
    currency: '012',
    approvalCode: tx.approvalCode ?? '',
    pan: tx.cardNumber ? maskPan(tx.cardNumber) : '',
  }
}

/** A card number as receipts show it: first six and last four digits. */
export function maskPan(number: string): string {
  return `${number.slice(0, 6)}${'*'.repeat(Math.max(0, number.length - 10))}${number.slice(-4)}`
}

/** The transaction a card-network id (`order_number`) names, if it exists in that environment. */
export function findByCibId(
  ctx: SimContext,
  id: string,
  sandbox: boolean,
): CardTransaction | undefined {
  const orderId = ctx.state.byCibId.get(id.trim())
  const tx = orderId ? ctx.state.transactions.get(orderId) : undefined
  return tx && tx.sandbox === sandbox ? tx : undefined
}
