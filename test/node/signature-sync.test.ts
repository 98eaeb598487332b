import { generateKeyPairSync } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { signGatewayMessage, verifyGatewaySignature } from '../../src/client/index.js'
import { verifyGatewaySignatureSync } from '../../src/runtime/node/signature.js'

const VECTOR_MESSAGE = '1212123hicibsuccess100'
const VECTOR_SIGNATURE =
  'aECU3TRG2p0q4G7-IMLZdqIQU38jX8TRT1E4XXxN18loiOXd_779SXXrzluryxevtwJDCTLoy6nLOExLv0lYkflC9ISNmjRgbqLVRQcF9SJvl3HfjkYhn3CUOi5VReCqNCrVtQZFeqgD_l6XJG6UBNX77zUuOqMhFiTDlnnLwNJnC3TiFOCQzJungWcX9-iY4xXi0j_AN25Rm5To_QcIF-DO2DQnx9zZqQfdmm8pAw3_feYMt-FNKpgqnFIJKgfGPlfvCX8ILegu1QehmPYR7mKb5Cx-i3mLu7p1-sXePN-4HJfHpP0k0LxhQxkZByyllJiVF8IQIx4tNs-_Fp-huQ=='

const pair = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
})

describe('verifyGatewaySignatureSync (node:crypto)', () => {
  it('accepts the published test vector with the default key, in every base64 form', () => {
    expect(verifyGatewaySignatureSync(VECTOR_MESSAGE, VECTOR_SIGNATURE)).toBe(true)
    expect(verifyGatewaySignatureSync(VECTOR_MESSAGE, VECTOR_SIGNATURE.replace(/=+$/, ''))).toBe(
      true,
    )
    const standard = VECTOR_SIGNATURE.replace(/-/g, '+').replace(/_/g, '/')
    expect(verifyGatewaySignatureSync(VECTOR_MESSAGE, standard)).toBe(true)
  })

  it('rejects another message, another key, garbage and wrong types, without throwing', () => {
    expect(verifyGatewaySignatureSync(`${VECTOR_MESSAGE}.00`, VECTOR_SIGNATURE)).toBe(false)
    expect(verifyGatewaySignatureSync(VECTOR_MESSAGE, VECTOR_SIGNATURE, pair.publicKey)).toBe(false)
    expect(verifyGatewaySignatureSync('x', '')).toBe(false)
    expect(verifyGatewaySignatureSync('x', '!!!not base64!!!')).toBe(false)
    expect(verifyGatewaySignatureSync('x', VECTOR_SIGNATURE, 'not a pem')).toBe(false)
    // biome-ignore lint/suspicious/noExplicitAny: deliberately wrong types from untrusted input
    expect(verifyGatewaySignatureSync(undefined as any, null as any)).toBe(false)
  })

  it('agrees with the WebCrypto verifier on valid and tampered signatures', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 80 }), fc.nat(255), async (message, flip) => {
        const signature = await signGatewayMessage(message, pair.privateKey)
        const bytes = Buffer.from(signature, 'base64url')
        bytes[flip % bytes.length] = (bytes[flip % bytes.length] ?? 0) ^ 1
        const tampered = bytes.toString('base64url')
        for (const sig of [signature, tampered]) {
          expect(verifyGatewaySignatureSync(message, sig, pair.publicKey)).toBe(
            await verifyGatewaySignature(message, sig, pair.publicKey),
          )
        }
        expect(verifyGatewaySignatureSync(message, signature, pair.publicKey)).toBe(true)
        expect(verifyGatewaySignatureSync(message, tampered, pair.publicKey)).toBe(false)
      }),
      { numRuns: 40 },
    )
  })
})
