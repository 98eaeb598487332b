/**
 * Creating and changing promo codes, shared by the merchant API and the dashboard: the body is read
 * by its schema (src/api/promo-codes/schemas.ts), the code's one kind of discount checked with the
 * stored row on a change, then written in one statement.
 */
import type { PromoCode } from '../../db/schema.js'
import {
  createPromoCodeBody,
  parsePromoCodeBody,
  updatePromoCodeBody,
} from '../api/promo-codes/schemas.js'
import type { Db } from '../data/db.js'
import {
  createPromoCode,
  getPromoCode,
  type PromoCodeChanges,
  updatePromoCode,
} from '../data/promo-codes.js'
import type { FieldProblems } from '../domain/problems.js'

export type PromoCodeResult =
  // `before`: the stored code an update changed (the audit log tells a switch-off from an edit).
  | { ok: true; promoCode: PromoCode; before?: PromoCode }
  | { ok: false; kind: 'invalid'; problems: FieldProblems }
  | { ok: false; kind: 'not_found' }
  | { ok: false; kind: 'code_taken' }

type Deps = { db: Db; clock: () => number }

/**
 * The problem of a code that would have both kinds of discount or none: named on the field the
 * body sent (or `percent_off` when it sent neither).
 */
function discountProblem(
  percentOff: number | null,
  amountOff: number | null,
  sent: { percent_off?: unknown; amount_off?: unknown },
): FieldProblems | null {
  if ((percentOff === null) !== (amountOff === null)) return null
  const field =
    sent.amount_off !== undefined && sent.percent_off === undefined ? 'amount_off' : 'percent_off'
  return { [field]: { code: 'one_discount' } }
}

/** Validates a create body and stores the code. */
export async function createPromoCodeFromBody(deps: Deps, body: unknown): Promise<PromoCodeResult> {
  const parsed = parsePromoCodeBody(createPromoCodeBody, body)
  if (!parsed.ok) return { ok: false, kind: 'invalid', problems: parsed.problems }
  const v = parsed.value
  const problem = discountProblem(v.percent_off ?? null, v.amount_off ?? null, v)
  if (problem) return { ok: false, kind: 'invalid', problems: problem }
  const written = await createPromoCode(
    deps.db,
    {
      code: v.code,
      percentOff: v.percent_off ?? null,
      amountOff: v.amount_off ?? null,
      minAmount: v.min_amount ?? null,
      maxRedemptions: v.max_redemptions ?? null,
      expiresAt: v.expires_at ?? null,
      active: v.active ?? true,
    },
    deps.clock(),
  )
  return written.ok ? { ok: true, promoCode: written.promoCode } : written
}

const COLUMNS = {
  code: 'code',
  percent_off: 'percentOff',
  amount_off: 'amountOff',
  min_amount: 'minAmount',
  max_redemptions: 'maxRedemptions',
  expires_at: 'expiresAt',
  active: 'active',
} as const

/**
 * Validates an update body and applies the fields it names. Switching the kind of discount sends
 * the new one and `null` for the other (`{"amount_off": 500, "percent_off": null}`).
 */
export async function updatePromoCodeFromBody(
  deps: Deps,
  id: string,
  body: unknown,
): Promise<PromoCodeResult> {
  const parsed = parsePromoCodeBody(updatePromoCodeBody, body)
  if (!parsed.ok) return { ok: false, kind: 'invalid', problems: parsed.problems }
  const before = await getPromoCode(deps.db, id)
  if (!before) return { ok: false, kind: 'not_found' }
  const changes: PromoCodeChanges = {}
  for (const [key, value] of Object.entries(parsed.value))
    if (value !== undefined)
      (changes as Record<string, unknown>)[COLUMNS[key as keyof typeof COLUMNS]] = value
  const problem = discountProblem(
    changes.percentOff !== undefined ? changes.percentOff : before.percentOff,
    changes.amountOff !== undefined ? changes.amountOff : before.amountOff,
    parsed.value,
  )
  if (problem) return { ok: false, kind: 'invalid', problems: problem }
  const written = await updatePromoCode(deps.db, id, changes, deps.clock())
  return written.ok ? { ok: true, promoCode: written.promoCode, before } : written
}
