/** What a promo code's text may be: 3 to 40 ASCII letters, digits, `_` and `-` (any case). */
export const PROMO_CODE_PATTERN = /^[A-Za-z0-9_-]{3,40}$/
