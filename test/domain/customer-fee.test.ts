/**
 * The arithmetic of the order summary: a promo code's discount (a percent rounded down to the
 * centime, or the amount off, never leaving less than the card's minimum) and the customer's fee
 * (rounded half up to the centime), and the settings' percent as typed and stored.
 */
import { describe, expect, it } from 'vitest'
import {
  customerFee,
  feePercentText,
  parseFeePercent,
  storedFeeHundredths,
} from '../../src/domain/customer-fee.js'
import { promoDiscount } from '../../src/payments/order-promo.js'

describe('the promo discount', () => {
  it('takes a percent of the subtotal rounded down to the centime', () => {
    expect(promoDiscount({ percentOff: 10, amountOff: null }, 150_000)).toBe(15_000)
    // 15 % of 1 234,57 DA is 185,1855 DA: 185,18 DA.
    expect(promoDiscount({ percentOff: 15, amountOff: null }, 123_457)).toBe(18_518)
  })

  it('takes the amount off as it is', () => {
    expect(promoDiscount({ percentOff: null, amountOff: 20_000 }, 150_000)).toBe(20_000)
  })

  it('never leaves less than the card minimum (50 DA) to pay', () => {
    expect(promoDiscount({ percentOff: 100, amountOff: null }, 150_000)).toBe(145_000)
    expect(promoDiscount({ percentOff: null, amountOff: 1_000_000 }, 150_000)).toBe(145_000)
    expect(promoDiscount({ percentOff: 50, amountOff: null }, 5_000)).toBe(0)
  })
})

describe('the customer fee', () => {
  it('is the percent of what remains after the discount, rounded half up to the centime', () => {
    expect(customerFee(135_000, 250)).toBe(3_375)
    // 2.5 % of 1 234,50 DA is 30,8625 DA: 30,86 DA; of 1 234,70 DA, 30,8675: 30,87 DA.
    expect(customerFee(123_450, 250)).toBe(3_086)
    expect(customerFee(123_470, 250)).toBe(3_087)
    // Exactly half a centime goes up: 1 % of 0,50 DA.
    expect(customerFee(50, 100)).toBe(1)
    expect(customerFee(150_000, 0)).toBe(0)
    expect(customerFee(10_000_000_000, 1000)).toBe(1_000_000_000)
  })

  it('reads the settings percent from 0 to 10 with two decimals, and writes it back', () => {
    expect(parseFeePercent('2.5')).toBe(250)
    expect(parseFeePercent('2,5')).toBe(250)
    expect(parseFeePercent('0')).toBe(0)
    expect(parseFeePercent('10')).toBe(1000)
    expect(parseFeePercent('0.25')).toBe(25)
    for (const bad of ['10.01', '11', '-1', '2.555', 'abc', '', '1e1'])
      expect(parseFeePercent(bad), bad).toBeNull()
    expect(feePercentText(250)).toBe('2.5')
    expect(feePercentText(25)).toBe('0.25')
    expect(feePercentText(1000)).toBe('10')
    expect(storedFeeHundredths(null)).toBe(0)
    expect(storedFeeHundredths('250')).toBe(250)
    expect(storedFeeHundredths('5000')).toBe(0)
  })
})
