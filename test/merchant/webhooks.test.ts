/**
 * `Paylinks.webhooks.verify` (src/merchant/webhooks.ts) agrees with the reference Standard
 * Webhooks library (`standardwebhooks`) on the same vectors, both ways: events signed by Paylinks'
 * own signer (src/outbound-webhooks/sign.ts) and by the reference library verify with both, and
 * what one refuses (a changed body, an old or future timestamp, another secret) the other refuses.
 */
import { Webhook } from 'standardwebhooks'
import { describe, expect, it, vi } from 'vitest'
import { Paylinks, PaylinksWebhookError } from '../../src/merchant/index.js'
import { signedHeaders } from '../../src/outbound-webhooks/sign.js'

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const OTHER = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'
const NOW = Date.parse('2026-11-28T12:00:00Z')
const BODY = JSON.stringify({
  type: 'payment.paid',
  timestamp: '2026-11-28T11:59:58.000Z',
  data: { id: 'pay_1', status: 'paid', amount: 2500, metadata: { order: 'ب-1042' } },
})

/** The reference library's verdict at `now`: the payload, or the error it threw. */
function reference(secret: string, body: string, headers: Record<string, string>, now = NOW) {
  vi.useFakeTimers({ toFake: ['Date'], now })
  try {
    return new Webhook(secret).verify(body, headers)
  } catch (error) {
    return error as Error
  } finally {
    vi.useRealTimers()
  }
}

const ours = (
  secret: string,
  body: string | Uint8Array,
  headers: Record<string, string>,
  now = NOW,
) => Paylinks.webhooks.verify(body, headers, secret, { now }).catch((e: unknown) => e as Error)

/** Headers signed by the reference library. */
function referenceHeaders(secret: string, id: string, atMs: number, body: string) {
  const signature = new Webhook(secret).sign(id, new Date(atMs), body)
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(atMs / 1000)),
    'webhook-signature': signature,
  }
}

describe('Paylinks.webhooks.verify', () => {
  it("verifies what Paylinks' signer signs, as the reference library does", async () => {
    const headers = await signedHeaders([SECRET], 'msg_0123abcd', NOW - 2_000, BODY)
    expect(reference(SECRET, BODY, headers)).toEqual(JSON.parse(BODY))
    expect(await ours(SECRET, BODY, headers)).toEqual(JSON.parse(BODY))
    // The raw bytes, and a Headers object, do as well.
    expect(await ours(SECRET, new TextEncoder().encode(BODY), headers)).toEqual(JSON.parse(BODY))
    const event = await Paylinks.webhooks.verify(BODY, new Headers(headers), SECRET, { now: NOW })
    expect(event.type).toBe('payment.paid')
  })

  it('verifies what the reference library signs', async () => {
    const headers = referenceHeaders(SECRET, 'msg_ref', NOW - 60_000, BODY)
    expect(await ours(SECRET, BODY, headers)).toEqual(JSON.parse(BODY))
    // Node's req.headers shape: any case, a value possibly a list.
    const upper = {
      'Webhook-Id': headers['webhook-id'],
      'WEBHOOK-TIMESTAMP': headers['webhook-timestamp'],
      'webhook-signature': headers['webhook-signature'],
    }
    expect(await ours(SECRET, BODY, upper)).toEqual(JSON.parse(BODY))
  })

  it('accepts any one of several signatures (a secret being rotated), as the reference does', async () => {
    const headers = await signedHeaders([OTHER, SECRET], 'msg_rot', NOW, BODY)
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2)
    expect(reference(SECRET, BODY, headers)).toEqual(JSON.parse(BODY))
    expect(await ours(SECRET, BODY, headers)).toEqual(JSON.parse(BODY))
    expect(await ours(OTHER, BODY, headers)).toEqual(JSON.parse(BODY))
  })

  it('refuses a changed body, another id, another secret and a timestamp outside five minutes, where the reference refuses them', async () => {
    const signedBy = {
      paylinks: await signedHeaders([SECRET], 'msg_t', NOW, BODY),
      reference: referenceHeaders(SECRET, 'msg_t', NOW, BODY),
    }
    for (const headers of Object.values(signedBy)) {
      const cases: [string, string, Record<string, string>, number, string][] = [
        ['changed body', BODY.replace('2500', '25000'), headers, NOW, 'invalid_signature'],
        ['other id', BODY, { ...headers, 'webhook-id': 'msg_u' }, NOW, 'invalid_signature'],
        ['other secret', BODY, headers, NOW, 'invalid_signature'],
        ['old', BODY, headers, NOW + 5 * 60_000 + 1_000, 'timestamp_too_old'],
        ['future', BODY, headers, NOW - 5 * 60_000 - 1_000, 'timestamp_too_new'],
      ]
      for (const [name, body, h, now, code] of cases) {
        const secret = name === 'other secret' ? OTHER : SECRET
        expect(reference(secret, body, h, now), name).toBeInstanceOf(Error)
        const error = await ours(secret, body, h, now)
        expect(error, name).toBeInstanceOf(PaylinksWebhookError)
        expect((error as PaylinksWebhookError).code, name).toBe(code)
      }
      // Just inside the tolerance, both accept.
      expect(reference(SECRET, BODY, headers, NOW + 299_000)).toEqual(JSON.parse(BODY))
      expect(await ours(SECRET, BODY, headers, NOW + 299_000)).toEqual(JSON.parse(BODY))
    }
  })

  it('says which header, secret or body is wrong', async () => {
    const headers = await signedHeaders([SECRET], 'msg_h', NOW, BODY)
    const { 'webhook-signature': _, ...unsigned } = headers
    expect(await ours(SECRET, BODY, unsigned)).toMatchObject({ code: 'missing_headers' })
    expect(await ours(SECRET, BODY, { ...headers, 'webhook-timestamp': 'soon' })).toMatchObject({
      code: 'invalid_timestamp',
    })
    expect(await ours('whsec_***', BODY, headers)).toMatchObject({ code: 'invalid_secret' })
    expect(
      await ours(SECRET, BODY, { ...headers, 'webhook-signature': 'v2,abc v1,!!!' }),
    ).toMatchObject({ code: 'invalid_signature' })
    const notJson = 'not json'
    const signedText = await signedHeaders([SECRET], 'msg_j', NOW, notJson)
    expect(await ours(SECRET, notJson, signedText)).toMatchObject({ code: 'invalid_payload' })
  })
})
