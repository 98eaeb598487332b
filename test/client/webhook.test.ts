import { describe, expect, it } from 'vitest'
import {
  assertGatewaySignature,
  parseCardWebhook,
  parseReturnQuery,
  SignatureError,
  signGatewayMessage,
  ValidationError,
  verifyGatewaySignature,
} from '../../src/client/index.js'

const VECTOR_MESSAGE = '1212123hicibsuccess100'
const VECTOR_SIGNATURE =
  'aECU3TRG2p0q4G7-IMLZdqIQU38jX8TRT1E4XXxN18loiOXd_779SXXrzluryxevtwJDCTLoy6nLOExLv0lYkflC9ISNmjRgbqLVRQcF9SJvl3HfjkYhn3CUOi5VReCqNCrVtQZFeqgD_l6XJG6UBNX77zUuOqMhFiTDlnnLwNJnC3TiFOCQzJungWcX9-iY4xXi0j_AN25Rm5To_QcIF-DO2DQnx9zZqQfdmm8pAw3_feYMt-FNKpgqnFIJKgfGPlfvCX8ILegu1QehmPYR7mKb5Cx-i3mLu7p1-sXePN-4HJfHpP0k0LxhQxkZByyllJiVF8IQIx4tNs-_Fp-huQ=='

const event = {
  event: 'cib.payment.updated',
  payment_status: 'success',
  transaction_id: '1b4e28ba-2fa1-11d2-883f-0016d3cca427',
  cib_transaction_id: '1234567890',
  order_id: 'a1b2c3',
  order_number: 1234567890,
  order_status: 2,
  amount: 150000,
  currency: '012',
  error_code: null,
  error_message: null,
  action_code: 0,
  action_code_description: 'Request processed successfully',
  resp_code: '00',
  resp_code_desc: 'Approved',
  message: VECTOR_MESSAGE,
  signature: VECTOR_SIGNATURE,
}

describe('parseCardWebhook', () => {
  it('reads every documented field', () => {
    expect(parseCardWebhook(event)).toEqual(event)
  })

  it('reads the raw JSON text as well as the parsed value', () => {
    expect(parseCardWebhook(JSON.stringify(event))).toEqual(event)
  })

  it('normalises numbers given as text and text given as numbers, keeping unknown fields', () => {
    const parsed = parseCardWebhook({
      ...event,
      cib_transaction_id: 1234567890,
      order_number: '1234567890',
      order_status: '6',
      amount: '150000',
      currency: 12,
      error_code: '51',
      action_code: '116',
      resp_code: 5,
      delivery: 3,
    })
    expect(parsed).toMatchObject({
      cib_transaction_id: '1234567890',
      order_number: 1234567890,
      order_status: 6,
      amount: 150000,
      currency: '012',
      error_code: 51,
      action_code: 116,
      resp_code: '05',
      delivery: 3,
    })
  })

  it('gives null for the fields a body leaves out', () => {
    const { order_id: _a, action_code: _b, resp_code_desc: _c, ...partial } = event
    const parsed = parseCardWebhook(partial)
    expect(parsed.order_id).toBeNull()
    expect(parsed.action_code).toBeNull()
    expect(parsed.resp_code_desc).toBeNull()
  })

  it.each([
    ['text that is not JSON', '{"event":', '(body)'],
    ['a list', [event], '(body)'],
    ['another event', { ...event, event: 'cib.payment.created' }, 'event'],
    ['a body without signature', { ...event, signature: undefined }, 'signature'],
    ['a body with an empty signature', { ...event, signature: '' }, 'signature'],
    ['a body without message', { ...event, message: undefined }, 'message'],
    [
      'a body without cib_transaction_id',
      { ...event, cib_transaction_id: undefined },
      'cib_transaction_id',
    ],
    ['a body without payment_status', { ...event, payment_status: undefined }, 'payment_status'],
  ])('rejects %s', (_name, body, field) => {
    const error = (() => {
      try {
        parseCardWebhook(body)
        return null
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(ValidationError)
    expect(Object.keys((error as ValidationError).fields)).toContain(field)
  })

  it('carries a message and signature that verify with the published key, and fail when altered', async () => {
    const parsed = parseCardWebhook(JSON.stringify(event))
    expect(await verifyGatewaySignature(parsed.message, parsed.signature)).toBe(true)
    expect(await verifyGatewaySignature(`${parsed.message}.00`, parsed.signature)).toBe(false)
  })
})

describe('assertGatewaySignature', () => {
  it('passes the published test vector', async () => {
    await expect(assertGatewaySignature(VECTOR_MESSAGE, VECTOR_SIGNATURE)).resolves.toBeUndefined()
  })

  it('throws SignatureError for the same signature over another message', async () => {
    await expect(
      assertGatewaySignature('1212123hicibsuccess100.00', VECTOR_SIGNATURE),
    ).rejects.toBeInstanceOf(SignatureError)
  })

  it('verifies what signGatewayMessage signs, with the matching key only', async () => {
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
    const signature = await signGatewayMessage('order7success1500', pair.privateKey)
    await expect(
      assertGatewaySignature('order7success1500', signature, pair.publicKey),
    ).resolves.toBeUndefined()
    await expect(assertGatewaySignature('order7success1500', signature)).rejects.toBeInstanceOf(
      SignatureError,
    )
  })
})

describe('parseReturnQuery', () => {
  it('reads the gateway parameters after the merchant’s own, the last occurrence winning', () => {
    const query = new URLSearchParams(
      'order=42&message=merchant-note&payment_status=success&transaction_id=t-1&cib_transaction_id=1234567890&signature=abc_-&message=4242success1500',
    )
    expect(parseReturnQuery(query)).toEqual({
      payment_status: 'success',
      transaction_id: 't-1',
      cib_transaction_id: '1234567890',
      signature: 'abc_-',
      message: '4242success1500',
    })
  })

  it('reads a whole URL, and a record with single or repeated values', () => {
    expect(
      parseReturnQuery('https://shop.example/r/x?payment_status=failed&cib_transaction_id=9'),
    ).toEqual({ payment_status: 'failed', cib_transaction_id: '9' })
    expect(
      parseReturnQuery({ payment_status: ['x', 'success'], transaction_id: 't', other: 'y' }),
    ).toEqual({ payment_status: 'success', transaction_id: 't' })
  })

  it('restores a + of standard base64 that the URL turned into a space', () => {
    expect(parseReturnQuery('signature=ab+cd==').signature).toBe('ab+cd==')
    expect(parseReturnQuery({ signature: 'ab cd==' }).signature).toBe('ab+cd==')
  })

  it('returns only what it can read from junk, without throwing', () => {
    expect(parseReturnQuery('')).toEqual({})
    expect(parseReturnQuery('%%%&&=&payment_status=')).toEqual({})
    // biome-ignore lint/suspicious/noExplicitAny: untrusted input of the wrong shape
    expect(parseReturnQuery({ payment_status: 5 as any, message: undefined })).toEqual({
      payment_status: '5',
    })
    // biome-ignore lint/suspicious/noExplicitAny: untrusted input of the wrong shape
    expect(parseReturnQuery(null as any)).toEqual({})
  })
})
