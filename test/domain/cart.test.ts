/**
 * A cart's rules without a database: its lines checked (a product twice, a range upside down or
 * not holding the quantity), the quantity a customer asked read strictly, the lines sold at the
 * products' prices, and the lines as the receipt's PDF and e-mail and the CSV export write them.
 */
import { describe, expect, it } from 'vitest'
import {
  askedQuantity,
  type CartProduct,
  cartLineProblems,
  cartProductProblems,
  cartTotal,
  linesText,
  soldLines,
} from '../../src/domain/cart.js'
import type { LinkLineItem } from '../../src/domain/order.js'
import { translator } from '../../src/i18n/index.js'
import { composeCustomerReceipt } from '../../src/mail/compose.js'
import { MAIL_TABLES } from '../../src/mail/messages.js'
import { cartSection } from '../../src/pdf/cart-section.js'
import type { ReceiptView } from '../../views/receipt.js'

const line = (
  productId: string,
  quantity: number,
  adjustable: LinkLineItem['adjustable'] = null,
): LinkLineItem => ({ productId, quantity, adjustable })

const product = (id: string, price: number, extra: Partial<CartProduct> = {}): CartProduct => ({
  id,
  name: `Produit ${id}`,
  sku: null,
  price,
  active: true,
  available: null,
  ...extra,
})

describe('a cart’s lines', () => {
  it('names each bad line by its path', () => {
    expect(
      cartLineProblems([
        line('a', 1),
        line('b', 0),
        line('c', 2, { min: 3, max: 1 }),
        line('d', 5, { min: 1, max: 4 }),
        line('a', 1),
        line('e', 0, { min: 0, max: 2 }),
      ]),
    ).toEqual({
      'line_items[1].quantity': { code: 'too_small', params: { min: 1 } },
      'line_items[2].adjustable_quantity.max': { code: 'max_below_min' },
      'line_items[3].quantity': { code: 'quantity_out_of_range', params: { min: 1, max: 4 } },
      'line_items[4].product_id': { code: 'duplicate_product' },
    })
  })

  it('refuses unknown and archived products, and totals at the prices given', () => {
    const found = new Map([
      ['a', product('a', 450_000)],
      ['b', product('b', 120_050, { active: false })],
    ])
    expect(cartProductProblems([line('a', 1), line('b', 1), line('z', 1)], found)).toEqual({
      'line_items[1].product_id': { code: 'product_archived' },
      'line_items[2].product_id': { code: 'unknown_product' },
    })
    expect(cartTotal([line('a', 3), line('b', 2)], found)).toBe(1_590_100)
  })

  it('reads a chosen quantity strictly, and keeps a fixed line’s own', () => {
    const adjustable = line('a', 2, { min: 1, max: 5 })
    expect(askedQuantity(adjustable, '4')).toBe(4)
    expect(askedQuantity(adjustable, ' 3 ')).toBe(3)
    expect(askedQuantity(adjustable, undefined)).toBe(2)
    expect(askedQuantity(adjustable, '')).toBe(2)
    for (const bad of ['1.5', '-1', 'deux', '1e3', '٣', '9999999', ['2']])
      expect(askedQuantity(adjustable, bad), String(bad)).toBe(Array.isArray(bad) ? 2 : null)
    expect(askedQuantity(line('b', 2), '7')).toBe(2)
  })

  it('sells the lines with the names and prices of now, leaving out a line set to 0', () => {
    const found = new Map([
      ['a', product('a', 450_000, { name: 'Tapis', sku: 'TAP-1' })],
      ['b', product('b', 120_050, { name: 'Coussin' })],
    ])
    const sold = soldLines(
      [
        { productId: 'a', quantity: 2 },
        { productId: 'b', quantity: 0 },
      ],
      found,
    )
    expect(sold).toEqual([
      { productId: 'a', name: 'Tapis', sku: 'TAP-1', quantity: 2, unitPrice: 450_000 },
    ])
    expect(
      linesText([
        ...sold,
        { productId: 'b', name: 'Coussin', sku: null, quantity: 1, unitPrice: 1 },
      ]),
    ).toBe('2 × Tapis (TAP-1); 1 × Coussin')
  })
})

describe('a cart on the receipt’s PDF and e-mail', () => {
  const receipt: ReceiptView = {
    receiptId: 'rcp_cart',
    status: 'paid',
    amount: 1_140_100 as ReceiptView['amount'],
    linkTitle: 'Boutique',
    linkSlug: 'boutique',
    gatewayMessage: null,
    failureCode: null,
    orderId: 'ORD-1',
    orderNumber: 'N-1',
    approvalCode: '123456',
    paidAt: Date.UTC(2026, 10, 1),
    updatedAt: Date.UTC(2026, 10, 1),
    ref: null,
    customerName: 'Amina Benali',
    successMessage: null,
    successUrl: null,
    lineItems: [
      { productId: 'a', name: 'Tapis', sku: 'TAP-1', quantity: 2, unitPrice: 450_000 },
      { productId: 'b', name: 'Coussin', sku: null, quantity: 2, unitPrice: 120_050 },
    ],
    subtotal: 1_140_100,
  }

  it('lists each line and the subtotal in the PDF’s amount section', () => {
    expect(cartSection(receipt, translator('fr'))).toEqual({
      lines: [
        { description: 'Tapis (TAP-1)', quantity: 2, unitPrice: 450_000, total: 900_000 },
        { description: 'Coussin', quantity: 2, unitPrice: 120_050, total: 240_100 },
      ],
      sums: [{ label: 'Sous-total', amount: 1_140_100, strong: true }],
    })
    expect(cartSection({ ...receipt, lineItems: null }, translator('fr'))).toBeNull()
  })

  it('writes the lines in the e-mail, HTML and text', () => {
    const mail = composeCustomerReceipt({
      to: 'amina@example.dz',
      lang: 'fr',
      merchantName: 'Boutique',
      testMode: false,
      receipt,
      receiptUrl: 'https://pay.example.dz/r/rcp_cart',
      file: null,
      words: MAIL_TABLES.fr,
    })
    expect(mail.text).toMatch(/2 × Tapis \(TAP-1\) — 4\s500,00\sDA — 9\s000,00\sDA/)
    expect(mail.text).toMatch(/Sous-total: 11\s401,00\sDA/)
    expect(mail.html).toContain('<bdi>Coussin</bdi>')
    expect(mail.html).toMatch(/Sous-total<\/th><td[^>]*><bdi>11\s401,00\sDA/)
  })
})
