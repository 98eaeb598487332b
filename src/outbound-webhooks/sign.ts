/**
 * Standard Webhooks signatures: `v1,` and the base64 HMAC-SHA256, keyed by the secret's bytes
 * (`whsec_` + base64), of `id.timestamp.body`. WebCrypto signs on Node and Workers alike; the
 * tests verify with the specification's reference library (`standardwebhooks`), written apart
 * from this, so a mistake on either side fails them.
 */
import { fromBase64, toBase64, utf8 } from '../lib/bytes.js'

const PREFIX = 'whsec_'
const keys = new Map<string, Promise<CryptoKey>>()

function keyOf(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret)
  if (!key) {
    const bytes = fromBase64(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret)
    if (!bytes || bytes.length === 0) throw new Error('A webhook secret is not whsec_ and base64')
    key = crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
    // A handful of endpoints, each with one or two secrets: the map stays small.
    if (keys.size > 100) keys.clear()
    keys.set(secret, key)
  }
  return key
}

/** `v1,<base64>` of one secret over `id.timestamp.body`. */
export async function sign(secret: string, id: string, seconds: number, body: string) {
  const mac = await crypto.subtle.sign(
    'HMAC',
    await keyOf(secret),
    utf8(`${id}.${seconds}.${body}`),
  )
  return `v1,${toBase64(new Uint8Array(mac))}`
}

/** The three headers of one attempt; during a rotation both secrets sign, space-separated. */
export async function signedHeaders(
  secrets: readonly string[],
  eventId: string,
  nowMs: number,
  payload: string,
): Promise<Record<string, string>> {
  const seconds = Math.floor(nowMs / 1000)
  const signatures = await Promise.all(secrets.map((s) => sign(s, eventId, seconds, payload)))
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(seconds),
    'webhook-signature': signatures.join(' '),
  }
}
