/** Small zod helpers shared by the simulator's request parsers. */
import * as z from 'zod'
import { readDzd } from './wire/amounts.js'

/** An amount of DZD (JSON number or decimal text, at most two decimals) parsed to centimes. */
export const dzdAmount = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const centimes = readDzd(value)
  if (centimes === null) {
    ctx.addIssue({ code: 'custom', message: 'must be an amount of DZD with at most two decimals' })
    return z.NEVER
  }
  return centimes
})

/** The first problem of a failed parse of `input`, as `field: rule` ("is required" for a missing field). */
export function firstIssue(error: z.ZodError, input?: unknown): string {
  const issue = error.issues[0]
  if (!issue) return 'invalid request'
  const path = issue.path.join('.')
  let value: unknown = input
  for (const key of issue.path) {
    value =
      value !== null && typeof value === 'object'
        ? (value as Record<PropertyKey, unknown>)[key]
        : undefined
  }
  const missing = value === undefined && (input !== undefined || issue.code === 'invalid_type')
  const message = missing ? 'is required' : issue.message
  return path ? `${path}: ${message}` : message
}

/** Reads a JSON object body; null when the body is not a JSON object. */
export async function readJsonObject(request: Request): Promise<Record<string, unknown> | null> {
  try {
    const value: unknown = JSON.parse(await request.text())
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null
  } catch {
    return null
  }
}
