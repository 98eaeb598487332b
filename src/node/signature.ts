/**
 * The gateway's signatures verified with node:crypto: the same check as the client's WebCrypto
 * `verifyGatewaySignature` (RSASSA-PKCS1-v1_5, SHA-256, base64url or base64 with or without
 * padding), done synchronously on the event loop (docs/decisions/performance.md, "node:crypto on
 * Node").
 *
 *   import { verifyGatewaySignatureSync } from 'paylinks/client/node'
 */
import { createPublicKey, type KeyObject, verify } from 'node:crypto'
import { GATEWAY_PUBLIC_KEY_PEM } from '../client/index.js'

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/

// Keys are immutable, and parsing a PEM costs far more than a verification: memoised by PEM.
const keys = new Map<string, KeyObject | null>()

function publicKey(pem: string): KeyObject | null {
  let key = keys.get(pem)
  if (key === undefined) {
    try {
      key = createPublicKey(pem)
      if (key.asymmetricKeyType !== 'rsa') key = null
    } catch {
      key = null
    }
    keys.set(pem, key)
  }
  return key
}

/** True when `signature` is the gateway's over `message`; false, never a throw, otherwise. */
export function verifyGatewaySignatureSync(
  message: string,
  signature: string,
  publicKeyPem: string = GATEWAY_PUBLIC_KEY_PEM,
): boolean {
  try {
    if (typeof message !== 'string' || typeof signature !== 'string') return false
    // base64url or base64, padded or not (Node's decoder reads both alphabets).
    const text = signature.trim()
    if (!BASE64.test(text)) return false
    const sig = Buffer.from(text, 'base64')
    const key = publicKey(publicKeyPem)
    if (!key) return false
    return verify('sha256', Buffer.from(message, 'utf8'), key, sig)
  } catch {
    return false
  }
}
