/** The receipt as its views (page, PDF, e-mail) show it, from a payment row. */
import type { Payment } from '../../db/schema.js'
import type { ReceiptView } from '../../views/receipt.js'
import { gatewayMessageOf, showableGatewayText } from '../domain/failure-reasons.js'

/** What the receipt views show of a payment. */
export function receiptView(
  payment: Payment,
  linkTitle: string,
  linkSlug: string,
  successMessage: string | null,
  successUrl: string | null,
): ReceiptView {
  return {
    receiptId: payment.receiptId,
    status: payment.status,
    amount: payment.amount,
    linkTitle,
    linkSlug,
    // The stored check answer's own words; the message column for payments stored without it.
    gatewayMessage: gatewayMessageOf(payment.checkResponse) ?? showableGatewayText(payment.message),
    failureCode: payment.failureCode,
    orderId: payment.orderId ?? null,
    orderNumber: payment.orderNumber,
    approvalCode: payment.approvalCode,
    paidAt: payment.paidAt,
    updatedAt: payment.updatedAt,
    ref: payment.ref,
    customerName: payment.customerName,
    successMessage,
    successUrl,
  }
}
