/**
 * The text of an API key: `pl_live_` (live mode) or `pl_test_` (simulator and sandbox) and 40
 * random base62 characters (about 238 bits). Only its SHA-256 is stored, with a short prefix
 * for people to tell keys apart.
 */

import { randomBase62 } from '../lib/bytes.js'

const RANDOM_LENGTH = 40
// The prefix shown in lists: the mode's part and the first four random characters.
const SHOWN_RANDOM = 4

/** A new key for a gateway mode. */
export function newApiKeyText(mode: 'simulator' | 'sandbox' | 'live'): string {
  return `${mode === 'live' ? 'pl_live_' : 'pl_test_'}${randomBase62(RANDOM_LENGTH)}`
}

/** What lists show of a key: `pl_live_AbC1`. */
export function apiKeyPrefix(key: string): string {
  return key.slice(0, key.indexOf('_', 3) + 1 + SHOWN_RANDOM)
}

/** Whether a presented token has the shape of a key (so it is worth one indexed lookup). */
export function looksLikeApiKey(token: string): boolean {
  return /^pl_(?:live|test)_[0-9A-Za-z]{40}$/.test(token)
}
