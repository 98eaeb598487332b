/**
 * What a receipt PDF (and a receipt e-mail) is made from; no PDF code here, so any runtime's code
 * can name it.
 */
import { receiptRows as rowsOf } from '../../views/receipt.js'
import type { ReceiptPdfInput } from '../domain/receipt-view.js'
import { translator } from '../i18n/index.js'

export type { ReceiptPdfInput }

/** The rows of the receipt, label then value, as on the receipt page; empty ones left out. */
export function receiptRows(
  input: Pick<ReceiptPdfInput, 'lang' | 'merchantName' | 'receipt' | 'merchantContacts'>,
): Array<[string, string]> {
  const t = translator(input.lang)
  return rowsOf(t, input.lang, input.merchantName, input.receipt, input.merchantContacts)
}
