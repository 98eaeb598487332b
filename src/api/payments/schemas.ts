/**
 * The payment API's query string, as a zod schema. The handlers parse with it and the OpenAPI
 * document is generated from it, so the two cannot drift apart.
 */
import * as z from 'zod'
import { LINK_SOURCES, PAYMENT_STATUSES } from '../../../db/schema.js'
import { SEARCH_MAX_CHARS, SEARCH_MIN_CHARS } from '../../data/search.js'
import { cursor, limit, search } from '../query-fields.js'

// Algeria keeps UTC+01:00 all year; a date alone means that whole day in the merchant's time.
const ALGIERS_OFFSET = '+01:00'

const list = (v: unknown) =>
  (Array.isArray(v) ? v : [v])
    .flatMap((s) => (typeof s === 'string' ? s.split(',') : [s]))
    .map((s) => (typeof s === 'string' ? s.trim() : s))

const instant = (bound: 'from' | 'to') =>
  z
    .union([z.iso.date(), z.iso.datetime({ offset: true })], {
      error:
        'must be a date (2026-01-31) or a date and time with a time zone (2026-01-31T09:30:00Z)',
    })
    .transform((v) => {
      if (v.length > 10) return Date.parse(v) + (bound === 'to' ? 1 : 0)
      const start = Date.parse(`${v}T00:00:00${ALGIERS_OFFSET}`)
      return bound === 'to' ? start + 86_400_000 : start
    })
    .describe(
      bound === 'from'
        ? 'Payments created at or after this date (Algiers time) or instant.'
        : 'Payments created at or before this date (the whole day, Algiers time) or instant.',
    )
    .optional()

const linkId = (what: string) =>
  z
    .string({ error: 'must be given once' })
    .min(1, { error: 'must not be empty' })
    .max(100, { error: 'must be at most 100 characters' })
    .describe(what)
    .optional()

/** `GET /api/v1/payments`; `to` is inclusive, `link` is another name for `link_id`. */
export const listPaymentsQuery = z.strictObject({
  status: z
    .preprocess(
      list,
      z.array(z.enum(PAYMENT_STATUSES, { error: `must be one of ${PAYMENT_STATUSES.join(', ')}` })),
    )
    .describe('One status or several, comma-separated (`paid,pending`) or repeated.')
    .optional(),
  link_id: linkId('Only payments on this link.'),
  link: linkId('The same as `link_id`.'),
  from: instant('from'),
  to: instant('to'),
  source: z
    .enum(LINK_SOURCES, { error: `must be one of ${LINK_SOURCES.join(', ')}` })
    .describe(
      'Only payments on links made there: `dashboard`, `api`, `till` (point of sale) or `checkout` (checkout sessions).',
    )
    .optional(),
  q: search(
    `Only payments whose customer name, phone, e-mail, \`order_number\`, \`cib_transaction_id\` or \`ref\` contains this text, or whose \`id\` or receipt id (or receipt URL) it is: ${SEARCH_MIN_CHARS} to ${SEARCH_MAX_CHARS} characters, Latin letters in any case; a phone matches with or without spaces, in its 0… or +213… form, and Eastern Arabic digits count as 0-9.`,
  ),
  limit,
  cursor,
})

export type ListPaymentsQuery = z.output<typeof listPaymentsQuery>
