import { describe, expect, it } from 'vitest'
import type { Link, Payment } from '../../db/schema.js'
import { linkObject, toLinkObject } from '../../src/api/links/objects.js'
import { paymentObject, toPaymentObject } from '../../src/api/payments/objects.js'

const T = Date.UTC(2026, 0, 15, 9, 30, 0)

const link: Link = {
  id: 'lnk_0123456789abcdef',
  slug: 'Ab3dE5gH1jK2',
  title: 'Commande',
  description: 'Deux livres',
  amount: 259900,
  amountMin: null,
  amountMax: null,
  invoiceId: 'inv_7',
  invoiceItems: [{ description: 'Livre', quantity: 2, unitPrice: 129950 }],
  maxPayments: 3,
  expiresAt: T + 86_400_000,
  language: 'ar',
  memo: 'Librairie',
  successMessage: 'Merci',
  successUrl: null,
  active: true,
  inactiveMessage: null,
  createdAt: T,
  updatedAt: T + 1,
  source: 'api',
  createdBy: null,
  metadata: { order: 'CMD-12' },
  lineItems: null,
  customFields: null,
  allowPromoCodes: false,
  customerFee: false,
  partialMinAmount: null,
  inFlightTotal: 0,
}

const payment: Payment = {
  id: 'pay_0123456789abcdef',
  receiptId: 'R0123456789abcdefghijk',
  linkId: link.id,
  status: 'paid',
  amount: 129950,
  currency: '012',
  customerName: 'Amina Benali',
  customerPhone: '0550123456',
  customerEmail: 'amina@example.dz',
  ref: 'CMD-12',
  language: 'fr',
  invoiceId: null,
  orderId: 'c8d1e1f2-7a61-4a4e-b2c1-0b5d3c0e9f11',
  orderNumber: '417271',
  transactionId: '0b7c6a52-1',
  cibTransactionId: '4172711',
  paymentUrl: 'https://cib.example/pay',
  approvalCode: '123456',
  message: 'Approved',
  respCode: '00',
  actionCode: '0',
  errorReason: null,
  gatewayResponse: { success: true },
  checkResponse: { orderStatus: 2 },
  checkAttempts: 1,
  nextCheckAt: null,
  createdAt: T,
  updatedAt: T + 60_000,
  paidAt: T + 60_000,
  settledAt: T + 60_000,
  beyondMaxPayments: false,
  statusCause: 'webhook',
  failureCode: null,
  source: 'dashboard',
  metadata: { order: 'CMD-12', channel: 'web' },
  checkoutId: null,
  subtotal: 129950,
  discount: 0,
  fee: 0,
  promoCode: null,
  promoCodeId: null,
  lineItems: null,
  customFields: null,
}

describe('toLinkObject', () => {
  it('gives amounts back as exact DZD numbers and times as ISO 8601', () => {
    const o = toLinkObject(
      link,
      { paidCount: 1, paidTotal: 129950 },
      { publicUrl: 'https://pay.example.dz/', now: T },
    )
    expect(o).toMatchObject({
      amount: 2599,
      amount_min: null,
      amount_max: null,
      invoice_items: [{ description: 'Livre', quantity: 2, unit_price: 1299.5 }],
      paid_count: 1,
      paid_total: 1299.5,
      expires_at: '2026-01-16T09:30:00.000Z',
      created_at: '2026-01-15T09:30:00.000Z',
      status: 'active',
      metadata: { order: 'CMD-12' },
    })
    expect(linkObject.parse(o)).toEqual(o)
  })

  it('builds the public URLs from the configured base without doubling slashes', () => {
    const o = toLinkObject(
      link,
      { paidCount: 0, paidTotal: 0 },
      { publicUrl: 'https://pay.example.dz/', now: T },
    )
    expect(o).toMatchObject({
      url: 'https://pay.example.dz/l/Ab3dE5gH1jK2',
      qr_svg_url: 'https://pay.example.dz/l/Ab3dE5gH1jK2/qr.svg',
      qr_png_url: 'https://pay.example.dz/l/Ab3dE5gH1jK2/qr.png',
      poster_url: 'https://pay.example.dz/l/Ab3dE5gH1jK2/poster',
    })
  })

  it('shows an open link by its range and a completed link as completed', () => {
    const open = { ...link, amount: null, amountMin: 5000, amountMax: 1000001, invoiceItems: null }
    const o = toLinkObject(
      open,
      { paidCount: 3, paidTotal: 15000 },
      { publicUrl: 'http://localhost:8787', now: T },
    )
    expect(o).toMatchObject({
      amount: null,
      amount_min: 50,
      amount_max: 10000.01,
      invoice_items: null,
      status: 'completed',
    })
  })
})

