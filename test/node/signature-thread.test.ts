import { spawnSync } from 'node:child_process'
import { generateKeyPairSync, sign } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { GATEWAY_PUBLIC_KEY_PEM } from '../../src/client/index.js'
import { verifyGatewaySignatureSync } from '../../src/runtime/node/signature.js'
import {
  createSignatureThread,
  processSignatureCheck,
} from '../../src/runtime/node/signature-thread.js'

const VECTOR_MESSAGE = '1212123hicibsuccess100'
const VECTOR_SIGNATURE =
  'aECU3TRG2p0q4G7-IMLZdqIQU38jX8TRT1E4XXxN18loiOXd_779SXXrzluryxevtwJDCTLoy6nLOExLv0lYkflC9ISNmjRgbqLVRQcF9SJvl3HfjkYhn3CUOi5VReCqNCrVtQZFeqgD_l6XJG6UBNX77zUuOqMhFiTDlnnLwNJnC3TiFOCQzJungWcX9-iY4xXi0j_AN25Rm5To_QcIF-DO2DQnx9zZqQfdmm8pAw3_feYMt-FNKpgqnFIJKgfGPlfvCX8ILegu1QehmPYR7mKb5Cx-i3mLu7p1-sXePN-4HJfHpP0k0LxhQxkZByyllJiVF8IQIx4tNs-_Fp-huQ=='

const pair = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
})
const signed = (message: string) =>
  sign('sha256', Buffer.from(message), pair.privateKey).toString('base64url')

const thread = createSignatureThread()
afterAll(() => thread.stop())

/** Every check of `cases` asked for in the same turn of the loop: one batch. */
function together(cases: [string, string, string][]): Promise<boolean[]> {
  return Promise.all(cases.map(([m, s, pem]) => thread.verify(m, s, pem)))
}

