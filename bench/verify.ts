/**
 * Webhook signature verification on Node: the WebCrypto path Paylinks uses (key imported once and
 * cached) against node:crypto's one-shot `verify` with a KeyObject, same key and signature.
 */
import { createPublicKey, verify } from 'node:crypto'
import { signGatewayMessage, verifyGatewaySignature } from '../src/client/index.js'
import { fromBase64 } from '../src/lib/bytes.js'
import { SIMULATOR_PRIVATE_KEY_PEM, SIMULATOR_PUBLIC_KEY_PEM } from '../src/simulator/keys.js'

export interface VerifyResult {
  webCryptoPerSecond: number
  webCryptoConcurrentPerSecond: number
  nodeCryptoPerSecond: number
}

async function rate(seconds: number, batch: number, once: () => Promise<boolean> | boolean) {
  let done = 0
  const started = performance.now()
  const end = started + seconds * 1000
  while (performance.now() < end) {
    const results = await Promise.all(Array.from({ length: batch }, once))
    if (results.some((ok) => !ok)) throw new Error('a valid signature did not verify')
    done += batch
  }
  return done / ((performance.now() - started) / 1000)
}

/** Verifications per second, each way, over `seconds` each. */
export async function compareVerifiers(seconds = 2): Promise<VerifyResult> {
  const message = 'success1500'
  const signature = await signGatewayMessage(message, SIMULATOR_PRIVATE_KEY_PEM)
  const key = createPublicKey(SIMULATOR_PUBLIC_KEY_PEM)
  const data = new TextEncoder().encode(message)
  const webCrypto = () => verifyGatewaySignature(message, signature, SIMULATOR_PUBLIC_KEY_PEM)
  const nodeCrypto = () => {
    const sig = fromBase64(signature)
    return sig !== null && verify('sha256', data, key, sig)
  }
  await rate(0.3, 1, webCrypto)
  await rate(0.3, 1, nodeCrypto)
  return {
    webCryptoPerSecond: await rate(seconds, 1, webCrypto),
    webCryptoConcurrentPerSecond: await rate(seconds, 32, webCrypto),
    nodeCryptoPerSecond: await rate(seconds, 1, nodeCrypto),
  }
}
