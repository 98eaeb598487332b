import { describe, expect, it } from 'vitest'
import { MAX_AMOUNT, MIN_AMOUNT } from '../../src/domain/amount-bounds.js'
import { type AmountBounds, parseCheckoutForm } from '../../src/domain/checkout-input.js'

const FORM = { name: 'Amina Benali', phone: '0550123456', email: 'amina@example.dz', terms: 'yes' }
const OPEN: AmountBounds = { open: true, min: MIN_AMOUNT, max: null }

const amountOf = (amount: string, bounds = OPEN) => {
  const r = parseCheckoutForm({ ...FORM, amount }, bounds)
  return r.ok ? r.value.amount : r.errors.amount
}

describe('the open amount of a link without a maximum', () => {
  it('takes the ceiling of link creation exactly (100 000 000 DZD)', () => {
    expect(MAX_AMOUNT).toBe(10_000_000_000)
    expect(amountOf('100000000')).toBe(MAX_AMOUNT)
    expect(amountOf('100 000 000,00')).toBe(MAX_AMOUNT)
  })

  it('refuses one centime over the ceiling, and far over it, with the range to respect', () => {
    for (const amount of ['100000000.01', '9999999999999', '99999999999999999999'])
      expect(amountOf(amount), amount).toMatchObject({ key: expect.stringMatching(/^errAmount/) })
    expect(amountOf('100000000.01')).toEqual({
      key: 'errAmountRange',
      params: { min: MIN_AMOUNT, max: MAX_AMOUNT },
    })
  })

  it("takes the card network's minimum and refuses one centime under it", () => {
    expect(amountOf('50')).toBe(MIN_AMOUNT)
    expect(amountOf('49.99')).toEqual({ key: 'errAmountMin', params: { min: MIN_AMOUNT } })
  })
})

describe('stored bounds outside the limits', () => {
  it('never let an amount under 50 DZD or over the ceiling through', () => {
    const odd: AmountBounds = { open: true, min: 0, max: Number.MAX_SAFE_INTEGER }
    expect(amountOf('1', odd)).toEqual({
      key: 'errAmountRange',
      params: { min: MIN_AMOUNT, max: MAX_AMOUNT },
    })
    expect(amountOf('100000000.01', odd)).toMatchObject({ key: 'errAmountRange' })
    expect(amountOf('1500', odd)).toBe(150000)
  })

  it('keep a merchant maximum below the ceiling', () => {
    expect(amountOf('200.01', { open: true, min: 10000, max: 20000 })).toEqual({
      key: 'errAmountRange',
      params: { min: 10000, max: 20000 },
    })
  })
})

describe('text that is not text', () => {
  // Each is put in the middle of a valid value: trimming cannot remove it.
  const cases = ['\u0000', '\ufffd', '\ud800', '\t', '\u001b', '\u0085']
  it.each(['name', 'phone', 'email', 'amount'])('in %s is refused by name', (field) => {
    for (const bad of cases) {
      const valid = FORM[field as keyof typeof FORM] ?? '1500'
      const value = `${valid.slice(0, 2)}${bad}${valid.slice(2)}`
      const r = parseCheckoutForm({ ...FORM, amount: '1500', [field]: value }, OPEN)
      expect(r.ok, `${field}: ${JSON.stringify(value)}`).toBe(false)
      if (!r.ok) expect(r.errors).toEqual({ [field]: { key: 'errText' } })
    }
  })

  it('in the reference is refused with its own message', () => {
    const r = parseCheckoutForm({ ...FORM, ref: 'INV-1\u0000' }, { open: false, min: 0, max: null })
    expect(r.ok || r.errors).toEqual({ ref: { key: 'errRefText' } })
  })

  it('but spaces and line breaks around a value are trimmed as before', () => {
    const r = parseCheckoutForm({ ...FORM, name: ' Amina Benali\r\n', ref: ' A-1 ' }, OPEN)
    expect(r.ok).toBe(false)
    const fixed = parseCheckoutForm({ ...FORM, name: ' Amina Benali\r\n', amount: '60' }, OPEN)
    expect(fixed.ok && fixed.value.name).toBe('Amina Benali')
  })
})

describe('a fixed amount stored outside the limits', () => {
  it('is refused before anything is sent to the gateway, with the limits', () => {
    for (const fixed of [2 ** 63, 1.5, 0, -100, 'abc' as never, MAX_AMOUNT + 1, MIN_AMOUNT - 1]) {
      const r = parseCheckoutForm(FORM, { open: false, min: 0, max: null, fixed })
      expect(r.ok || r.errors, String(fixed)).toEqual({
        amount: { key: 'errAmountRange', params: { min: MIN_AMOUNT, max: MAX_AMOUNT } },
      })
    }
  })

  it('but a fixed amount within them passes', () => {
    for (const fixed of [MIN_AMOUNT, 150000, MAX_AMOUNT]) {
      expect(parseCheckoutForm(FORM, { open: false, min: 0, max: null, fixed }).ok).toBe(true)
    }
  })
})

describe('the e-mail address', () => {
  it("is refused by its field when the gateway client's rule would refuse it", () => {
    for (const email of ['%@b.dz', 'a..b@example.dz', 'amina@example']) {
      const r = parseCheckoutForm({ ...FORM, email }, { open: false, min: 0, max: null })
      expect(r.ok || r.errors, email).toEqual({ email: { key: 'errEmail' } })
    }
    expect(parseCheckoutForm(FORM, { open: false, min: 0, max: null }).ok).toBe(true)
  })
})

describe('digits typed on an Arabic or Persian keyboard', () => {
  it('make an open amount: ١٥٠٠ is 1,500.00 DA, ۲۵۰٫۵۰ is 250.50 DA, ١٬٥٠٠ is 1,500.00 DA', () => {
    expect(amountOf('١٥٠٠')).toBe(150_000)
    expect(amountOf('۲۵۰٫۵۰')).toBe(25_050)
    expect(amountOf('١٬٥٠٠')).toBe(150_000)
  })

  it('make a phone number: ٠٦٦١٢٣٤٥٦٧ and ۰۶۶۱۲۳۴۵۶۷ are 0661234567', () => {
    for (const phone of ['٠٦٦١٢٣٤٥٦٧', '۰۶۶۱۲۳۴۵۶۷', '+٢١٣ ٦٦١ ٢٣ ٤٥ ٦٧']) {
      const r = parseCheckoutForm({ ...FORM, phone, amount: '100' }, OPEN)
      expect(r.ok ? 'ok' : r.errors).toBe('ok')
    }
    const r = parseCheckoutForm({ ...FORM, phone: '٠٦٦١٢٣٤٥٦٧', amount: '100' }, OPEN)
    expect(r.ok && r.value.phone).toBe('0661234567')
  })

  it('are still refused when they do not make a valid number', () => {
    expect(amountOf('١٥x')).toEqual({ key: 'errAmount' })
    const r = parseCheckoutForm({ ...FORM, phone: '٠٦٦١' }, OPEN)
    expect(r.ok ? 'ok' : r.errors.phone).toEqual({ key: 'errPhone' })
  })
})
