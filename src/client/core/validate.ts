/**
 * Local validation before anything is sent: zod schemas shared by the resources, and the mapping
 * of zod issues to a ValidationError that names each field and rule. Messages never repeat the
 * value received, so a mistyped secret cannot leak through them.
 */
import * as z from 'zod'
import { centimesToDzdNumber, parseDzd } from '../../lib/money.js'
import { isValidAccountId, isValidSecretSeed } from '../../lib/strkey.js'
import { ValidationError } from './errors.js'

/** Parses `input` with `schema` or throws a ValidationError listing every broken rule. */
export function validate<S extends z.ZodType>(
  schema: S,
  input: unknown,
  context?: string,
): z.output<S> {
  const result = schema.safeParse(input)
  if (result.success) return result.data
  const fields: Record<string, string[]> = {}
  for (const issue of result.error.issues) {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : ['']
    for (const key of keys) {
      const path = [...issue.path, ...(key ? [key] : [])].map(String).join('.') || '(body)'
      const message =
        issue.code === 'unrecognized_keys'
          ? 'is not a field of this request'
          : issue.path.length > 0 && valueAt(input, issue.path) === undefined
            ? 'is required'
            : issue.message
      const list = fields[path] ?? []
      if (!list.includes(message)) list.push(message)
      fields[path] = list
    }
  }
  throw new ValidationError(fields, context)
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<PropertyKey, unknown>)[key]
  }
  return value
}

/** A non-empty string after trimming (trimmed value kept). */
export const text = () => z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty')

/** An identifier given as text or as a number; sent as text. */
export const identifier = () =>
  z
    .union([z.string(), z.number().int()], { error: 'must be a string or an integer' })
    .transform((v) => String(v).trim())
    .pipe(z.string().min(1, 'must not be empty'))

/**
 * `{ id }` for the calls that take one identifier. Built once: a zod object schema compiles itself
 * on first use, so one built per call costs far more than the check.
 */
export const idInput = z.object({ id: identifier() })

/** A string of exactly `n` digits. */
export const digits = (n: number) =>
  z.string({ error: 'must be a string' }).regex(new RegExp(`^\\d{${n}}$`), `must be ${n} digits`)

/** An http(s) URL. */
export const httpUrl = () =>
  z.string({ error: 'must be a string' }).refine((value) => {
    try {
      const url = new URL(value)
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
    } catch {
      return false
    }
  }, 'must be an http or https URL')

/** A positive DZD amount with at most two decimals, given as a number or decimal text. */
export const dzdAmount = (min = 0) =>
  z
    .union([z.number(), z.string()], { error: 'must be a number or decimal text' })
    .superRefine((value, ctx) => {
      const centimes = parseDzd(value)
      if (centimes === null)
        ctx.addIssue({ code: 'custom', message: 'must be a DZD amount with at most two decimals' })
      else if (centimes <= 0) ctx.addIssue({ code: 'custom', message: 'must be greater than 0' })
      else if (centimes < min * 100)
        ctx.addIssue({ code: 'custom', message: `must be at least ${min} DZD` })
    })

/** A ledger public account (`G…`, 56 characters, valid checksum). */
export const accountId = () =>
  z
    .string({ error: 'must be a string' })
    .refine(isValidAccountId, 'must be a ledger account id (G…, 56 characters, valid checksum)')

/** A plain secret seed (`S…`, 56 characters, valid checksum). */
export const secretSeed = () =>
  z
    .string({ error: 'must be a string' })
    .refine(isValidSecretSeed, 'must be a secret seed (S…, 56 characters, valid checksum)')

/** A non-negative integer, given as a number. */
export const count = (min: number) =>
  z
    .number({ error: 'must be a number' })
    .int('must be an integer')
    .min(min, `must be at least ${min}`)

/** A price in DZD (zero allowed), at most two decimals; sent as a JSON number. */
export const price = () =>
  z
    .union([z.number(), z.string()], { error: 'must be a number or decimal text' })
    .refine((v) => parseDzd(v) !== null, 'must be a DZD amount (≥ 0) with at most two decimals')
    .transform((v) => centimesToDzdNumber(parseDzd(v)!))

/** A positive DZD amount (two decimals at most), sent as a JSON number. */
export const amountNumber = (min = 0) =>
  dzdAmount(min).transform((v) => centimesToDzdNumber(parseDzd(v)!))
