/**
 * The fee a customer pays on top of the order when the merchant passes the card's cost on: the
 * setting `customer_fee_percent` (0 to 10, up to two decimals) on a link with `customer_fee: true`.
 * Kept as hundredths of a percent (2.5 % is 250) so the sum stays in integers.
 */

/** The settings key of the customer's fee, stored as hundredths of a percent (`250` = 2.5 %). */
export const CUSTOMER_FEE_PERCENT_KEY = 'customer_fee_percent'

/** The highest fee a merchant may ask, in hundredths of a percent (10 %). */
export const MAX_CUSTOMER_FEE_HUNDREDTHS = 1000

const PERCENT_TEXT = /^(\d{1,2})(?:[.,](\d{1,2}))?$/

/**
 * A percent as typed (`2.5`, `2,5`, `10`, `0`) in hundredths, or null when it is not 0 to 10 with
 * at most two decimals.
 */
export function parseFeePercent(text: string): number | null {
  const match = PERCENT_TEXT.exec(text.trim())
  if (!match) return null
  const hundredths = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'))
  return hundredths <= MAX_CUSTOMER_FEE_HUNDREDTHS ? hundredths : null
}

/** The stored setting as hundredths: 0 when absent or not one this code wrote. */
export function storedFeeHundredths(stored: string | null): number {
  if (stored === null || !/^\d{1,4}$/.test(stored)) return 0
  const n = Number(stored)
  return n <= MAX_CUSTOMER_FEE_HUNDREDTHS ? n : 0
}

/** Hundredths as the percent a person reads: `2.5`, `10`, `0.25` (no trailing zeros). */
export function feePercentText(hundredths: number): string {
  const whole = Math.trunc(hundredths / 100)
  const rest = hundredths % 100
  if (rest === 0) return String(whole)
  return `${whole}.${String(rest).padStart(2, '0').replace(/0$/, '')}`
}

/**
 * The fee on `base` centimes (the subtotal less the discount): `base × percent / 100`, rounded
 * half up to the centime. Exact in integers: base ≤ MAX_AMOUNT (1e10) times 1000 stays far below
 * 2^53.
 */
export function customerFee(base: number, hundredths: number): number {
  if (base <= 0 || hundredths <= 0) return 0
  return Math.floor((base * hundredths + 5000) / 10000)
}
