import { createPublicKey } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { GATEWAY_PUBLIC_KEY_PEM } from '../../src/client/core/gateway-key.js'
import { signGatewayMessage, verifyGatewaySignature } from '../../src/client/core/signature.js'

const VECTOR_SIGNATURE =
  'aECU3TRG2p0q4G7-IMLZdqIQU38jX8TRT1E4XXxN18loiOXd_779SXXrzluryxevtwJDCTLoy6nLOExLv0lYkflC9ISNmjRgbqLVRQcF9SJvl3HfjkYhn3CUOi5VReCqNCrVtQZFeqgD_l6XJG6UBNX77zUuOqMhFiTDlnnLwNJnC3TiFOCQzJungWcX9-iY4xXi0j_AN25Rm5To_QcIF-DO2DQnx9zZqQfdmm8pAw3_feYMt-FNKpgqnFIJKgfGPlfvCX8ILegu1QehmPYR7mKb5Cx-i3mLu7p1-sXePN-4HJfHpP0k0LxhQxkZByyllJiVF8IQIx4tNs-_Fp-huQ=='

describe('gateway signatures', () => {
  it('embeds the published key: RSA-2048, public exponent 65537', () => {
    // The test vector below verifies only with the published key; this pins its shape.
    const key = createPublicKey(GATEWAY_PUBLIC_KEY_PEM)
    expect(key.asymmetricKeyType).toBe('rsa')
    expect(key.asymmetricKeyDetails).toMatchObject({ modulusLength: 2048, publicExponent: 65537n })
  })

  it('accepts the published test vector with the default key', async () => {
    expect(await verifyGatewaySignature('1212123hicibsuccess100', VECTOR_SIGNATURE)).toBe(true)
  })

  it('accepts the test vector without padding and in standard base64', async () => {
    const unpadded = VECTOR_SIGNATURE.replace(/=+$/, '')
    const standard = VECTOR_SIGNATURE.replace(/-/g, '+').replace(/_/g, '/')
    expect(await verifyGatewaySignature('1212123hicibsuccess100', unpadded)).toBe(true)
    expect(await verifyGatewaySignature('1212123hicibsuccess100', standard)).toBe(true)
  })

  it('rejects the test vector signature over a different message', async () => {
    expect(await verifyGatewaySignature('1212123hicibsuccess100.00', VECTOR_SIGNATURE)).toBe(false)
  })

  it('returns false, without throwing, on garbage', async () => {
    expect(await verifyGatewaySignature('x', '')).toBe(false)
    expect(await verifyGatewaySignature('x', '!!!not base64!!!')).toBe(false)
    expect(await verifyGatewaySignature('x', 'AAAA')).toBe(false)
    expect(await verifyGatewaySignature('x', VECTOR_SIGNATURE, 'not a pem')).toBe(false)
    // biome-ignore lint/suspicious/noExplicitAny: deliberately wrong types from untrusted input
    expect(await verifyGatewaySignature(undefined as any, null as any)).toBe(false)
  })

  it('signs with a private key so that the matching public key verifies and the published one does not', async () => {
    const pair = (await crypto.subtle.generateKey(
      {
        name: 'RSASSA-PKCS1-v1_5',
        modulusLength: 2048,
        publicExponent: new Uint8Array([1, 0, 1]),
        hash: 'SHA-256',
      },
      true,
      ['sign', 'verify'],
    )) as CryptoKeyPair
    const signature = await signGatewayMessage('order42success1500', pair.privateKey)
    expect(signature).toMatch(/^[A-Za-z0-9_-]+=*$/)
    expect(await verifyGatewaySignature('order42success1500', signature, pair.publicKey)).toBe(true)
    expect(await verifyGatewaySignature('order42success1501', signature, pair.publicKey)).toBe(
      false,
    )
    expect(await verifyGatewaySignature('order42success1500', signature)).toBe(false)
  })
})