describe('toPaymentObject', () => {
  it('carries the documented fields with exact money and the receipt URL', () => {
    const o = toPaymentObject(payment, { publicUrl: 'https://pay.example.dz' })
    expect(o).toEqual({
      id: 'pay_0123456789abcdef',
      link_id: 'lnk_0123456789abcdef',
      status: 'paid',
      amount: 1299.5,
      currency: 'DZD',
      customer: { name: 'Amina Benali', phone: '0550123456', email: 'amina@example.dz' },
      ref: 'CMD-12',
      checkout_id: null,
      metadata: { order: 'CMD-12', channel: 'web' },
      subtotal: 1299.5,
      discount: 0,
      promo_code: null,
      fee: 0,
      line_items: [],
      custom_fields: {},
      language: 'fr',
      order_id: 'c8d1e1f2-7a61-4a4e-b2c1-0b5d3c0e9f11',
      order_number: '417271',
      transaction_id: '0b7c6a52-1',
      cib_transaction_id: '4172711',
      approval_code: '123456',
      message: 'Approved',
      failure_code: null,
      failure_message: null,
      receipt_url: 'https://pay.example.dz/r/R0123456789abcdefghijk',
      created_at: '2026-01-15T09:30:00.000Z',
      updated_at: '2026-01-15T09:31:00.000Z',
      paid_at: '2026-01-15T09:31:00.000Z',
      beyond_max_payments: false,
      source: 'dashboard',
    })
    expect(paymentObject.parse(o)).toEqual(o)
  })

  it('carries the failure code and its English message for an unsuccessful payment', () => {
    const failed = toPaymentObject(
      { ...payment, status: 'failed', failureCode: 'expired_card' },
      { publicUrl: 'https://pay.example.dz' },
    )
    expect(failed).toMatchObject({ failure_code: 'expired_card', failure_message: 'Card expired' })
    expect(paymentObject.parse(failed)).toMatchObject({ failure_code: 'expired_card' })
  })

  it('reads a payment from before carts as its amount alone, and a sold cart line by line', () => {
    const old = toPaymentObject(
      { ...payment, subtotal: null },
      { publicUrl: 'https://pay.example.dz' },
    )
    expect(old).toMatchObject({ subtotal: 1299.5, discount: 0, fee: 0, line_items: [] })
    const sold = toPaymentObject(
      {
        ...payment,
        amount: 262000,
        subtotal: 250000,
        discount: 0,
        fee: 12000,
        lineItems: [
          { productId: 'prod_1', name: 'Tapis', sku: 'TAP-1', quantity: 2, unitPrice: 125000 },
        ],
        customFields: { wilaya: '16' },
      },
      { publicUrl: 'https://pay.example.dz' },
    )
    expect(sold).toMatchObject({
      amount: 2620,
      subtotal: 2500,
      fee: 120,
      line_items: [
        {
          product_id: 'prod_1',
          name: 'Tapis',
          sku: 'TAP-1',
          quantity: 2,
          unit_price: 1250,
          amount: 2500,
        },
      ],
      custom_fields: { wilaya: '16' },
    })
    expect(paymentObject.parse(sold)).toEqual(sold)
  })

  it("tells a payment paid beyond its link's max_payments", () => {
    const o = toPaymentObject({ ...payment, beyondMaxPayments: true }, { publicUrl: 'https://x' })
    expect(o.beyond_max_payments).toBe(true)
  })

  it("carries the payment's source (its link's, copied when it was made)", () => {
    const o = toPaymentObject({ ...payment, source: 'till' }, { publicUrl: 'https://x' })
    expect(o.source).toBe('till')
  })

  it('keeps the raw gateway answers out of the API object', () => {
    const o = toPaymentObject(payment, { publicUrl: 'https://pay.example.dz' })
    expect(Object.keys(o)).not.toContain('gateway_response')
    expect(JSON.stringify(o)).not.toContain('orderStatus')
  })
})
