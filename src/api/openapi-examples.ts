/**
 * Examples shown in the OpenAPI document and on the docs page. The tests check each one against
 * the document's own schemas, so an example cannot silently go stale.
 */

import type { CheckoutObject } from './checkouts/objects.js'
import type { ApiErrorObject } from './errors.js'
import type { LinkObject } from './links/objects.js'
import type { PaymentObject } from './payments/objects.js'
import type { ProductObject } from './products/objects.js'
import type { PromoCodeObject } from './promo-codes/objects.js'

const ORIGIN = 'https://pay.example.dz'
const SLUG = 'q7Rm2XaP9cLw'

/** Request bodies for `POST /api/v1/links`, one per kind of pricing. */
export const createLinkExamples = {
  fixed: {
    summary: 'A fixed amount',
    value: {
      title: 'Cours de soutien — mars',
      description: 'Quatre séances de mathématiques',
      amount: 1299.5,
      language: 'fr',
      max_payments: 1,
      expires_at: '2030-03-31T23:59:00+01:00',
      memo: 'Soutien mars',
      success_message: 'Merci, à bientôt !',
    },
  },
  open: {
    summary: 'An open amount (donation)',
    value: { title: 'Don à l’association', amount_min: 100, amount_max: 50000, language: 'ar' },
  },
  invoice_items: {
    summary: 'Invoice items (the gateway invoice is created)',
    value: {
      title: 'Commande 1042',
      invoice_items: [
        { description: 'Livre', quantity: 2, unit_price: 1299.5 },
        { description: 'Livraison', quantity: 1, unit_price: 400 },
      ],
      success_url: 'https://shop.example.dz/merci',
      metadata: { order_id: '1042', customer_id: 'C-381' },
    },
  },
  custom_fields: {
    summary: 'Questions for the customer (delivery wilaya and address, a size)',
    value: {
      title: 'T-shirt Casbah',
      amount: 2500,
      custom_fields: [
        { key: 'size', label: 'Taille', type: 'select', options: ['S', 'M', 'L'], required: true },
        { key: 'wilaya', label: 'Wilaya de livraison', type: 'wilaya', required: true },
        { key: 'address', label: 'Adresse', type: 'address' },
      ],
    },
  },
  invoice_id: {
    summary: 'An existing gateway invoice',
    value: { title: 'Facture F-2030-017', invoice_id: 'inv_8c1d2e', amount: 4500 },
  },
} as const

/** Request bodies for `PATCH /api/v1/links/{id}`. */
export const updateLinkExamples = {
  deactivate: {
    summary: 'Switch a link off',
    value: { active: false, inactive_message: 'Les inscriptions sont closes.' },
  },
  reprice: { summary: 'Change the amount', value: { amount: 1500 } },
  metadata: {
    summary: 'Set one metadata key and remove another (the other keys are kept)',
    value: { metadata: { term: 'printemps', promo: '' } },
  },
} as const

/** A link as the API answers it. */
export const linkExample: LinkObject = {
  id: 'lnk_4Fh8Kq2Lm9Xz1Pb7',
  slug: SLUG,
  url: `${ORIGIN}/l/${SLUG}`,
  qr_svg_url: `${ORIGIN}/l/${SLUG}/qr.svg`,
  qr_png_url: `${ORIGIN}/l/${SLUG}/qr.png`,
  poster_url: `${ORIGIN}/l/${SLUG}/poster`,
  title: 'Cours de soutien — mars',
  description: 'Quatre séances de mathématiques',
  amount: 1299.5,
  amount_min: null,
  amount_max: null,
  invoice_id: null,
  invoice_items: null,
  line_items: null,
  max_payments: 1,
  expires_at: '2030-03-31T22:59:00.000Z',
  language: 'fr',
  memo: 'Soutien mars',
  success_message: 'Merci, à bientôt !',
  success_url: null,
  active: true,
  inactive_message: null,
  allow_promo_codes: false,
  customer_fee: false,
  metadata: { term: 'mars', group: 'B2' },
  allow_partial: null,
  custom_fields: [],
  status: 'active',
  paid_count: 0,
  paid_total: 0,
  amount_due: 1299.5,
  balance: 1299.5,
  created_at: '2030-03-01T08:15:00.000Z',
  updated_at: '2030-03-01T08:15:00.000Z',
}

