/**
 * Request rules of `POST {site}/services/operation_post`, one schema per kind of operation, from
 * the direct interface document. `encrypted_sk` is added by the client and is not a field here.
 */
import * as z from 'zod'
import { centimesToDzdNumber, parseDzd } from '../../lib/money.js'
import { dzdAmount, identifier, text } from '../core/validate.js'

/** DZD as a number or decimal text; sent as a JSON number (exact for two decimals). */
const amount = () => dzdAmount().transform((v) => centimesToDzdNumber(parseDzd(v)!))

/** An Algerian mobile number: 0 and 9 digits, or the +213 form. */
const mobileNumber = () =>
  z
    .string({ error: 'must be a string' })
    .regex(/^(?:0\d{9}|\+?213\d{9})$/, 'must be a 10-digit Algerian number (or +213 and 9 digits)')

export const phoneOperationSchema = z.strictObject({
  amount: amount(),
  operator: z.enum(['djezzy', 'ooredoo', 'mobilis'], {
    error: 'must be one of djezzy, ooredoo, mobilis',
  }),
  offer: z.enum(['prepaid', 'postpaid'], { error: 'must be prepaid or postpaid' }),
  phone: mobileNumber(),
})

/** The IDOOM offers' amounts in DZD. */
export const IDOOM_AMOUNTS = [500, 1000, 2000, 3000, 5000, 10000] as const
const IDOOM_OFFER = /^IDOOM (4G|ADSL) (\d+)$/

export const internetOperationSchema = z
  .strictObject({
    // The offer names the amount, so it may be left out; when given it must agree.
    amount: amount().optional(),
    operator: z.literal('idoom', { error: 'must be idoom' }).default('idoom'),
    offer: z
      .string({ error: 'must be a string' })
      .regex(IDOOM_OFFER, 'must be "IDOOM 4G <amount>" or "IDOOM ADSL <amount>"')
      .refine(
        (offer) =>
          (IDOOM_AMOUNTS as readonly number[]).includes(Number(IDOOM_OFFER.exec(offer)?.[2])),
        `must name one of the amounts ${IDOOM_AMOUNTS.join(', ')}`,
      ),
    phone: z.string({ error: 'must be a string' }).regex(/^\d+$/, 'must be digits only'),
  })
  .superRefine((op, ctx) => {
    const match = IDOOM_OFFER.exec(op.offer)
    if (!match) return
    const length = match[1] === '4G' ? 10 : 9
    if (op.phone.length !== length)
      ctx.addIssue({
        code: 'custom',
        path: ['phone'],
        message: `must be ${length} digits for ${match[1] === '4G' ? 'IDOOM 4G (mobile)' : 'IDOOM ADSL (fixed line)'}`,
      })
    if (op.amount !== undefined && op.amount !== Number(match[2]))
      ctx.addIssue({
        code: 'custom',
        path: ['amount'],
        message: 'must equal the amount in the offer',
      })
  })
  .transform((op) => ({
    amount: op.amount ?? Number(IDOOM_OFFER.exec(op.offer)?.[2]),
    operator: op.operator,
    offer: op.offer,
    phone: op.phone,
  }))

/** Predefined game offer codes; any other non-numeric offer is a custom offer name. */
export const GAME_CODES = {
  freefire: ['110', '210', '530', '1080', '2200'],
  pubg: ['60', '325', '660'],
} as const

export const gameOperationSchema = z
  .strictObject({
    amount: amount(),
    operator: z.enum(['freefire', 'pubg'], { error: 'must be freefire or pubg' }),
    offer: identifier(),
    playerId: identifier(),
  })
  .superRefine((op, ctx) => {
    const codes: readonly string[] = GAME_CODES[op.operator]
    if (/^\d+$/.test(op.offer) && !codes.includes(op.offer))
      ctx.addIssue({
        code: 'custom',
        path: ['offer'],
        message: `must be one of the ${op.operator} codes ${codes.join(', ')} or a custom offer name`,
      })
  })

const billFields = {
  amount: amount(),
  bill: identifier(),
  offer: z.string({ error: 'must be a string' }).optional(),
}

export const billOperationSchema = z
  .discriminatedUnion(
    'operator',
    [
      z.strictObject({ ...billFields, operator: z.literal('ade') }),
      z.strictObject({
        ...billFields,
        operator: z.literal('sonelgaz'),
        customerId: identifier(),
        ebb: identifier(),
      }),
      z.strictObject({ ...billFields, operator: z.literal('algerie_telecom'), phone: text() }),
    ],
    { error: 'must be one of ade, sonelgaz, algerie_telecom' },
  )
  .superRefine((op, ctx) => {
    if (op.offer !== undefined && op.offer !== op.operator)
      ctx.addIssue({
        code: 'custom',
        path: ['offer'],
        message: 'must be the same value as operator',
      })
  })
  // The offer of a bill is always the operator, so the client fills it in.
  .transform((op) => ({ ...op, offer: op.operator }))

/** A phone top-up: operator djezzy/ooredoo/mobilis, offer prepaid/postpaid, a mobile number. */
export type PhoneOperationRequest = z.input<typeof phoneOperationSchema>
/** An internet top-up: `IDOOM 4G <amount>` (10 digits) or `IDOOM ADSL <amount>` (9 digits). */
export type InternetOperationRequest = z.input<typeof internetOperationSchema>
/** A game top-up: freefire or pubg, a predefined code or a custom offer name, `playerId`. */
export type GameOperationRequest = z.input<typeof gameOperationSchema>
/** A bill payment: ade, sonelgaz (with customerId and ebb) or algerie_telecom (with phone). */
export type BillOperationRequest = z.input<typeof billOperationSchema>
