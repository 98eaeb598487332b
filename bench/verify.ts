/**
 * Webhook signature verification on Node, same key and signature each way: WebCrypto (key
 * imported once and cached, what the Worker uses), node:crypto's one-shot `verify` with a
 * KeyObject on the event loop, and the checks Paylinks makes on Node: node:crypto on a thread of
 * their own, in batches (src/runtime/node/signature-thread.ts).
 */
import { createPublicKey, verify } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { signGatewayMessage, verifyGatewaySignature } from '../src/client/index.js'
import { fromBase64 } from '../src/lib/bytes.js'
import { createSignatureThread } from '../src/runtime/node/signature-thread.js'
import { SIMULATOR_PRIVATE_KEY_PEM, SIMULATOR_PUBLIC_KEY_PEM } from '../src/simulator/keys.js'

export interface VerifyResult {
  webCryptoPerSecond: number
  webCryptoConcurrentPerSecond: number
  nodeCryptoPerSecond: number
  /** On the signature thread, 32 at once; and the event loop's busy share meanwhile. */
  threadConcurrentPerSecond: number
  threadLoopBusy: number
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
  const thread = createSignatureThread()
  const onThread = () => thread.verify(message, signature, SIMULATOR_PUBLIC_KEY_PEM)
  try {
    await rate(0.3, 1, webCrypto)
    await rate(0.3, 1, nodeCrypto)
    await rate(0.3, 32, onThread)
    const webCryptoPerSecond = await rate(seconds, 1, webCrypto)
    const webCryptoConcurrentPerSecond = await rate(seconds, 32, webCrypto)
    const nodeCryptoPerSecond = await rate(seconds, 1, nodeCrypto)
    const before = performance.eventLoopUtilization()
    const threadConcurrentPerSecond = await rate(seconds, 32, onThread)
    const threadLoopBusy = performance.eventLoopUtilization(before).utilization
    return {
      webCryptoPerSecond,
      webCryptoConcurrentPerSecond,
      nodeCryptoPerSecond,
      threadConcurrentPerSecond,
      threadLoopBusy,
    }
  } finally {
    await thread.stop()
  }
}