/** A paid payment as the API answers it. */
export const paymentExample: PaymentObject = {
  id: 'pay_9Tz3Wq1Rb6Yk2Hn5',
  link_id: linkExample.id,
  status: 'paid',
  amount: 1299.5,
  currency: 'DZD',
  customer: { name: 'Amina Benali', phone: '0550123456', email: 'amina@example.dz' },
  ref: 'ELEVE-42',
  checkout_id: null,
  metadata: { term: 'mars', group: 'B2' },
  subtotal: 1299.5,
  discount: 0,
  promo_code: null,
  fee: 0,
  line_items: [],
  custom_fields: {},
  language: 'fr',
  order_id: 'c8d1e1f2-7a61-4a4e-b2c1-0b5d3c0e9f11',
  order_number: '417271',
  transaction_id: '0b7c6a52-1f4e-4d7a-9c2b-5e8f3a1d6c90',
  cib_transaction_id: '4172711',
  approval_code: '123456',
  message: 'Votre paiement a été accepté',
  failure_code: null,
  failure_message: null,
  receipt_url: `${ORIGIN}/r/Xa81LmQ4Zt7Rk2Pw9Bn3Cd`,
  created_at: '2030-03-02T10:04:12.000Z',
  updated_at: '2030-03-02T10:05:40.000Z',
  paid_at: '2030-03-02T10:05:40.000Z',
  beyond_max_payments: false,
  source: 'dashboard',
}

/** A declined payment: the card network's reason as failure_code and failure_message. */
export const declinedPaymentExample: PaymentObject = {
  ...paymentExample,
  id: 'pay_4Hq8Lm2Xc7Vb1Nz6',
  status: 'failed',
  order_number: '417272',
  cib_transaction_id: '4172722',
  approval_code: null,
  message: 'Votre paiement a été refusé.',
  failure_code: 'insufficient_funds',
  failure_message: 'Insufficient funds',
  receipt_url: `${ORIGIN}/r/Qm5Tz8Lp2Wd6Rk1Hs4Jv9a`,
  created_at: '2030-03-02T09:41:03.000Z',
  updated_at: '2030-03-02T09:42:27.000Z',
  paid_at: null,
}

/** Request bodies for `POST /api/v1/checkouts`: a shop's order as lines, or an amount alone. */
export const createCheckoutExamples = {
  line_items: {
    summary: 'An order as line items, with the customer known to the shop',
    value: {
      line_items: [
        { name: 'Tajine en terre cuite', quantity: 2, unit_price: 1299.5 },
        { name: 'Livraison Alger', quantity: 1, unit_price: 400 },
      ],
      reference: 'CMD-1042',
      metadata: { cart_id: 'c_77', customer_id: 'C-381' },
      customer: { name: 'Amina Benali', phone: '0550123456', email: 'amina@example.dz' },
      success_url: 'https://shop.example.dz/commande/merci',
      cancel_url: 'https://shop.example.dz/panier',
      language: 'fr',
      expires_in: 3600,
    },
  },
  amount: {
    summary: 'An amount alone, with the defaults (30 minutes, the store’s language)',
    value: { amount: 4500, reference: 'INV-2030-017', success_url: 'https://shop.example.dz/ok' },
  },
} as const

const CHECKOUT_SLUG = 'Vb7Nq2Lm8XcR'

/** A checkout as the API answers it, just made from the line items example. */
export const checkoutExample: CheckoutObject = {
  id: 'chk_8Lq2Wm4Xc7Vb1Nz6Hs9Tk3Pd',
  url: `${ORIGIN}/l/${CHECKOUT_SLUG}`,
  status: 'open',
  amount: 2999,
  currency: 'DZD',
  line_items: [
    {
      product_id: null,
      name: 'Tajine en terre cuite',
      quantity: 2,
      unit_price: 1299.5,
      amount: 2599,
    },
    { product_id: null, name: 'Livraison Alger', quantity: 1, unit_price: 400, amount: 400 },
  ],
  reference: 'CMD-1042',
  metadata: { cart_id: 'c_77', customer_id: 'C-381' },
  customer: { name: 'Amina Benali', phone: '0550123456', email: 'amina@example.dz' },
  success_url: 'https://shop.example.dz/commande/merci',
  cancel_url: 'https://shop.example.dz/panier',
  language: 'fr',
  expires_at: '2030-03-02T11:00:00.000Z',
  payment_id: null,
  created_at: '2030-03-02T10:00:00.000Z',
  completed_at: null,
}

