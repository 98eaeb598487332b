/**
 * The gateway's signatures: RSASSA-PKCS1-v1_5 with SHA-256 over the UTF-8 bytes of `message`,
 * carried as URL-safe base64 with or without padding (gateway-facts.md). WebCrypto only, so the
 * same code runs on Node and Workers.
 */
import { fromBase64, toBase64, utf8 } from '../../lib/bytes.js'
import { GATEWAY_PUBLIC_KEY_PEM } from './gateway-key.js'

const ALGORITHM = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const

// Importing a key costs far more than a verification; keys are immutable, so memoise by PEM.
const publicKeys = new Map<string, Promise<CryptoKey>>()
const privateKeys = new Map<string, Promise<CryptoKey>>()

function pemBody(pem: string): Uint8Array<ArrayBuffer> {
  const body = pem.replace(/-----(BEGIN|END)[^-]+-----/g, '').replace(/\s+/g, '')
  const der = fromBase64(body)
  if (!der || der.length === 0) throw new TypeError('Not a PEM-encoded key')
  return der
}

/** Imports (once) an SPKI public key in PEM form for verification. */
export function importGatewayPublicKey(pem: string = GATEWAY_PUBLIC_KEY_PEM): Promise<CryptoKey> {
  let key = publicKeys.get(pem)
  if (!key) {
    key = crypto.subtle.importKey('spki', pemBody(pem), ALGORITHM, false, ['verify'])
    key.catch(() => publicKeys.delete(pem))
    publicKeys.set(pem, key)
  }
  return key
}

/** Imports (once) a PKCS#8 private key in PEM form for signing. */
export function importSigningKey(pem: string): Promise<CryptoKey> {
  let key = privateKeys.get(pem)
  if (!key) {
    key = crypto.subtle.importKey('pkcs8', pemBody(pem), ALGORITHM, false, ['sign'])
    key.catch(() => privateKeys.delete(pem))
    privateKeys.set(pem, key)
  }
  return key
}

/**
 * Verifies a gateway signature over `message` exactly as received. Accepts base64url or standard
 * base64, padded or not. Returns false, never throws, for a bad signature, garbage or a bad key.
 */
export async function verifyGatewaySignature(
  message: string,
  signature: string,
  publicKey: string | CryptoKey = GATEWAY_PUBLIC_KEY_PEM,
): Promise<boolean> {
  try {
    if (typeof message !== 'string' || typeof signature !== 'string') return false
    const sig = fromBase64(signature)
    if (!sig || sig.length === 0) return false
    const key = typeof publicKey === 'string' ? await importGatewayPublicKey(publicKey) : publicKey
    return await crypto.subtle.verify(ALGORITHM, key, sig, utf8(message))
  } catch {
    return false
  }
}

/**
 * Signs `message` the way the gateway does, for tests and for callers that play the gateway (the simulator has its own signer). Returns URL-safe base64
 * with `=` padding, the form the gateway has been seen to send.
 */
export async function signGatewayMessage(
  message: string,
  privateKey: string | CryptoKey,
): Promise<string> {
  const key = typeof privateKey === 'string' ? await importSigningKey(privateKey) : privateKey
  const sig = new Uint8Array(await crypto.subtle.sign(ALGORITHM, key, utf8(message)))
  return toBase64(sig).replace(/\+/g, '-').replace(/\//g, '_')
}
