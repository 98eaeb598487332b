/**
 * The receipt's lines of a cart: each product as sold (name, quantity, unit price, line total),
 * then the subtotal. Drawn as an invoice's items are (amount-section.ts); the payment keeps the
 * names and prices of the moment it was made, so the lines never change after.
 */
import type { ReceiptView } from '../domain/receipt-view.js'
import type { MessageKey } from '../i18n/index.js'
import type { AmountSection } from './amount-section.js'

/** The section of a cart's lines, or null for a payment that sold no products. */
export function cartSection(
  receipt: Pick<ReceiptView, 'lineItems' | 'subtotal'>,
  t: (key: MessageKey) => string,
): AmountSection | null {
  const sold = receipt.lineItems
  if (!sold || sold.length === 0) return null
  const lines = sold.map((l) => ({
    description: l.sku ? `${l.name} (${l.sku})` : l.name,
    quantity: l.quantity,
    unitPrice: l.unitPrice,
    total: l.quantity * l.unitPrice,
  }))
  const subtotal = receipt.subtotal ?? lines.reduce((sum, l) => sum + l.total, 0)
  return { lines, sums: [{ label: t('cartSubtotal'), amount: subtotal, strong: true }] }
}
