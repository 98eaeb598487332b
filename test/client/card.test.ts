import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  type CardPaymentParams,
  createGatewayClient,
  GatewayApiError,
  GatewayBadRequestError,
  type GatewayClient,
  interpretCardCheck,
  ValidationError,
} from '../../src/client/index.js'
import { utf8 } from '../../src/lib/bytes.js'
import {
  OTHER_ACCOUNT,
  type RecordingServer,
  startRecordingServer,
  TEST_ACCOUNT,
} from './helpers/recording-server.js'

let server: RecordingServer
let client: GatewayClient

const params: CardPaymentParams = {
  account: TEST_ACCOUNT,
  amount: 1500,
  full_name: 'Amina Benali',
  phone: '+213555123456',
  email: 'amina@example.dz',
  return_url: 'https://shop.example/r/abc?lang=fr',
  webhook_url: 'https://shop.example/webhooks/gateway',
  invoice_id: 'inv-42',
  language: 'fr',
  memo: 'Order 42',
  keep_return_url: true,
}

const created = {
  success: true,
  transaction_id: '1b4e28ba-2fa1-11d2-883f-0016d3cca427',
  cib_transaction_id: 1234567890,
  payment_url: 'https://cib.example/pay?mdOrder=abc',
  amount: '1500.00',
  status: 'pending_user_transfer_start',
  more_info_url: 'https://gateway.example/info/1',
  webhook_url: 'https://shop.example/webhooks/gateway',
  cib_response: { errorCode: 0, orderId: 'abc', formUrl: 'https://cib.example/pay?mdOrder=abc' },
  unexpected: 'kept',
}

beforeAll(async () => {
  server = await startRecordingServer()
  client = createGatewayClient({ siteUrl: `${server.url}/site` })
})
afterAll(() => server.close())
beforeEach(() => {
  server.reset()
  server.fallback = { status: 200, json: created }
})

