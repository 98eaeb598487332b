/** What a receipt PDF is made from; no PDF code here, so the app's types can name it on any runtime. */
import type { ReceiptView } from '../../views/receipt.js'
import type { Language } from '../config.js'

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
