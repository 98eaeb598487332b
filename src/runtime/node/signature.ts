/**
 * The gateway's signatures verified with node:crypto: the same check as the client's WebCrypto
 * `verifyGatewaySignature` (RSASSA-PKCS1-v1_5, SHA-256, base64url or base64 with or without
 * padding), done synchronously on the event loop (docs/decisions/performance.md, "node:crypto on
 * Node").
 *
 *   import { verifyGatewaySignatureSync } from 'paylinks/client/node'
 */
import { createPublicKey, type KeyObject, verify } from 'node:crypto'
import { GATEWAY_PUBLIC_KEY_PEM } from '../../client/index.js'

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/

// Keys are immutable, and parsing a PEM costs far more than a verification: memoised by PEM.
const keys = new Map<string, KeyObject | null>()

/** The RSA key of `pem`, parsed once; null when it is no RSA public key. */
export function publicKey(pem: string): KeyObject | null {
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

/**
 * The signature's text as Node's decoder reads it (base64url or base64, padded or not, blanks
 * around it trimmed), or null when it cannot be a signature, or when `message` is no text.
 */
export function signatureText(message: unknown, signature: unknown): string | null {
  if (typeof message !== 'string' || typeof signature !== 'string') return null
  const text = signature.trim()
  return BASE64.test(text) ? text : null
}

/** `verify` of node:crypto on a signature's text (`signatureText`); false, never a throw. */
export function verifyText(message: string, text: string, key: KeyObject): boolean {
  try {
    return verify('sha256', Buffer.from(message, 'utf8'), key, Buffer.from(text, 'base64'))
  } catch {
    return false
  }
}

/** True when `signature` is the gateway's over `message`; false, never a throw, otherwise. */
export function verifyGatewaySignatureSync(
  message: string,
  signature: string,
  publicKeyPem: string = GATEWAY_PUBLIC_KEY_PEM,
): boolean {
  const text = signatureText(message, signature)
  const key = text === null ? null : publicKey(publicKeyPem)
  return key !== null && verifyText(message, text as string, key)
}
