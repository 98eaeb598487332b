/**
 * What a receipt PDF (and a receipt e-mail) is made from; no PDF code here, so any runtime's code
 * can name it.
 */
import type { ReceiptView } from '../../views/receipt.js'
import type { Language } from '../config.js'
import { formatAmount, formatDateTime, translator } from '../i18n/index.js'

/** What a receipt PDF shows. */
export interface ReceiptPdfInput {
  lang: Language
  merchantName: string
  testMode: boolean
  receipt: ReceiptView
  /** The receipt page's address, printed at the foot. */
  receiptUrl: string
}

/** Makes a receipt's PDF file (Node); absent where the runtime offers the HTML download instead. */
export type ReceiptPdfMaker = (input: ReceiptPdfInput) => Promise<Uint8Array>

/** The rows of the receipt, label then value, as on the receipt page; empty ones left out. */
export function receiptRows(
  input: Pick<ReceiptPdfInput, 'lang' | 'merchantName' | 'receipt'>,
): Array<[string, string]> {
  const { receipt, lang } = input
  const t = translator(lang)
  const rows: Array<[string, string | null]> = [
    [t('gatewayMessage'), receipt.gatewayMessage],
    [t('orderId'), receipt.orderId],
    [t('orderNumber'), receipt.orderNumber],
    [t('approvalCode'), receipt.approvalCode],
    [t('dateTime'), formatDateTime(receipt.paidAt ?? receipt.updatedAt, lang)],
    [t('amountPaid'), formatAmount(receipt.amount, lang)],
    [t('paymentMethod'), t('cardMethod')],
    [t('merchant'), input.merchantName],
    [t('customer'), receipt.customerName],
    [t('reference'), receipt.ref],
  ]
  return rows.filter((row): row is [string, string] => row[1] !== null && row[1].trim() !== '')
}
