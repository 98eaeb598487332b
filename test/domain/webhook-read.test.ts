/**
 * `readDelivery` reads a webhook body straight off its parsed JSON; the client's `parseCardWebhook`
 * (zod) is the reference for what is accepted and for the stored form of what is read.
 */
import { describe, expect, it } from 'vitest'
import { parseCardWebhook } from '../../src/client/index.js'
import { canonicalPayload, readDelivery } from '../../src/domain/webhook-delivery.js'

const EVENT = {
  event: 'cib.payment.updated',
  payment_status: 'success',
  transaction_id: 'T-1',
  cib_transaction_id: '4172711',
  order_id: 'O-1',
  order_number: 4172711,
  order_status: 2,
  amount: 150_000,
  currency: '012',
  error_code: 0,
  error_message: null,
  action_code: 0,
  action_code_description: 'Approved',
  resp_code: '00',
  resp_code_desc: 'Approved',
  message: 'success1500',
  signature: 'c2lnbmF0dXJl',
}

/** Bodies the gateway sends, bodies it could send, and bodies nobody should. */
const BODIES: string[] = [
  JSON.stringify(EVENT),
  JSON.stringify({ ...EVENT, cib_transaction_id: 4172711, payment_status: 7 }),
  JSON.stringify({ ...EVENT, currency: 12, resp_code: 0, order_number: '  -42 ', amount: '2.0' }),
  JSON.stringify({ ...EVENT, amount: 1.5, order_status: '1e3', error_code: true, currency: [] }),
  JSON.stringify({ ...EVENT, transaction_id: 99, order_id: { a: 1 }, resp_code_desc: null }),
  JSON.stringify({ ...EVENT, amount: 2 ** 60, order_number: '9007199254740993' }),
  JSON.stringify({ ...EVENT, message: '', padding: 'x'.repeat(300) }),
  JSON.stringify({ ...EVENT, payment_status: 's'.repeat(300), transaction_id: 't'.repeat(300) }),
  JSON.stringify({
    event: EVENT.event,
    payment_status: 'failed',
    cib_transaction_id: '1',
    message: 'm',
    signature: 's',
  }),
  // Refused: not the event, a required field missing, empty or of the wrong type.
  JSON.stringify({ ...EVENT, event: 'cib.payment.created' }),
  JSON.stringify({ ...EVENT, payment_status: '' }),
  JSON.stringify({ ...EVENT, payment_status: null }),
  JSON.stringify({ ...EVENT, cib_transaction_id: true }),
  JSON.stringify({ ...EVENT, cib_transaction_id: undefined }),
  JSON.stringify({ ...EVENT, message: 12 }),
  JSON.stringify({ ...EVENT, signature: '' }),
  JSON.stringify({ ...EVENT, signature: ['a'] }),
  JSON.stringify([EVENT]),
  'null',
  '"cib.payment.updated"',
  '42',
  '{}',
]

function parsedByClient(raw: string) {
  try {
    return parseCardWebhook(JSON.parse(raw))
  } catch {
    return null
  }
}

describe('readDelivery', () => {
  it('accepts and refuses exactly the bodies the client parser does', () => {
    const accepted = BODIES.map((raw) => typeof readDelivery(raw) === 'object')
    expect(accepted).toEqual(BODIES.map((raw) => parsedByClient(raw) !== null))
    expect(accepted.filter(Boolean)).toHaveLength(9)
  })

  it('stores what the client parser would store, field by field', () => {
    for (const raw of BODIES) {
      const client = parsedByClient(raw)
      const read = readDelivery(raw)
      if (!client || typeof read !== 'object') continue
      expect(canonicalPayload(read.body, 'SIG')).toBe(canonicalPayload(client, 'SIG'))
      expect([read.cibTransactionId, read.paymentStatus, read.message, read.signature]).toEqual([
        client.cib_transaction_id,
        client.payment_status,
        client.message,
        client.signature,
      ])
    }
    const padded = readDelivery(BODIES[2] as string)
    if (typeof padded !== 'object') throw new Error('refused')
    expect(JSON.parse(canonicalPayload(padded.body, 'SIG'))).toMatchObject({
      currency: '012',
      resp_code: '00',
      order_number: -42,
      amount: 2,
    })
  })

  it('tells a body that is not JSON from one that is not the event', () => {
    expect(readDelivery('{"event":')).toBe('json')
    expect(readDelivery('')).toBe('json')
    expect(readDelivery('{}')).toBe('shape')
    expect(readDelivery('[]')).toBe('shape')
  })
})
