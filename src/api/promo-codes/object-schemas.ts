/**
 * The zod schemas of the merchant API's promo code object and of its list page. The OpenAPI
 * document is made from them; the handlers build the answers with objects.ts, which does not parse
 * them. Nothing the Worker runs imports a value from here.
 */
import * as z from 'zod'
import { dzd, page, time } from '../object-fields.js'

export const promoCodeObject = z.object({
  id: z.string(),
  code: z.string().describe('as you wrote it; the customer may type it in any case'),
  percent_off: z.number().int().nullable().describe('whole percent off; null with amount_off'),
  amount_off: dzd.nullable().describe('DZD off; null with percent_off'),
  min_amount: dzd.nullable().describe('the least order it applies to; null: any'),
  max_redemptions: z.number().int().nullable().describe('null: no limit'),
  expires_at: time.nullable(),
  active: z.boolean(),
  times_redeemed: z.number().int().describe('paid payments that used it'),
  created_at: time,
  updated_at: time,
})
export type PromoCodeObject = z.infer<typeof promoCodeObject>

/** A page of promo codes, newest first. */
export const promoCodeList = page(promoCodeObject)
