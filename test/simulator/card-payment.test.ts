import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyGatewaySignature } from '../../src/client/index.js'
import {
  SIMULATOR_MERCHANT_ACCOUNT,
  SIMULATOR_PUBLIC_KEY_PEM,
  TEST_CARDS,
  TEST_OTP,
  type TestCardOutcome,
} from '../../src/simulator/index.js'
import {
  postForm,
  type RunningSimulator,
  startReceiver,
  startSimulator,
  type WebhookReceiver,
} from './helpers.js'

let run: RunningSimulator
let receiver: WebhookReceiver

beforeAll(async () => {
  receiver = await startReceiver()
  run = await startSimulator({ seed: 'card-payments' })
})
afterAll(async () => {
  await run.close()
  await receiver.close()
})

interface Created {
  transaction_id: string
  cib_transaction_id: number
  payment_url: string
  cib_response: { orderId: string }
  [key: string]: unknown
}

async function create(extra: Record<string, string> = {}, path = '/make-cib-transaction/') {
  const query = new URLSearchParams({
    account: SIMULATOR_MERCHANT_ACCOUNT,
    amount: '1500',
    full_name: 'Amina Benali',
    phone: '+213555123456',
    email: 'amina@example.dz',
    return_url: 'http://shop.test/return?order=1212123&note=hi',
    webhook_url: receiver.url,
    redirect: 'no',
    keep_return_url: 'True',
    language: 'en',
    ...extra,
  })
  const res = await fetch(`${run.url}${path}?${query}`, { redirect: 'manual' })
  return { res, body: res.status === 200 ? ((await res.json()) as Created) : null }
}

