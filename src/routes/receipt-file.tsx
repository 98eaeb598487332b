/**
 * The receipt as the self-contained HTML file that `GET /r/:receiptId/download` offers where there
 * is no PDF (Workers), made outside a request: the Worker attaches it to the receipt e-mail.
 */
import { ReceiptPage } from '../../views/receipt.js'
import { translator } from '../i18n/index.js'
import type { ReceiptPdfInput } from '../pdf/receipt-input.js'

/** The receipt file's bytes (UTF-8 HTML, no script, no links back). */
export async function receiptHtmlFile(input: ReceiptPdfInput): Promise<Uint8Array> {
  const ctx = {
    lang: input.lang,
    t: translator(input.lang),
    nonce: '',
    testMode: input.testMode,
    merchantName: input.merchantName,
    download: true,
  }
  const html = await (<ReceiptPage ctx={ctx} receipt={input.receipt} />).toString()
  return new TextEncoder().encode(html)
}
