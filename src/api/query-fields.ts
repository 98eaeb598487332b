/**
 * The query fields the list routes share, as zod schemas: the page size, the cursor and a search
 * text. Query values are text; numbers and booleans are read strictly (no `0x10`, no `yes`).
 */
import * as z from 'zod'
import { decodeCursor, MAX_PAGE_SIZE } from '../data/paging.js'
import { parseSearch, SEARCH_MAX_CHARS, SEARCH_MIN_CHARS } from '../data/search.js'

const wholeNumber = (v: unknown) => (typeof v === 'string' && /^\d{1,6}$/.test(v) ? Number(v) : v)

/** How many items a page holds. */
export const limit = z
  .preprocess(
    wholeNumber,
    z
      .number({ error: `must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
      .int({ error: `must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
      .min(1, { error: `must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
      .max(MAX_PAGE_SIZE, { error: `must be at most ${MAX_PAGE_SIZE}` }),
  )
  .describe(`How many items a page holds, 1 to ${MAX_PAGE_SIZE}; default 50.`)
  .optional()

/** Where the next page starts. */
export const cursor = z
  .string({ error: 'must be given once' })
  .max(100, { error: 'is not a cursor this API gave' })
  .refine((v) => decodeCursor(v) !== null, { error: 'is not a cursor this API gave' })
  .transform((v) => decodeCursor(v)!)
  .describe('The `next_cursor` of the previous page, to read the next one.')
  .optional()

// A search text: bounded, at least three characters (the trigram index finds nothing shorter).
export const search = (what: string) =>
  z
    .string({ error: 'must be given once' })
    .min(SEARCH_MIN_CHARS, { error: `must hold at least ${SEARCH_MIN_CHARS} characters` })
    .max(SEARCH_MAX_CHARS, { error: `must be at most ${SEARCH_MAX_CHARS} characters` })
    .transform((v, ctx) => {
      const parsed = parseSearch(v)
      if (parsed.ok) return parsed.term
      ctx.addIssue({
        code: 'custom',
        message:
          parsed.problem === 'too_long'
            ? `must be at most ${SEARCH_MAX_CHARS} characters`
            : `must hold at least ${SEARCH_MIN_CHARS} characters (the search finds parts of ${SEARCH_MIN_CHARS} characters or more)`,
      })
      return z.NEVER
    })
    .describe(what)
    .optional()