/** The same checkout once paid. */
export const completedCheckoutExample: CheckoutObject = {
  ...checkoutExample,
  status: 'completed',
  payment_id: 'pay_6Rk1Hs4Jv9aQm5Tz8Lp2',
  completed_at: '2030-03-02T10:07:31.000Z',
}

/** The same checkout expired on request. */
export const expiredCheckoutExample: CheckoutObject = { ...checkoutExample, status: 'expired' }

/** A create body asking for what this Paylinks does not offer (422). */
export const unprocessableExample: ApiErrorObject = {
  error: {
    code: 'unprocessable_body',
    message:
      'The request body asks for what this Paylinks does not offer: line_items[0].product_id.',
    fields: {
      'line_items[0].product_id': 'line_items[0].product_id names no product of this Paylinks',
    },
  },
}

/** An error answer: a create body with two bad fields. */
export const errorExample: ApiErrorObject = {
  error: {
    code: 'invalid_body',
    message: 'The request body has invalid fields: amount, expires_at.',
    fields: {
      amount: 'amount must be an amount of DZD that is not negative and has at most two decimals',
      expires_at: 'expires_at must be in the future',
    },
  },
}

/** Request bodies for `POST /api/v1/products`. */
export const createProductExamples = {
  stocked: {
    summary: 'A product with a stock and a SKU',
    value: {
      name: 'Tajine en terre cuite',
      description: 'Fait main à Nabeul, 30 cm',
      price: 2500,
      stock: 12,
      sku: 'TAJ-30',
    },
  },
  unlimited: {
    summary: 'A product without a stock (unlimited)',
    value: { name: 'Cours de soutien — une séance', price: 1299.5 },
  },
} as const

/** Request bodies for `PATCH /api/v1/products/{id}`. */
export const updateProductExamples = {
  archive: { summary: 'Archive a product (no longer sold)', value: { active: false } },
  restock: { summary: 'Change the price and the stock', value: { price: 2700, stock: 20 } },
  unlimited: { summary: 'Sell without counting the stock', value: { stock: null } },
} as const

/** A product as the API answers it. */
export const productExample: ProductObject = {
  id: 'prod_7Qm3Vx9Lk2Pd8Rt4',
  name: 'Tajine en terre cuite',
  description: 'Fait main à Nabeul, 30 cm',
  price: 2500,
  currency: 'DZD',
  stock: 12,
  sku: 'TAJ-30',
  active: true,
  image_url: `${ORIGIN}/products/images/${'3f'.repeat(32)}.jpg`,
  created_at: '2030-03-01T09:30:00.000Z',
  updated_at: '2030-03-02T14:05:00.000Z',
}

/** Request bodies for `POST /api/v1/promo-codes`. */
export const createPromoCodeExamples = {
  percent: {
    summary: 'Ten percent off orders of 2000 DZD or more, 100 times, until the end of June',
    value: {
      code: 'RAMADAN10',
      percent_off: 10,
      min_amount: 2000,
      max_redemptions: 100,
      expires_at: '2030-06-30T23:59:00+01:00',
    },
  },
  amount: { summary: '500 DZD off any order', value: { code: 'BIENVENUE', amount_off: 500 } },
} as const

/** Request bodies for `PATCH /api/v1/promo-codes/{id}`. */
export const updatePromoCodeExamples = {
  deactivate: { summary: 'Switch the code off', value: { active: false } },
  amount: {
    summary: 'Make it 300 DZD off instead of a percent',
    value: { amount_off: 300, percent_off: null },
  },
} as const

/** A promo code as the API answers it. */
export const promoCodeExample: PromoCodeObject = {
  id: 'promo_3Hq8Wn2Kd5Tx9Lm4',
  code: 'RAMADAN10',
  percent_off: 10,
  amount_off: null,
  min_amount: 2000,
  max_redemptions: 100,
  expires_at: '2030-06-30T22:59:00.000Z',
  active: true,
  times_redeemed: 12,
  created_at: '2030-03-01T09:30:00.000Z',
  updated_at: '2030-03-02T14:05:00.000Z',
}