describe('card.create', () => {
  it('sends every parameter in the query with redirect=no and no body', async () => {
    await client.card.create(params)
    expect(server.requests).toHaveLength(1)
    const req = server.requests[0]!
    expect(req.method).toBe('GET')
    expect(req.path).toBe('/site/make-cib-transaction/')
    expect(req.body).toBe('')
    expect(req.query).toEqual({
      account: TEST_ACCOUNT,
      amount: '1500',
      full_name: 'Amina Benali',
      phone: '+213555123456',
      email: 'amina@example.dz',
      return_url: 'https://shop.example/r/abc?lang=fr',
      webhook_url: 'https://shop.example/webhooks/gateway',
      invoice_id: 'inv-42',
      language: 'fr',
      memo: 'Order 42',
      redirect: 'no',
      keep_return_url: 'True',
    })
    // Spaces as %20 and reserved characters of nested URLs encoded.
    expect(req.rawQuery).toContain('full_name=Amina%20Benali')
    expect(req.rawQuery).toContain('return_url=https%3A%2F%2Fshop.example%2Fr%2Fabc%3Flang%3Dfr')
  })

  it('returns the typed result with cib_transaction_id as text and the raw answer', async () => {
    const result = await client.card.create(params)
    expect(result).toEqual({
      success: true,
      transaction_id: created.transaction_id,
      cib_transaction_id: '1234567890',
      payment_url: created.payment_url,
      amount: '1500.00',
      status: 'pending_user_transfer_start',
      more_info_url: created.more_info_url,
      webhook_url: created.webhook_url,
      cib_response: { errorCode: '0', orderId: 'abc', formUrl: created.cib_response.formUrl },
      raw: created,
    })
  })

  it('sends the amount as given text, without float arithmetic', async () => {
    await client.card.create({ ...params, amount: '1299.50' })
    await client.card.create({ ...params, amount: 1299.5 })
    await client.card.create({ ...params, amount: ' 50 ' })
    expect(server.requests.map((r) => r.query.amount)).toEqual(['1299.50', '1299.5', '50'])
  })

  it('cuts the memo to 28 UTF-8 bytes on a character boundary', async () => {
    const memo = 'دفع طلبية رقم اثنان وأربعون'
    await client.card.create({ ...params, memo })
    const sent = server.requests[0]!.query.memo!
    expect(utf8(sent).length).toBeLessThanOrEqual(28)
    expect(memo.startsWith(sent)).toBe(true)
    expect(sent).toBe('دفع طلبية رقم ا') // 27 bytes: the next letter would make 29
  })

  it('sends keep_return_url as True or False, and leaves it out when not given', async () => {
    await client.card.create({ ...params, keep_return_url: false })
    await client.card.create({ ...params, keep_return_url: 'True' })
    await client.card.create({ ...params, keep_return_url: 'False' })
    const { keep_return_url: _omit, ...withoutKeep } = params
    await client.card.create(withoutKeep)
    expect(server.requests.map((r) => r.query.keep_return_url)).toEqual([
      'False',
      'True',
      'False',
      undefined,
    ])
  })

  it('leaves optional parameters out when not given', async () => {
    await client.card.create({
      account: TEST_ACCOUNT,
      amount: 50,
      full_name: 'A B',
      phone: '0555123456',
      email: 'a@b.dz',
    })
    expect(server.requests[0]!.query).toEqual({
      account: TEST_ACCOUNT,
      amount: '50',
      full_name: 'A B',
      phone: '0555123456',
      email: 'a@b.dz',
      redirect: 'no',
    })
  })

  it('uses the sandbox path in sandbox mode', async () => {
    const sandbox = createGatewayClient({ siteUrl: `${server.url}/site`, sandbox: true })
    await sandbox.card.create(params)
    expect(server.requests[0]!.path).toBe('/site/sandbox/make-cib-transaction/')
  })

  it('throws GatewayApiError with the gateway message on a 200 with success false', async () => {
    server.reply({ status: 200, json: { success: false, error: 'Merchant account disabled' } })
    const error = await client.card.create(params).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(GatewayApiError)
    expect((error as GatewayApiError).status).toBe(200)
    expect((error as Error).message).toContain('Merchant account disabled')
    expect(server.requests).toHaveLength(1)
  })

  it('throws GatewayApiError on a 200 without payment_url', async () => {
    server.reply({ status: 200, json: { success: true, cib_transaction_id: 1 } })
    await expect(client.card.create(params)).rejects.toThrow(/payment_url/)
  })

  it('maps the documented 400 and reads its message', async () => {
    server.reply({
      status: 400,
      json: { status: 'error', message: 'Invalid or missing parameters.' },
    })
    const error = await client.card.create(params).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(GatewayBadRequestError)
    expect((error as Error).message).toContain('Invalid or missing parameters.')
    expect((error as GatewayBadRequestError).body).toEqual({
      status: 'error',
      message: 'Invalid or missing parameters.',
    })
  })
})

describe('card.redirectUrl', () => {
  it('builds the redirect=yes URL and sends nothing', () => {
    const url = new URL(client.card.redirectUrl(params))
    expect(`${url.origin}${url.pathname}`).toBe(`${server.url}/site/make-cib-transaction/`)
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      account: TEST_ACCOUNT,
      amount: '1500',
      redirect: 'yes',
      keep_return_url: 'True',
    })
    expect(server.requests).toHaveLength(0)
  })

  it('builds the sandbox URL in sandbox mode', () => {
    const sandbox = createGatewayClient({ siteUrl: 'https://gateway.example', sandbox: true })
    expect(sandbox.card.redirectUrl(params)).toMatch(
      /^https:\/\/gateway\.example\/sandbox\/make-cib-transaction\/\?account=/,
    )
  })

  it('validates like create', () => {
    expect(() => client.card.redirectUrl({ ...params, amount: 10 })).toThrow(ValidationError)
  })
})

