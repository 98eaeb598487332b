/**
 * The receipt e-mail shows the rows the receipt page shows (receiptRows): with the settings'
 * contact details and receipt footer when they are set, without empty rows when they are not.
 */
import { describe, expect, it } from 'vitest'
import { composeCustomerReceipt } from '../../src/mail/compose.js'
import { MAIL_TABLES } from '../../src/mail/messages.js'
import type { ReceiptView } from '../../views/receipt.js'

const receipt: ReceiptView = {
  receiptId: 'rcp_mail',
  status: 'paid',
  amount: 150000 as ReceiptView['amount'],
  linkTitle: 'Cahier',
  linkSlug: 'cahier',
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
}

const base = {
  to: 'amina@example.dz',
  lang: 'en' as const,
  merchantName: 'Librairie El Amel',
  testMode: true,
  receipt,
  receiptUrl: 'https://pay.example.dz/r/rcp_mail',
  file: null,
  words: MAIL_TABLES.en,
}

describe('the receipt e-mail', () => {
  it('lists the merchant’s contact details from the settings', () => {
    const mail = composeCustomerReceipt({
      ...base,
      merchantContacts: { phone: '+213 550 12 34 56', email: 'contact@elamel.dz', address: null },
      receiptFooter: 'RC 16/00-1234567 <b>',
    })
    expect(mail.text).toContain('RC 16/00-1234567 <b>')
    expect(mail.html).toContain('RC 16/00-1234567 &lt;b&gt;')
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('+213 550 12 34 56')
      expect(part).toContain('contact@elamel.dz')
    }
    expect(mail.text).not.toContain('Address')
  })

  it('has no contact rows when none is set', () => {
    const mail = composeCustomerReceipt(base)
    expect(mail.text).not.toContain('Phone')
    expect(mail.text).toContain('Librairie El Amel')
  })
})
