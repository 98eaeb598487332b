/**
 * The simulator signs `message` as the gateway does: RSASSA-PKCS1-v1_5 with SHA-256 over its UTF-8
 * bytes, the signature in URL-safe base64 with padding (gateway-facts.md). Its own PEM reading and
 * base64 on WebCrypto, apart from the client's verifier, so that a fault in either fails the
 * agreement test instead of cancelling out (docs/decisions/simulator.md).
 */
import { decodeBase64, encodeBase64Url } from './base64.js'

const RSA_SHA256 = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const

/** The DER inside a PEM block with the given label, or a TypeError when there is none. */
export function readPem(pem: string, label: 'PRIVATE KEY' | 'PUBLIC KEY'): Uint8Array<ArrayBuffer> {
  const begin = `-----BEGIN ${label}-----`
  const end = `-----END ${label}-----`
  const from = pem.indexOf(begin)
  const to = pem.indexOf(end, from + begin.length)
  if (from < 0 || to < 0) throw new TypeError(`Not a PEM ${label}`)
  const der = decodeBase64(pem.slice(from + begin.length, to).replace(/\s+/g, ''))
  if (!der || der.length === 0) throw new TypeError(`Not a PEM ${label}`)
  return der
}

// Importing an RSA key costs far more than signing with it; the simulator signs with one key.
const signingKeys = new Map<string, Promise<CryptoKey>>()
const verifyingKeys = new Map<string, Promise<CryptoKey>>()

function importOnce(
  cache: Map<string, Promise<CryptoKey>>,
  pem: string,
  load: () => Promise<CryptoKey>,
): Promise<CryptoKey> {
  let key = cache.get(pem)
  if (!key) {
    key = load()
    key.catch(() => cache.delete(pem))
    cache.set(pem, key)
  }
  return key
}

/** Signs `message` with a PKCS#8 private key in PEM form; URL-safe base64 with `=` padding. */
export async function signMessage(message: string, privateKeyPem: string): Promise<string> {
  const key = await importOnce(signingKeys, privateKeyPem, () =>
    crypto.subtle.importKey('pkcs8', readPem(privateKeyPem, 'PRIVATE KEY'), RSA_SHA256, false, [
      'sign',
    ]),
  )
  const data = new TextEncoder().encode(message)
  return encodeBase64Url(new Uint8Array(await crypto.subtle.sign(RSA_SHA256, key, data)))
}

/** True when `signature` (either base64 alphabet) signs `message` under an SPKI public key in PEM. */
export async function verifyMessage(
  message: string,
  signature: string,
  publicKeyPem: string,
): Promise<boolean> {
  try {
    const bytes = decodeBase64(signature)
    if (!bytes || bytes.length === 0) return false
    const key = await importOnce(verifyingKeys, publicKeyPem, () =>
      crypto.subtle.importKey('spki', readPem(publicKeyPem, 'PUBLIC KEY'), RSA_SHA256, false, [
        'verify',
      ]),
    )
    return await crypto.subtle.verify(RSA_SHA256, key, bytes, new TextEncoder().encode(message))
  } catch {
    return false
  }
}
