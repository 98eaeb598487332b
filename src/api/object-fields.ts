/**
 * The fields the link and payment objects' zod schemas share: amounts, times and the list page.
 * Like those schemas, nothing the Worker runs imports a value from here.
 */
import * as z from 'zod'

export const dzd = z.number().describe('DZD, at most two decimals')
export const time = z.string().describe('ISO 8601, UTC')

/** The merchant's metadata as stored: `{}` when there is none. */
export const metadata = z
  .record(z.string(), z.string())
  .describe('your own keys and texts, as you set them; `{}` when there are none')

/** A page of `item`s, newest first, with the cursor of the next one. */
export const page = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    has_more: z.boolean().describe('whether another page follows'),
    next_cursor: z
      .string()
      .nullable()
      .describe('pass it as `cursor` to read the next page; null on the last page'),
  })
