/**
 * The rules of `POST services/operation_post`, per kind (gateway-direct-interface.md): operators,
 * offers, phone lengths, IDOOM offers and amounts, game codes, bill extras.
 */
import type { OperationDraft } from './operations.js'
import { readDzd } from './wire/amounts.js'

type Body = Record<string, unknown>
export type RuleResult = { ok: true; draft: OperationDraft } | { ok: false; message: string }

const PHONE_OPERATORS = ['djezzy', 'ooredoo', 'mobilis']
const GAME_CODES: Record<string, string[]> = {
  freefire: ['110', '210', '530', '1080', '2200'],
  pubg: ['60', '325', '660'],
}
const BILLERS = ['ade', 'sonelgaz', 'algerie_telecom']
const INTERNET_AMOUNTS = ['500', '1000', '2000', '3000', '5000', '10000']
const MOBILE = /^(?:0|\+213|00213)[567]\d{8}$/

const text = (body: Body, key: string): string | null => {
  const value = body[key]
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null
}

const fail = (message: string): RuleResult => ({ ok: false, message })

/** Validates an `operation_post` body (without the secret key) into an operation to record. */
export function checkOperationBody(body: Body): RuleResult {
  const operator = text(body, 'operator')
  const offer = text(body, 'offer')
  const rawAmount = body.amount
  if (rawAmount === undefined || rawAmount === null || rawAmount === '')
    return fail('amount is required')
  const amount =
    typeof rawAmount === 'number' || typeof rawAmount === 'string' ? readDzd(rawAmount) : null
  if (amount === null || amount <= 0)
    return fail('amount must be a positive number of DZD with at most two decimals')
  if (!operator) return fail('operator is required')
  if (!offer) return fail('offer is required')
  const base = { operator, offer, amount }

  if (PHONE_OPERATORS.includes(operator)) {
    if (offer !== 'prepaid' && offer !== 'postpaid')
      return fail('offer must be prepaid or postpaid')
    const phone = text(body, 'phone')
    if (!phone) return fail('phone is required')
    if (!MOBILE.test(phone)) return fail('phone must be an Algerian mobile number (10 digits)')
    return { ok: true, draft: { ...base, kind: 'phone', phone, details: { phone } } }
  }

  if (operator === 'idoom') {
    const match = /^IDOOM (4G|ADSL) (\d+)$/.exec(offer)
    if (!match || !INTERNET_AMOUNTS.includes(match[2]!))
      return fail(
        `offer must be "IDOOM 4G <amount>" or "IDOOM ADSL <amount>" with <amount> one of ${INTERNET_AMOUNTS.join(', ')}`,
      )
    if (amount !== Number(match[2]) * 100)
      return fail(`amount must be ${match[2]} for offer ${offer}`)
    const phone = text(body, 'phone')
    if (!phone) return fail('phone is required')
    const digits = match[1] === '4G' ? 10 : 9
    if (!new RegExp(`^\\d{${digits}}$`).test(phone))
      return fail(
        `phone must be ${digits} digits for ${match[1] === '4G' ? 'IDOOM 4G' : 'IDOOM ADSL'}`,
      )
    return { ok: true, draft: { ...base, kind: 'internet', phone, details: { phone } } }
  }

  if (operator in GAME_CODES) {
    if (/^\d+$/.test(offer) && !GAME_CODES[operator]!.includes(offer))
      return fail(`offer must be one of ${GAME_CODES[operator]!.join(', ')} or a custom offer name`)
    const playerId = text(body, 'playerId')
    if (!playerId) return fail('playerId is required')
    return { ok: true, draft: { ...base, kind: 'game', phone: null, details: { playerId } } }
  }

  if (BILLERS.includes(operator)) {
    if (offer !== operator) return fail(`offer must be ${operator} for a ${operator} bill`)
    const bill = text(body, 'bill')
    if (!bill) return fail('bill is required')
    const details: Record<string, string> = { bill }
    if (operator === 'sonelgaz') {
      for (const key of ['customerId', 'ebb']) {
        const value = text(body, key)
        if (!value) return fail(`${key} is required for sonelgaz`)
        details[key] = value
      }
    }
    let phone: string | null = null
    if (operator === 'algerie_telecom') {
      phone = text(body, 'phone')
      if (!phone) return fail('phone is required for algerie_telecom')
      details.phone = phone
    }
    return { ok: true, draft: { ...base, kind: 'bill', phone, details } }
  }

  return fail(
    `operator must be one of ${[...PHONE_OPERATORS, 'idoom', ...Object.keys(GAME_CODES), ...BILLERS].join(', ')}`,
  )
}

/** The success message of `operation_post` for each kind. */
export const OPERATION_MESSAGES = {
  phone: 'Operation submitted successfully',
  internet: 'Internet recharge completed successfully',
  game: 'Game recharge completed successfully',
  bill: 'Bill payment completed successfully',
} as const