describe('card parameter validation', () => {
  const bad = <T>(v: unknown) => v as T
  const rejects: [
    string,
    Partial<Record<keyof CardPaymentParams | 'redirect', unknown>>,
    string,
  ][] = [
    ['an account with a bad checksum', { account: `${TEST_ACCOUNT.slice(0, -1)}A` }, 'account'],
    ['a secret seed as account', { account: 'S'.padEnd(56, 'A') }, 'account'],
    ['an amount under 50 DZD', { amount: 49.99 }, 'amount'],
    ['an amount with three decimals', { amount: '100.001' }, 'amount'],
    ['an amount that is not a number', { amount: 'abc' }, 'amount'],
    ['an empty full name', { full_name: '  ' }, 'full_name'],
    ['a phone with letters', { phone: '05551234ab' }, 'phone'],
    ['a phone with too few digits', { phone: '12345' }, 'phone'],
    ['an e-mail without @', { email: 'amina.example.dz' }, 'email'],
    ['a return URL that is not http(s)', { return_url: 'ftp://shop.example/r' }, 'return_url'],
    ['a webhook URL that is not a URL', { webhook_url: 'not a url' }, 'webhook_url'],
    ['an empty invoice id', { invoice_id: '' }, 'invoice_id'],
    ['an unknown language', { language: 'de' }, 'language'],
    ['a memo that is not text', { memo: 42 }, 'memo'],
    ['keep_return_url as yes', { keep_return_url: 'yes' }, 'keep_return_url'],
    ['a redirect set by the caller', { redirect: 'yes' }, 'redirect'],
  ]

  it.each(rejects)('rejects %s before sending', async (_name, change, field) => {
    const error = await client.card.create(bad({ ...params, ...change })).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ValidationError)
    expect(Object.keys((error as ValidationError).fields)).toContain(field)
    expect(server.requests).toHaveLength(0)
  })

  it('rejects a missing required parameter', async () => {
    const { email: _email, ...rest } = params
    const error = await client.card.create(bad(rest)).catch((e: unknown) => e)
    expect((error as ValidationError).fields).toEqual({ email: ['is required'] })
  })
})

