/**
 * Who is calling: a merchant named by a secret seed (`encrypted_sk`, direct interface) or by the
 * API key (`/v1`). A seed is a credential: it is only a map key here, never shown or returned.
 */
import { timingSafeEqual, utf8 } from '../lib/bytes.js'
import type { SimConfig } from './context.js'
import type { Merchant, SimState } from './state.js'
import { isStrKey, writeStrKey } from './wire/strkey.js'

const DEFAULT_MERCHANT_ID = 'merchant-1'
const SEED_FORMAT = /^S[A-Z2-7]{55}$/

/** Registers the default merchant (the configured account, reached by the first seed and the API key). */
export function registerDefaultMerchant(state: SimState, config: SimConfig, seed: string): void {
  const merchant: Merchant = { id: DEFAULT_MERCHANT_ID, account: config.merchantAccount }
  state.merchants.set('api-key', merchant)
  state.merchants.set(seed, merchant)
}

/** The merchant behind the API key. */
export function apiKeyMerchant(state: SimState): Merchant {
  return state.merchants.get('api-key')!
}

/** True when the request's `X-API-Key` is the accepted key (constant-time comparison). */
export function isValidApiKey(config: SimConfig, header: string | undefined): boolean {
  return typeof header === 'string' && timingSafeEqual(header, config.apiKey)
}

export type SecretKeyResult =
  | { ok: true; merchant: Merchant }
  | { ok: false; reason: 'missing' | 'format' | 'invalid' }

/**
 * Resolves `encrypted_sk`. A malformed value is a `format` error, a well-formed seed whose checksum
 * fails (or that is not accepted) is `invalid`. Each new accepted seed becomes its own merchant,
 * with a receiving account derived from a hash of the seed (so the account reveals nothing of it).
 */
export async function resolveSecretKey(
  state: SimState,
  config: SimConfig,
  value: unknown,
): Promise<SecretKeyResult> {
  if (typeof value !== 'string' || value.trim() === '') return { ok: false, reason: 'missing' }
  if (!SEED_FORMAT.test(value)) return { ok: false, reason: 'format' }
  const known = state.merchants.get(value)
  if (known) return { ok: true, merchant: known }
  if (!isStrKey('seed', value)) return { ok: false, reason: 'invalid' }
  if (config.secretSeeds && !config.secretSeeds.includes(value))
    return { ok: false, reason: 'invalid' }
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', utf8(value)))
  const merchant: Merchant = {
    id: `merchant-${new Set(state.merchants.values()).size + 1}`,
    account: writeStrKey('account', digest),
  }
  state.merchants.set(value, merchant)
  return { ok: true, merchant }
}

/** The direct interface's message for a secret-key failure. */
export function secretKeyMessage(reason: 'missing' | 'format' | 'invalid'): string {
  if (reason === 'missing') return 'encrypted_sk is required'
  if (reason === 'format') return 'Invalid secret key format'
  return 'Invalid secret key'
}
