/**
 * The till's rules, pure: the amount a cashier typed, how long a till link lives, and what a sale
 * shows — read from its link and its payment, as the database holds them after the check endpoint
 * settled it (never from a customer's return alone).
 */
import type { FailureCode, Link, Payment } from '../../db/schema.js'
import { parseDzd } from '../lib/money.js'
import { MAX_AMOUNT, MIN_AMOUNT } from './amount-bounds.js'
import { westernDigits } from './checkout-input.js'
import { isCleanText } from './clean-text.js'

/** How long a till link stays open unless the settings say otherwise, and the bounds. */
export const TILL_LINK_MINUTES = { default: 10, min: 2, max: 60 } as const

/** The `till_link_minutes` setting's stored text as minutes: the default when unset or not a number. */
export function tillLinkMinutes(stored: string | null): number {
  const n = stored === null ? Number.NaN : Number.parseInt(stored.trim(), 10)
  if (!Number.isFinite(n)) return TILL_LINK_MINUTES.default
  return Math.min(TILL_LINK_MINUTES.max, Math.max(TILL_LINK_MINUTES.min, n))
}

export type TillAmount =
  | { ok: true; centimes: number }
  | { ok: false; code: 'amount_required' | 'bad_dzd' | 'amount_too_low' | 'amount_too_high' }

/**
 * The amount as typed at the till: `1250.50`, `1,250.50`, `1 250,50`, `١٢٥٠٫٥٠`. A comma followed
 * by one or two digits at the end is the decimal mark; otherwise commas, spaces and apostrophes
 * group thousands.
 */
export function parseTillAmount(raw: string): TillAmount {
  let text = westernDigits(raw)
    .replace(/[\s\u00a0\u202f']/g, '')
    .replace(/(DA|DZD|د\.ج)$/i, '')
  if (text === '') return { ok: false, code: 'amount_required' }
  if (/^\d+,\d{1,2}$/.test(text)) text = text.replace(',', '.')
  else if (/^\d{1,3}(,\d{3})+(\.\d{1,2})?$/.test(text)) text = text.replaceAll(',', '')
  const centimes = parseDzd(text)
  if (centimes === null) return { ok: false, code: 'bad_dzd' }
  if (centimes < MIN_AMOUNT) return { ok: false, code: 'amount_too_low' }
  if (centimes > MAX_AMOUNT) return { ok: false, code: 'amount_too_high' }
  return { ok: true, centimes }
}

/**
 * What a sale shows: `waiting` for the customer, `paying` (on the card page), then `paid`,
 * `declined` (the customer may still try again), `canceled` by the cashier, or `expired`.
 */
export const SALE_STATES = ['waiting', 'paying', 'paid', 'declined', 'canceled', 'expired'] as const
export type SaleState = (typeof SALE_STATES)[number]

/** Whether nothing more can happen to a sale the till shows. */
export function isFinalSale(state: SaleState): boolean {
  return state === 'paid' || state === 'canceled' || state === 'expired'
}

type SaleLink = Pick<Link, 'active' | 'expiresAt'> & { paidCount: number }
type SalePayment = Pick<Payment, 'status' | 'failureCode'>

/**
 * A sale's state from its link and its payment (the paid one, else the latest). A paid payment
 * wins over everything; a payment on the card page keeps the sale open even past the link's
 * expiry (the gateway may still approve it).
 */
export function saleState(link: SaleLink, payment: SalePayment | null, now: number): SaleState {
  if (payment?.status === 'paid' || link.paidCount > 0) return 'paid'
  if (payment && (payment.status === 'initiated' || payment.status === 'pending')) return 'paying'
  if (!link.active) return 'canceled'
  if (payment) return 'declined'
  if (link.expiresAt !== null && link.expiresAt <= now) return 'expired'
  return 'waiting'
}

/** The decline reason of a sale's payment, when it has one. */
export function saleFailure(payment: SalePayment | null): FailureCode | null {
  return payment && payment.status !== 'paid' ? payment.failureCode : null
}

/** A preset item of the till: a name and its unit price in centimes. */
export type TillPreset = { name: string; price: number }

export const MAX_PRESETS = 24
const PRESET_NAME_MAX = 40

/** The stored presets (JSON); anything unreadable reads as none. */
export function readPresets(stored: string | null): TillPreset[] {
  try {
    const value: unknown = JSON.parse(stored ?? '[]')
    if (!Array.isArray(value)) return []
    return value
      .filter(
        (p): p is TillPreset =>
          typeof p?.name === 'string' && Number.isSafeInteger(p?.price) && p.price > 0,
      )
      .slice(0, MAX_PRESETS)
  } catch {
    return []
  }
}

/**
 * The presets form: one item a line, `name; price` (`Café; 150`, `Croissant; 80,50`). Answers the
 * items, or the number of the first line that is not one.
 */
export function parsePresetLines(
  text: string,
): { ok: true; presets: TillPreset[] } | { ok: false; line: number } {
  const presets: TillPreset[] = []
  const lines = text.split(/\r?\n/)
  for (const [i, line] of lines.entries()) {
    // An Arabic keyboard types the semicolon as ؛.
    const raw = line.replaceAll('\u061b', ';')
    if (raw.trim() === '') continue
    const cut = raw.lastIndexOf(';')
    const name = cut > 0 ? raw.slice(0, cut).trim() : ''
    const price = cut > 0 ? parseTillAmount(raw.slice(cut + 1)) : null
    const clean = name.length > 0 && name.length <= PRESET_NAME_MAX && isCleanText(name)
    if (!clean || !price?.ok || presets.length >= MAX_PRESETS) return { ok: false, line: i + 1 }
    presets.push({ name, price: price.centimes })
  }
  return { ok: true, presets }
}

/** A till sale as the till shows it and as its live updates carry it (JSON; src/dashboard/till-sale.ts). */
export interface SaleView {
  id: string
  state: SaleState
  amount: number
  amountText: string
  /** The link the customer opens (the QR's content). */
  url: string
  note: string | null
  expiresAt: number | null
  paidAt: number | null
  paidAtText: string | null
  approvalCode: string | null
  customerName: string | null
  failureCode: FailureCode | null
  failureText: string | null
}
