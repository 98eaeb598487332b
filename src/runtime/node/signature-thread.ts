/**
 * The gateway's signatures checked on a thread of their own, in batches (docs/decisions/
 * performance.md, "Signatures on a thread of their own"). The RSA check is the largest piece of a
 * webhook's work; on the event loop it holds up every page and every other delivery for its
 * duration. Here the event loop only reads the signature's text and the key (`signatureText`,
 * `publicKey`: what cannot verify is refused at once, as `verifyGatewaySignatureSync` refuses
 * it); the checks asked for in one turn of the loop go to the thread in one message, and their
 * verdicts come back in one, so the deliveries they belong to reach the inbox together and share
 * its commit. The verdicts are those of `verifyGatewaySignatureSync`
 * (test/node/signature-thread.test.ts). If the thread fails, every check waiting on it and every
 * later one is made on the event loop instead. On a machine with a single core there is nothing
 * to gain, and the checks stay on the event loop.
 */
import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import type { RuntimeParts } from '../../app/assemble.js'
import { publicKey, signatureText, verifyGatewaySignatureSync, verifyText } from './signature.js'

/** Checks a signature as `verifyGatewaySignatureSync` does: a verdict, or a promise of one. */
export type VerifySignature = NonNullable<RuntimeParts['verifySignature']>

export interface SignatureThread {
  verify: VerifySignature
  /** Ends the thread: the checks waiting on it, and every later one, are made on the event loop. */
  stop(): Promise<void>
}

// Plain JavaScript, evaluated in the worker (no TypeScript loader there): node:crypto's `verify`
// on what the event loop already read, as `verifyText` in ./signature.ts does.
const WORKER = `
const { parentPort } = require('node:worker_threads')
const { createPublicKey, verify } = require('node:crypto')
const keys = new Map()
parentPort.on('message', ({ pem, checks }) => {
  let key = keys.get(pem)
  if (key === undefined) { key = createPublicKey(pem); keys.set(pem, key) }
  const verdicts = new Uint8Array(checks.length / 2)
  for (let i = 0; i < verdicts.length; i++) {
    try {
      const [message, text] = [checks[2 * i], checks[2 * i + 1]]
      const ok = verify('sha256', Buffer.from(message, 'utf8'), key, Buffer.from(text, 'base64'))
      verdicts[i] = ok ? 1 : 0
    } catch {
      verdicts[i] = 0
    }
  }
  parentPort.postMessage(verdicts)
})
`

type Waiting = { message: string; text: string; resolve: (verified: boolean) => void }
type Batch = { pem: string; waiting: Waiting[] }

/** A thread for signature checks, started at the first check. */
export function createSignatureThread(): SignatureThread {
  let worker: Worker | null = null
  let failed = false
  // The batch being gathered in this turn of the loop, and those sent, oldest first.
  let gathering: Batch | null = null
  const sent: Batch[] = []

  /** Every check not yet answered, made here; later ones too. */
  const fallBack = () => {
    failed = true
    worker = null
    const open = gathering ? [...sent, gathering] : [...sent]
    gathering = null
    sent.length = 0
    for (const batch of open)
      for (const check of batch.waiting)
        check.resolve(verifyGatewaySignatureSync(check.message, check.text, batch.pem))
  }

  const started = (): Worker => {
    if (worker) return worker
    const thread = new Worker(WORKER, { eval: true })
    thread.unref()
    thread.on('message', (verdicts: Uint8Array) => {
      const batch = sent.shift()
      if (!batch) return
      for (const [i, check] of batch.waiting.entries()) check.resolve(verdicts[i] === 1)
      // Idle: the thread does not keep the process alive.
      if (sent.length === 0) thread.unref()
    })
    thread.on('error', () => {
      if (worker === thread) fallBack()
    })
    thread.on('exit', () => {
      if (worker === thread) fallBack()
    })
    worker = thread
    return thread
  }

  const send = () => {
    const batch = gathering
    gathering = null
    if (!batch || failed) return
    const thread = started()
    const checks: string[] = []
    for (const check of batch.waiting) checks.push(check.message, check.text)
    // Waiting for verdicts: the process stays alive until they come.
    if (sent.length === 0) thread.ref()
    sent.push(batch)
    thread.postMessage({ pem: batch.pem, checks })
  }

  const verify: VerifySignature = (message, signature, publicKeyPem) => {
    const text = signatureText(message, signature)
    const key = text === null ? null : publicKey(publicKeyPem)
    if (key === null) return false
    if (failed) return verifyText(message, text as string, key)
    return new Promise((resolve) => {
      // One key per message to the thread: a check with another key sends what came before it.
      if (gathering && gathering.pem !== publicKeyPem) send()
      if (!gathering) {
        gathering = { pem: publicKeyPem, waiting: [] }
        setImmediate(send)
      }
      gathering.waiting.push({ message, text: text as string, resolve })
    })
  }

  return {
    verify,
    async stop() {
      // Its exit answers what waits (`fallBack`); with no thread yet, the answers are made here.
      if (worker) await worker.terminate()
      else fallBack()
    },
  }
}

let shared: SignatureThread | null = null

/**
 * The process's signature checks: on one shared thread (started at the first check) when the
 * machine has more than one core, else `verifyGatewaySignatureSync` on the event loop.
 */
export function processSignatureCheck(cores = availableParallelism()): VerifySignature {
  if (cores < 2) return verifyGatewaySignatureSync
  shared ??= createSignatureThread()
  return shared.verify
}