describe('card.check', () => {
  const paid = {
    order_number: 1234567890,
    orderStatus: 2,
    errorCode: '0',
    errorMessage: 'Success',
    actionCode: 0,
    actionCodeDescription: 'Request processed successfully',
    respCode: '00',
    respCode_desc: 'Approved',
    destination_account: TEST_ACCOUNT,
    Amount: 150000,
    approvalCode: '123456',
  }
  const expectation = { amount: 150000, account: TEST_ACCOUNT }

  it('asks GET cib-transaction-check/ with order_number and nothing else', async () => {
    server.reply({ json: paid })
    await client.card.check('1234567890', expectation)
    const req = server.requests[0]!
    expect(req.method).toBe('GET')
    expect(req.path).toBe('/site/cib-transaction-check/')
    expect(req.rawQuery).toBe('order_number=1234567890')
    expect(req.body).toBe('')
  })

  it('uses the sandbox check path in sandbox mode', async () => {
    const sandbox = createGatewayClient({ siteUrl: `${server.url}/site`, sandbox: true })
    server.reply({ json: paid })
    await sandbox.card.check(1234567890)
    expect(server.requests[0]!.path).toBe('/site/sandbox/cib-transaction-check/')
    expect(server.requests[0]!.query).toEqual({ order_number: '1234567890' })
  })

  it('reads a paid answer with every field typed', async () => {
    server.reply({ json: paid })
    expect(await client.card.check('1234567890', expectation)).toEqual({
      raw: paid,
      outcome: 'paid',
      orderStatus: 2,
      errorCode: 0,
      respCode: '00',
      actionCode: 0,
      message: 'Approved',
      approvalCode: '123456',
      amount: 150000,
      account: TEST_ACCOUNT,
      orderNumber: '1234567890',
      orderId: null,
    })
  })

  it('reads the order id of an answer that carries one', async () => {
    server.reply({ json: { ...paid, orderId: ' 0f3c2a9e-order ' } })
    expect((await client.card.check('1234567890', expectation)).orderId).toBe('0f3c2a9e-order')
  })

  it('treats a 404 as an order not known yet: pending', async () => {
    server.reply({ status: 404, json: { detail: 'Not found.' } })
    const result = await client.card.check('99', expectation)
    expect(result.outcome).toBe('pending')
    expect(result.raw).toEqual({ detail: 'Not found.' })
  })

  it('reads Amount in DZD when the client says so', async () => {
    const dzd = createGatewayClient({ siteUrl: `${server.url}/site`, checkAmountUnit: 'dzd' })
    server.reply({ json: { ...paid, Amount: '1500.00' } })
    const result = await dzd.card.check('1', expectation)
    expect(result.amount).toBe(150000)
    expect(result.outcome).toBe('paid')
  })

  it('rejects a bad id or expectation before sending', async () => {
    await expect(client.card.check('')).rejects.toBeInstanceOf(ValidationError)
    await expect(client.card.check('1', { amount: 1.5 })).rejects.toBeInstanceOf(ValidationError)
    await expect(client.card.check('1', { account: 'GABC' })).rejects.toBeInstanceOf(
      ValidationError,
    )
    expect(server.requests).toHaveLength(0)
  })

  describe('outcome of an answer', () => {
    const table: [string, Record<string, unknown>, string, string?][] = [
      ['deposited, codes 0/00, amount and account equal', {}, 'paid'],
      [
        'the same with numbers as strings',
        { orderStatus: '2', errorCode: 0, respCode: 0, Amount: '150000' },
        'paid',
      ],
      ['deposited but for another amount', { Amount: 100000 }, 'failed', 'amount'],
      ['deposited without an amount', { Amount: undefined }, 'failed', 'amount'],
      ['deposited to another account', { destination_account: OTHER_ACCOUNT }, 'failed', 'account'],
      ['deposited but declined by the response code', { respCode: '05' }, 'failed'],
      ['deposited but with an error code', { errorCode: '2' }, 'failed'],
      ['registered, not paid', { orderStatus: 0, respCode: '' }, 'pending'],
      ['approved but held', { orderStatus: '1' }, 'pending'],
      ['reversed', { orderStatus: 3 }, 'failed'],
      ['refunded', { orderStatus: 4 }, 'failed'],
      ['declined (6)', { orderStatus: 6, respCode: '05', actionCode: 116 }, 'failed'],
      ['declined (-1)', { orderStatus: '-1' }, 'failed'],
      ['a session that expired', { orderStatus: 6, actionCode: '-2007' }, 'expired'],
      ['a customer who cancelled', { orderStatus: 6, actionCode: 10 }, 'canceled'],
      ['an answer without a status', { orderStatus: undefined }, 'pending'],
    ]

    it.each(table)('%s', (_name, change, outcome, mismatch) => {
      const raw = { ...paid, ...change }
      const result = interpretCardCheck(raw, expectation)
      expect(result.outcome).toBe(outcome)
      expect(result.mismatch).toBe(mismatch)
    })

    it('skips the checks nobody asked for', () => {
      expect(interpretCardCheck({ ...paid, Amount: 1 }, {}).outcome).toBe('paid')
    })

    it('takes the message from respCode_desc, then actionCodeDescription, then errorMessage', () => {
      expect(interpretCardCheck(paid).message).toBe('Approved')
      expect(interpretCardCheck({ ...paid, respCode_desc: '' }).message).toBe(
        'Request processed successfully',
      )
      expect(
        interpretCardCheck({ ...paid, respCode_desc: '', actionCodeDescription: null }).message,
      ).toBe('Success')
      expect(interpretCardCheck({}).message).toBeNull()
    })
  })
})