async function check(orderNumber: string | number, path = '/cib-transaction-check/') {
  const res = await fetch(`${run.url}${path}?order_number=${orderNumber}`)
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

const EXPECTED: Record<
  TestCardOutcome,
  { orderStatus: number; actionCode: number; respCode: string; status: string }
> = {
  approved: { orderStatus: 2, actionCode: 0, respCode: '00', status: 'success' },
  insufficient_funds: { orderStatus: 6, actionCode: 116, respCode: '05', status: 'failed' },
  declined: { orderStatus: 6, actionCode: 100, respCode: '05', status: 'failed' },
  expired_card: { orderStatus: 6, actionCode: 101, respCode: '05', status: 'failed' },
}

describe('a card payment through the card page', () => {
  it('answers the creation with every documented field, the card-network id as a JSON number', async () => {
    const { res, body } = await create()
    expect(res.status).toBe(200)
    expect(body).toMatchObject({
      success: true,
      amount: '1500.00',
      status: 'pending_user_transfer_start',
      webhook_url: receiver.url,
      cib_response: { errorCode: '0' },
    })
    expect(body!.transaction_id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    )
    expect(typeof body!.cib_transaction_id).toBe('number')
    expect(String(body!.cib_transaction_id)).toMatch(/^[1-9]\d{9}$/)
    expect(body!.payment_url).toBe(`${run.url}/pay/${body!.cib_response.orderId}`)
    expect(body!.more_info_url).toMatch(new RegExp(`^${run.url}/`))
    expect((body!.cib_response as Record<string, unknown>).formUrl).toBe(body!.payment_url)
  })

  for (const card of TEST_CARDS) {
    it(`pays with ${card.label}: redirect, signed webhook and check all agree`, async () => {
      const expected = EXPECTED[card.outcome]
      const { body } = await create()
      const cibId = String(body!.cib_transaction_id)
      expect((await check(cibId)).body.orderStatus).toBe(0)

      const page = await (await fetch(body!.payment_url)).text()
      expect(page).toContain(card.number)
      const step1 = await postForm(`${body!.payment_url}/card`, {
        pan: card.number,
        expiry: card.expiry,
        cvv: card.cvv,
      })
      expect(step1.status).toBe(303)
      expect(await (await fetch(body!.payment_url)).text()).toContain('name="otp"')

      const before = receiver.received.length
      const step2 = await postForm(`${body!.payment_url}/otp`, { otp: TEST_OTP })
      expect(step2.status).toBe(303)
      const location = new URL(step2.headers.get('location')!)
      expect(`${location.origin}${location.pathname}`).toBe('http://shop.test/return')
      const params = [...location.searchParams.keys()]
      expect(params).toEqual([
        'order',
        'note',
        'payment_status',
        'transaction_id',
        'cib_transaction_id',
        'signature',
        'message',
      ])
      expect(location.searchParams.get('payment_status')).toBe(expected.status)
      expect(location.searchParams.get('transaction_id')).toBe(body!.transaction_id)
      expect(location.searchParams.get('cib_transaction_id')).toBe(cibId)
      const message = location.searchParams.get('message')!
      const signature = location.searchParams.get('signature')!
      expect(message).toBe(`1212123hi${expected.status}1500`)
      expect(await verifyGatewaySignature(message, signature, SIMULATOR_PUBLIC_KEY_PEM)).toBe(true)
      expect(await verifyGatewaySignature(message, signature)).toBe(false)

      await run.sim.flush()
      const delivered = receiver.received.slice(before)
      expect(delivered).toHaveLength(1)
      expect(delivered[0]!.method).toBe('POST')
      expect(delivered[0]!.headers['content-type']).toBe('application/json')
      const event = JSON.parse(delivered[0]!.body) as Record<string, unknown>
      expect(Object.keys(event).sort()).toEqual(
        [
          'event',
          'payment_status',
          'transaction_id',
          'cib_transaction_id',
          'order_id',
          'order_number',
          'order_status',
          'amount',
          'currency',
          'error_code',
          'error_message',
          'action_code',
          'action_code_description',
          'resp_code',
          'resp_code_desc',
          'message',
          'signature',
        ].sort(),
      )
      expect(event).toMatchObject({
        event: 'cib.payment.updated',
        payment_status: expected.status,
        transaction_id: body!.transaction_id,
        cib_transaction_id: cibId,
        order_id: body!.cib_response.orderId,
        order_number: Number(cibId),
        order_status: expected.orderStatus,
        amount: 150000,
        currency: '012',
        action_code: expected.actionCode,
        resp_code: expected.respCode,
        resp_code_desc: expected.status === 'success' ? 'Approved' : 'Declined',
        message: `1212123hi${expected.status}1500`,
      })
      if (expected.status === 'success')
        expect(event).toMatchObject({ error_code: null, error_message: null })
      else expect(typeof event.error_code).toBe('number')
      expect(
        await verifyGatewaySignature(
          event.message as string,
          event.signature as string,
          SIMULATOR_PUBLIC_KEY_PEM,
        ),
      ).toBe(true)
      expect(await verifyGatewaySignature(event.message as string, event.signature as string)).toBe(
        false,
      )

      const answer = await check(cibId)
      expect(answer.status).toBe(200)
      expect(answer.body).toMatchObject({
        order_number: cibId,
        orderStatus: expected.orderStatus,
        actionCode: expected.actionCode,
        respCode: expected.respCode,
        destination_account: SIMULATOR_MERCHANT_ACCOUNT,
        Amount: 150000,
      })
      if (card.outcome === 'approved') {
        expect(answer.body.errorCode).toBe('0')
        expect(answer.body.approvalCode).toMatch(/^\d{6}$/)
        expect(answer.body.respCode_desc).not.toBe('')
      }
    })
  }

  it('cancels: redirect says canceled, the check says action code 10', async () => {
    const { body } = await create()
    const res = await postForm(`${body!.payment_url}/cancel`, {})
    const location = new URL(res.headers.get('location')!)
    expect(location.searchParams.get('payment_status')).toBe('canceled')
    expect(location.searchParams.get('message')).toBe('1212123hicanceled1500')
    const { body: answer } = await check(body!.cib_transaction_id)
    expect(answer).toMatchObject({ orderStatus: 6, actionCode: 10, respCode_desc: '' })
    expect(answer.actionCodeDescription).toBe('Payment cancelled by the customer')
  })

  it('lets the session expire on request: redirect says expired, the check says -2007', async () => {
    const { body } = await create()
    const res = await postForm(`${body!.payment_url}/expire`, {})
    expect(new URL(res.headers.get('location')!).searchParams.get('payment_status')).toBe('expired')
    expect((await check(body!.cib_transaction_id)).body).toMatchObject({
      orderStatus: 6,
      actionCode: -2007,
    })
    await run.sim.flush()
  })

  it('refuses any OTP but the test one with "Invalid OTP code", and then still accepts the right one', async () => {
    const { body } = await create()
    const card = TEST_CARDS[0]!
    await postForm(`${body!.payment_url}/card`, {
      pan: card.number,
      expiry: card.expiry,
      cvv: card.cvv,
    })
    const wrong = await postForm(`${body!.payment_url}/otp`, { otp: '000000' })
    expect(wrong.status).toBe(400)
    expect(await wrong.text()).toContain('Invalid OTP code')
    expect((await check(body!.cib_transaction_id)).body.orderStatus).toBe(0)
    const right = await postForm(`${body!.payment_url}/otp`, { otp: TEST_OTP })
    expect(right.status).toBe(303)
    await run.sim.flush()
  })

  it('refuses a card that is not a test card, or a wrong expiry or CVV, and stays on the card step', async () => {
    const { body } = await create({ language: 'fr' })
    const card = TEST_CARDS[0]!
    const unknown = await postForm(`${body!.payment_url}/card`, {
      pan: '4111111111111111',
      expiry: '12/30',
      cvv: '123',
    })
    expect(unknown.status).toBe(400)
    expect(await unknown.text()).toContain('n’est pas une carte de test')
    const expiry = await postForm(`${body!.payment_url}/card`, {
      pan: card.number,
      expiry: '11/30',
      cvv: card.cvv,
    })
    expect(expiry.status).toBe(400)
    const cvv = await postForm(`${body!.payment_url}/card?lang=en`, {
      pan: card.number,
      expiry: card.expiry,
      cvv: '999',
    })
    expect(await cvv.text()).toContain('The CVV does not match')
    expect(await (await fetch(body!.payment_url)).text()).toContain('name="pan"')
  })

  it('sends an unsigned redirect when keep_return_url is not True', async () => {
    const { body } = await create({ keep_return_url: 'False' })
    const res = await postForm(`${body!.payment_url}/cancel`, {})
    const location = new URL(res.headers.get('location')!)
    expect(location.searchParams.get('payment_status')).toBe('canceled')
    expect(location.searchParams.has('signature')).toBe(false)
    expect(location.searchParams.has('message')).toBe(false)
    await run.sim.flush()
  })

  it('shows a result page on the simulator when there is no return URL', async () => {
    const noReturn = await fetch(
      `${run.url}/make-cib-transaction/?${new URLSearchParams({ account: SIMULATOR_MERCHANT_ACCOUNT, amount: '50', full_name: 'A', phone: '1', email: 'a@b.dz', redirect: 'no', language: 'ar' })}`,
    )
    const created = (await noReturn.json()) as Created
    const res = await postForm(`${created.payment_url}/cancel`, {})
    expect(res.headers.get('location')).toBe(new URL(created.payment_url).pathname)
    const page = await (await fetch(created.payment_url)).text()
    expect(page).toContain('dir="rtl"')
    expect(page).toContain('ألغى الزبون الدفع')
  })
})

describe('card transaction creation and check errors', () => {
  it('answers redirect=yes with a 302 to the card page', async () => {
    const { res } = await create({ redirect: 'yes' })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toMatch(new RegExp(`^${run.url}/pay/[0-9a-f-]{36}$`))
  })

  const bad: [string, Record<string, string>][] = [
    ['an account that is not a valid G… key', { account: 'GABC' }],
    ['an amount under 50 DZD', { amount: '49.99' }],
    ['an amount with three decimals', { amount: '100.001' }],
    ['a missing full name', { full_name: '' }],
    ['a missing phone', { phone: '' }],
    ['a missing e-mail', { email: '' }],
    ['a return URL that is not http(s)', { return_url: 'javascript:alert(1)' }],
    ['a webhook URL that is not a URL', { webhook_url: 'not a url' }],
    ['a redirect other than yes or no', { redirect: 'maybe' }],
  ]
  for (const [what, change] of bad) {
    it(`answers 400 "Invalid or missing parameters." for ${what}`, async () => {
      const { res } = await create(change)
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({
        status: 'error',
        message: 'Invalid or missing parameters.',
      })
    })
  }

  it('answers 404 for an unknown order and 400 without order_number', async () => {
    expect((await check('1234567890')).status).toBe(404)
    const res = await fetch(`${run.url}/cib-transaction-check/`)
    expect(res.status).toBe(400)
  })

  it('keeps sandbox transactions apart: visible through the sandbox check only', async () => {
    const { body } = await create({}, '/sandbox/make-cib-transaction/')
    expect(body!.success).toBe(true)
    expect((await check(body!.cib_transaction_id, '/sandbox/cib-transaction-check/')).status).toBe(
      200,
    )
    expect((await check(body!.cib_transaction_id)).status).toBe(404)
  })
})
