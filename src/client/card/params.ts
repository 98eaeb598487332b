/**
 * Parameters of `make-cib-transaction` (direct interface document), validated and turned into the
 * query the gateway reads. Shared by `card.create` (redirect=no) and `card.redirectUrl`
 * (redirect=yes).
 */
import * as z from 'zod'
import { truncateMemo } from '../../lib/money.js'
import { accountId, dzdAmount, httpUrl, identifier, text, validate } from '../core/validate.js'

export const cardParamsSchema = z.strictObject({
  account: accountId(),
  amount: dzdAmount(50),
  full_name: text(),
  phone: z
    .string({ error: 'must be a string' })
    .trim()
    .regex(/^\+?[\d\s().-]+$/, 'must be a phone number (digits, optionally +, spaces, dashes)')
    .refine((v) => {
      const n = v.replace(/\D/g, '').length
      return n >= 8 && n <= 15
    }, 'must have 8 to 15 digits'),
  email: z.string({ error: 'must be a string' }).trim().pipe(z.email('must be an e-mail address')),
  return_url: httpUrl().optional(),
  webhook_url: httpUrl().optional(),
  invoice_id: identifier().optional(),
  language: z.enum(['ar', 'fr', 'en'], { error: 'must be ar, fr or en' }).optional(),
  memo: z.string({ error: 'must be a string' }).optional(),
  keep_return_url: z
    .union([z.boolean(), z.enum(['True', 'False'])], {
      error: 'must be true, false, "True" or "False"',
    })
    .optional(),
})

/**
 * Parameters of a card payment, with the document's names. `amount` is DZD (≥ 50, at most two
 * decimals) as a number or decimal text; `memo` is cut to 28 UTF-8 bytes; `redirect` is set by the
 * client.
 */
export type CardPaymentParams = z.input<typeof cardParamsSchema>

/** The query of `make-cib-transaction`, in the document's order, for the given redirect mode. */
export function cardQuery(
  params: CardPaymentParams,
  redirect: 'yes' | 'no',
): Record<string, string | undefined> {
  const p = validate(cardParamsSchema, params)
  // The amount travels as text exactly as given (trimmed), so no float rounding can creep in.
  const amount = typeof p.amount === 'number' ? String(p.amount) : p.amount.trim()
  const keep =
    p.keep_return_url === undefined
      ? undefined
      : p.keep_return_url === true || p.keep_return_url === 'True'
        ? 'True'
        : 'False'
  return {
    account: p.account,
    amount,
    full_name: p.full_name,
    phone: p.phone,
    email: p.email,
    return_url: p.return_url,
    webhook_url: p.webhook_url,
    invoice_id: p.invoice_id,
    language: p.language,
    memo: p.memo === undefined ? undefined : truncateMemo(p.memo),
    redirect,
    keep_return_url: keep,
  }
}
