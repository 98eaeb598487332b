/**
 * The `metadata` field of the merchant API's bodies (links now, checkouts later): an object of at
 * most 20 keys of 1 to 40 letters, digits, `_`, `.` and `-`, each with a text of at most 500
 * characters. A key set to "" is no key: left out of a new object, removed by a change (Stripe's
 * rule; src/domain/metadata.ts). Each rule answers with its own problem code, naming `metadata`
 * for a key that breaks one and `metadata.<key>` for a bad value (zod-problems.ts).
 */
import * as z from 'zod'
import { cleanText } from '../domain/clean-text.js'
import {
  METADATA_KEY_MAX,
  METADATA_KEY_PATTERN,
  METADATA_MAX_KEYS,
  METADATA_VALUE_MAX,
  withoutEmpty,
} from '../domain/metadata.js'
import type { ProblemCode } from '../domain/problems.js'

// zod's record never copies a `__proto__` key into what it returns: such a key is left out.
const key = z.string().max(METADATA_KEY_MAX).regex(METADATA_KEY_PATTERN)

const value = z
  .string({ error: 'not_text' })
  .max(METADATA_VALUE_MAX)
  .refine(...cleanText(true))

const DESCRIPTION = `Your own keys and texts, kept with the object and never read by Paylinks: at most ${METADATA_MAX_KEYS} keys of 1 to ${METADATA_KEY_MAX} letters, digits, \`_\`, \`.\` or \`-\`, each with a text of at most ${METADATA_VALUE_MAX} characters.`

const metadataObject = z
  .record(key, value, { error: 'not_object' })
  .refine((m) => Object.keys(m).length <= METADATA_MAX_KEYS, {
    params: { code: 'too_many_keys' satisfies ProblemCode, max: METADATA_MAX_KEYS },
  })
  .meta({ maxProperties: METADATA_MAX_KEYS })

/** A new object's metadata: keys set to "" are left out; null is none. */
export const newMetadata = metadataObject
  .nullable()
  .transform((m) => (m === null ? {} : withoutEmpty(m)))
  .describe(`${DESCRIPTION} A key set to "" is left out.`)

/** A change of metadata: merged into the stored keys; "" removes a key, null removes them all. */
export const metadataChange = metadataObject
  .nullable()
  .describe(
    `${DESCRIPTION} Merged into the stored metadata: keys left out are kept, a key set to "" is removed, and \`null\` removes every key. The result holds at most ${METADATA_MAX_KEYS} keys.`,
  )
