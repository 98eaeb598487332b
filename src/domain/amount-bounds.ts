/**
 * The bounds every amount a link or a payment takes must keep, in integer centimes: the link
 * rules, the customer's form, the till and the API body all check against these.
 */

/** The card network's minimum payment: 50 DZD, in centimes. */
export const MIN_AMOUNT = 5000
/** A sanity ceiling on any amount (100 000 000 DZD) that keeps item totals exact integers. */
export const MAX_AMOUNT = 10_000_000_000