describe('signature checks on their own thread', () => {
  it('gives the verdicts of verifyGatewaySignatureSync, in one batch, each to its own check', async () => {
    const standard = VECTOR_SIGNATURE.replace(/-/g, '+').replace(/_/g, '/')
    const cases: [string, string, string][] = [
      [VECTOR_MESSAGE, VECTOR_SIGNATURE, GATEWAY_PUBLIC_KEY_PEM],
      [`${VECTOR_MESSAGE}.00`, VECTOR_SIGNATURE, GATEWAY_PUBLIC_KEY_PEM],
      [VECTOR_MESSAGE, VECTOR_SIGNATURE.replace(/=+$/, ''), GATEWAY_PUBLIC_KEY_PEM],
      [VECTOR_MESSAGE, ` ${standard}\n`, GATEWAY_PUBLIC_KEY_PEM],
      // Decodes, but is not a signature of that length: node:crypto throws, the verdict is false.
      [VECTOR_MESSAGE, 'AAAA', GATEWAY_PUBLIC_KEY_PEM],
      [VECTOR_MESSAGE, VECTOR_SIGNATURE, pair.publicKey],
      ['another message', signed('another message'), pair.publicKey],
      ['x', '', GATEWAY_PUBLIC_KEY_PEM],
      ['x', '!!!not base64!!!', GATEWAY_PUBLIC_KEY_PEM],
      ['x', VECTOR_SIGNATURE, 'not a pem'],
    ]
    const verdicts = await together(cases)
    expect(verdicts).toEqual(cases.map(([m, s, pem]) => verifyGatewaySignatureSync(m, s, pem)))
    expect(verdicts).toEqual([true, false, true, true, false, false, true, false, false, false])
  })

  it('refuses what cannot verify at once, without the thread', () => {
    expect(thread.verify('x', '!!!', GATEWAY_PUBLIC_KEY_PEM)).toBe(false)
    expect(thread.verify('x', VECTOR_SIGNATURE, 'not a pem')).toBe(false)
    // biome-ignore lint/suspicious/noExplicitAny: deliberately wrong types from untrusted input
    expect(thread.verify(undefined as any, null as any, GATEWAY_PUBLIC_KEY_PEM)).toBe(false)
  })

  it('agrees with the event loop on valid and tampered signatures, many at a time', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.string({ maxLength: 60 }), fc.nat(255), fc.boolean()), {
          minLength: 1,
          maxLength: 12,
        }),
        async (checks) => {
          const cases = checks.map(([message, flip, tamper]): [string, string, string] => {
            const bytes = Buffer.from(signed(message), 'base64url')
            if (tamper) bytes[flip % bytes.length] = (bytes[flip % bytes.length] as number) ^ 1
            return [message, bytes.toString('base64url'), pair.publicKey]
          })
          const verdicts = await together(cases)
          expect(verdicts).toEqual(
            cases.map(([m, s, pem]) => verifyGatewaySignatureSync(m, s, pem)),
          )
          expect(verdicts).toEqual(checks.map(([, , tamper]) => !tamper))
        },
      ),
      { numRuns: 25 },
    )
  })

  it('makes the checks on the event loop once the thread has ended, those waiting included', async () => {
    const own = createSignatureThread()
    expect(await own.verify(VECTOR_MESSAGE, VECTOR_SIGNATURE, GATEWAY_PUBLIC_KEY_PEM)).toBe(true)
    const waiting = [
      own.verify(VECTOR_MESSAGE, VECTOR_SIGNATURE, GATEWAY_PUBLIC_KEY_PEM),
      own.verify(`${VECTOR_MESSAGE}!`, VECTOR_SIGNATURE, GATEWAY_PUBLIC_KEY_PEM),
    ]
    // Ended while those are being sent to it: they are answered all the same.
    const ended = own.stop()
    expect(await Promise.all(waiting)).toEqual([true, false])
    await ended
    const after = own.verify(VECTOR_MESSAGE, VECTOR_SIGNATURE, GATEWAY_PUBLIC_KEY_PEM)
    expect(after).toBe(true)
  })

  it('answers checks asked for before its thread started when stopped, and later ones', async () => {
    const own = createSignatureThread()
    const waiting = own.verify(VECTOR_MESSAGE, VECTOR_SIGNATURE, GATEWAY_PUBLIC_KEY_PEM)
    await own.stop()
    expect(await waiting).toBe(true)
    expect(own.verify(VECTOR_MESSAGE, VECTOR_SIGNATURE, GATEWAY_PUBLIC_KEY_PEM)).toBe(true)
  })

  it('keeps the checks on the event loop on a single core', () => {
    expect(processSignatureCheck(1)).toBe(verifyGatewaySignatureSync)
    expect(processSignatureCheck(2)).not.toBe(verifyGatewaySignatureSync)
  })

  it('does not keep a process alive once its checks are answered', () => {
    const module = fileURLToPath(
      new URL('../../src/runtime/node/signature-thread.ts', import.meta.url),
    )
    const client = fileURLToPath(new URL('../../src/client/index.ts', import.meta.url))
    const script = `
      const { processSignatureCheck } = await import(${JSON.stringify(module)})
      const { GATEWAY_PUBLIC_KEY_PEM } = await import(${JSON.stringify(client)})
      const verify = processSignatureCheck(2)
      const verdict = await verify(${JSON.stringify(VECTOR_MESSAGE)}, ${JSON.stringify(VECTOR_SIGNATURE)}, GATEWAY_PUBLIC_KEY_PEM)
      console.log(JSON.stringify({ verdict }))
    `
    // A file, not `-e`: a process evaluating `-e` ends with its script whatever is still open.
    const dir = mkdtempSync(join(tmpdir(), 'paylinks-signature-'))
    const file = join(dir, 'check.mjs')
    writeFileSync(file, script)
    const run = spawnSync(process.execPath, ['--import', 'tsx', file], {
      encoding: 'utf8',
      timeout: 20_000,
    })
    rmSync(dir, { recursive: true, force: true })
    // Ended on its own, well before the timeout, after printing the verdict.
    expect(run.error).toBeUndefined()
    expect(run.status).toBe(0)
    expect(JSON.parse(run.stdout.trim())).toEqual({ verdict: true })
  })
})
