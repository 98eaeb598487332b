/**
 * What a receipt PDF (and a receipt e-mail) is made from; no PDF code here, so any runtime's code
 * can name it.
 */
import { type ReceiptView, receiptRows as rowsOf } from '../../views/receipt.js'
import type { Language } from '../config.js'
import type { BrandContacts } from '../domain/brand.js'
import { translator } from '../i18n/index.js'

/** What a receipt PDF shows. */
export interface ReceiptPdfInput {
  lang: Language
  merchantName: string
  /** The merchant's contact details and receipt footer from the settings, when set. */
  merchantContacts?: BrandContacts | null | undefined
  receiptFooter?: string | null | undefined
  testMode: boolean
  receipt: ReceiptView
  /** The receipt page's address, printed at the foot. */
  receiptUrl: string
}

/** Makes a receipt's PDF file (Node); absent where the runtime offers the HTML download instead. */
export type ReceiptPdfMaker = (input: ReceiptPdfInput) => Promise<Uint8Array>

/** The rows of the receipt, label then value, as on the receipt page; empty ones left out. */
export function receiptRows(
  input: Pick<ReceiptPdfInput, 'lang' | 'merchantName' | 'receipt' | 'merchantContacts'>,
): Array<[string, string]> {
  const t = translator(input.lang)
  return rowsOf(t, input.lang, input.merchantName, input.receipt, input.merchantContacts)
}
