import { describe, expect, it } from 'vitest'
import {
  fromBase64,
  parseCardWebhook,
  signGatewayMessage,
  toBase64,
  toBase64Url,
} from '../../src/client/index.js'
import {
  canonicalPayload,
  canonicalSignature,
  signedPairText,
} from '../../src/domain/webhook-delivery.js'
import { SIMULATOR_PRIVATE_KEY_PEM } from '../../src/simulator/index.js'

/** Spellings of one signature that every verifier accepts as the same bytes. */
function spellings(urlSafePadded: string): string[] {
  const unpadded = urlSafePadded.replace(/=+$/, '')
  const standard = urlSafePadded.replace(/-/g, '+').replace(/_/g, '/')
  // 256 bytes: the last character carries 2 bits and 4 unused ones, which decoders ignore.
  const last = unpadded.at(-1) as string
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
  const lowBits = unpadded.slice(0, -1) + alphabet[alphabet.indexOf(last) | 0b1111]
  return [urlSafePadded, unpadded, standard, standard.replace(/=+$/, ''), ` ${unpadded}\n`, lowBits]
}

describe('what is kept of a webhook delivery', () => {
  it('gives every spelling of one signature one canonical form', async () => {
    const signature = await signGatewayMessage('success1000', SIMULATOR_PRIVATE_KEY_PEM)
    expect(new Set(spellings(signature)).size).toBe(6)
    const forms = new Set(spellings(signature).map(canonicalSignature))
    expect(forms).toEqual(new Set([toBase64Url(fromBase64(signature) as Uint8Array)]))
    const canonical = canonicalSignature(signature)
    expect(signedPairText('success1000', canonical)).not.toBe(
      signedPairText('success1000.00', canonical),
    )
  })

  it('gives what decoding and re-encoding the bytes gives, for every length and spare bit', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
    for (let length = 1; length <= 40; length++) {
      const bytes = crypto.getRandomValues(new Uint8Array(length))
      const plain = toBase64(bytes).replace(/=+$/, '')
      for (let spare = 0; spare < 16; spare++) {
        // Set unused low bits of the last character (as many as it has).
        const last = alphabet.indexOf(plain.at(-1) as string)
        const bits = plain.length % 4 === 2 ? 15 : plain.length % 4 === 3 ? 3 : 0
        const text = plain.slice(0, -1) + alphabet[last | (spare & bits)]
        expect(fromBase64(text)).toEqual(bytes)
        expect(canonicalSignature(text)).toBe(toBase64Url(bytes))
      }
    }
  })

  it('stores the documented fields only, each string capped, whatever padding came with them', async () => {
    const signature = await signGatewayMessage('success1000', SIMULATOR_PRIVATE_KEY_PEM)
    const event = parseCardWebhook({
      event: 'cib.payment.updated',
      payment_status: 's'.repeat(10_000),
      cib_transaction_id: 4172711,
      transaction_id: 't'.repeat(10_000),
      amount: 100_000,
      order_number: '4172711',
      error_message: null,
      message: 'success1000',
      signature,
      padding: 'x'.repeat(60_000),
      nested: { deep: ['y'.repeat(1000)] },
    })
    const stored = canonicalPayload(event, canonicalSignature(signature))
    expect(stored.length).toBeLessThan(1500)
    const parsed = JSON.parse(stored)
    expect(parsed).not.toHaveProperty('padding')
    expect(parsed).not.toHaveProperty('nested')
    expect(parsed).toMatchObject({
      event: 'cib.payment.updated',
      cib_transaction_id: '4172711',
      amount: 100_000,
      order_number: 4172711,
      error_message: null,
      message: 'success1000',
      signature: canonicalSignature(signature),
    })
    expect(parsed.payment_status).toHaveLength(256)
    expect(parsed.transaction_id).toHaveLength(256)
  })
})
