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

  it('writes the very text JSON.stringify gives for the documented object, whatever the values', () => {
    // Values of every kind a sender may put in any field: text to escape, numbers to pad or
    // refuse, a lone surrogate, things that are neither. A fixed seed: the same bodies each run.
    const values: unknown[] = [
      null,
      undefined,
      0,
      -0,
      12,
      -3,
      1.5,
      '007',
      ' 42 ',
      ' -2007 ',
      '2.0',
      'x'.repeat(300),
      'é"\\\n\u2028<',
      Number.POSITIVE_INFINITY,
      Number.NaN,
      true,
      {},
      [],
      'abc',
      2 ** 70,
      Number.MAX_SAFE_INTEGER,
      -Number.MAX_SAFE_INTEGER,
      '\ud800',
    ]
    const signatures = ['abc_-XYZ09', 'a+b/c==', 'x'.repeat(3000), '', 'é"', 'Zm9v']
    const fields = [
      'cib_transaction_id',
      'payment_status',
      'transaction_id',
      'order_id',
      'currency',
      'error_message',
      'action_code_description',
      'resp_code',
      'resp_code_desc',
      'order_number',
      'order_status',
      'amount',
      'error_code',
      'action_code',
      'message',
      'event',
      'signature',
      'padding',
    ]
    let seed = 7
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
      return seed / 2 ** 31
    }
    for (let i = 0; i < 5000; i++) {
      const event: Record<string, unknown> = {}
      for (const field of fields)
        if (next() < 0.8) event[field] = values[Math.floor(next() * values.length)]
      const signature = signatures[i % signatures.length] as string
      expect(canonicalPayload(event, signature)).toBe(JSON.stringify(documented(event, signature)))
    }
  })
})

/** The stored form as an object, field by field as the documents give them (the reference). */
function documented(event: Record<string, unknown>, signature: string): Record<string, unknown> {
  const text = (value: unknown, max = 256): string | null => {
    const t =
      typeof value === 'string'
        ? value
        : typeof value === 'number' && Number.isFinite(value)
          ? String(value)
          : null
    return t === null ? null : t.slice(0, max)
  }
  const padded = (value: unknown, width: number) =>
    typeof value === 'number' ? text(text(value)?.padStart(width, '0')) : text(value)
  const integer = (value: unknown) => {
    const n =
      typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value
    return typeof n === 'number' && Number.isSafeInteger(n) ? n : null
  }
  return {
    event: 'cib.payment.updated',
    cib_transaction_id: text(event.cib_transaction_id, 64),
    payment_status: text(event.payment_status),
    transaction_id: text(event.transaction_id),
    order_id: text(event.order_id),
    currency: padded(event.currency, 3),
    error_message: text(event.error_message),
    action_code_description: text(event.action_code_description),
    resp_code: padded(event.resp_code, 2),
    resp_code_desc: text(event.resp_code_desc),
    order_number: integer(event.order_number),
    order_status: integer(event.order_status),
    amount: integer(event.amount),
    error_code: integer(event.error_code),
    action_code: integer(event.action_code),
    message: text(event.message, 2048),
    signature: signature.slice(0, 2048),
  }
}
