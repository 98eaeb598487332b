import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  createGatewayClient,
  type GatewayClient,
  GatewayConfigurationError,
  ValidationError,
} from '../../src/client/index.js'
import {
  type RecordingServer,
  startRecordingServer,
  TEST_SEED,
} from './helpers/recording-server.js'

const API_KEY = 'pk_test_0123456789abcdef'
let server: RecordingServer
let client: GatewayClient

beforeAll(async () => {
  server = await startRecordingServer()
  client = createGatewayClient({
    siteUrl: `${server.url}/site`,
    apiUrl: `${server.url}/api/v1`,
    apiKey: API_KEY,
    secretKey: TEST_SEED,
  })
})
afterAll(() => server.close())
beforeEach(() => {
  server.reset()
  server.fallback = { status: 200, json: { status: 'success' } }
})

describe('API-key interface on the wire', () => {
  const cases: {
    name: string
    call: (c: GatewayClient) => Promise<unknown>
    method: string
    path: string
    query?: Record<string, string>
    body?: unknown
  }[] = [
    {
      name: 'recharge.phone',
      call: (c) =>
        c.v1.recharge.phone({ phone_number: '0555123456', operator: 'mobilis', amount: 500 }),
      method: 'POST',
      path: '/api/v1/recharge/phone',
      body: { phone_number: '0555123456', operator: 'mobilis', amount: 500 },
    },
    {
      name: 'recharge.internet',
      call: (c) =>
        c.v1.recharge.internet({
          subscription_number: '031234567',
          provider: 'idoom_adsl',
          package_id: 'adsl-1000',
        }),
      method: 'POST',
      path: '/api/v1/recharge/internet',
      body: { subscription_number: '031234567', provider: 'idoom_adsl', package_id: 'adsl-1000' },
    },
    {
      name: 'recharge.game',
      call: (c) =>
        c.v1.recharge.game({ game_id: 'ml', product_id: 'ml-86', player_id: '99887766' }),
      method: 'POST',
      path: '/api/v1/recharge/game',
      body: { game_id: 'ml', product_id: 'ml-86', player_id: '99887766' },
    },
    {
      name: 'cib.create adds the default currency',
      call: (c) =>
        c.v1.cib.create({
          amount: 1500.5,
          order_id: 'order-42',
          return_url: 'https://shop.example/return?o=42',
          description: 'Two mugs',
        }),
      method: 'POST',
      path: '/api/v1/cib/transaction',
      body: {
        amount: 1500.5,
        currency: 'DZD',
        order_id: 'order-42',
        return_url: 'https://shop.example/return?o=42',
        description: 'Two mugs',
      },
    },
    {
      name: 'cib.create keeps properties the document does not show',
      call: (c) =>
        c.v1.cib.create({
          amount: '2000',
          currency: 'DZD',
          order_id: 'o-1',
          return_url: 'http://localhost/r',
          customer_email: 'a@b.dz',
        }),
      method: 'POST',
      path: '/api/v1/cib/transaction',
      body: {
        amount: 2000,
        currency: 'DZD',
        order_id: 'o-1',
        return_url: 'http://localhost/r',
        customer_email: 'a@b.dz',
      },
    },
    {
      name: 'cib.check',
      call: (c) => c.v1.cib.check({ order_number: '1234567890' }),
      method: 'POST',
      path: '/api/v1/cib/transaction/check',
      body: { order_number: '1234567890' },
    },
    {
      name: 'bills.pay sends the body as given',
      call: (c) => c.v1.bills.pay({ biller: 'sonelgaz', reference: 'B-77', amount: 3210.25 }),
      method: 'POST',
      path: '/api/v1/bills/pay',
      body: { biller: 'sonelgaz', reference: 'B-77', amount: 3210.25 },
    },
    {
      name: 'operations.list with every filter',
      call: (c) =>
        c.v1.operations.list({
          page: 2,
          per_page: 50,
          type: 'cib',
          from: '2024-01-01',
          to: '2024-01-31',
        }),
      method: 'GET',
      path: '/api/v1/operations',
      query: { page: '2', per_page: '50', type: 'cib', from: '2024-01-01', to: '2024-01-31' },
    },
    {
      name: 'operations.list without filters',
      call: (c) => c.v1.operations.list(),
      method: 'GET',
      path: '/api/v1/operations',
      query: {},
    },
    {
      name: 'operations.get encodes the id as one segment',
      call: (c) => c.v1.operations.get('op/1 x'),
      method: 'GET',
      path: '/api/v1/operations/op%2F1%20x',
      query: {},
    },
    {
      name: 'products.list with a category',
      call: (c) => c.v1.products.list({ category: 'game' }),
      method: 'GET',
      path: '/api/v1/products',
      query: { category: 'game' },
    },
    {
      name: 'products.list without a category',
      call: (c) => c.v1.products.list(),
      method: 'GET',
      path: '/api/v1/products',
      query: {},
    },
    {
      name: 'invoices.list',
      call: (c) => c.v1.invoices.list(),
      method: 'GET',
      path: '/api/v1/merchant/invoices',
      query: {},
    },
    {
      name: 'invoices.create sends the body as given',
      call: (c) =>
        c.v1.invoices.create({ amount: 1000, items: [{ description: 'Tea', quantity: 2 }] }),
      method: 'POST',
      path: '/api/v1/merchant/invoices',
      body: { amount: 1000, items: [{ description: 'Tea', quantity: 2 }] },
    },
  ]

  it.each(cases)('$name', async ({ call, method, path, query, body }) => {
    await call(client)
    expect(server.requests).toHaveLength(1)
    const req = server.requests[0]!
    expect(req.method).toBe(method)
    expect(req.path).toBe(path)
    expect(req.headers['x-api-key']).toBe(API_KEY)
    expect(req.headers.accept).toBe('application/json')
    if (query) expect(req.query).toEqual(query)
    if (body === undefined) {
      expect(req.body).toBe('')
      expect(req.headers['content-type']).toBeUndefined()
    } else {
      expect(req.headers['content-type']).toBe('application/json')
      expect(req.json).toEqual(body)
      expect(req.rawQuery).toBe('')
    }
  })

  it('returns the answer with unknown fields kept', async () => {
    server.reply({ status: 200, json: { status: 'ok', operation: { id: 7 }, extra: [1] } })
    const res = await client.v1.recharge.phone({
      phone_number: '0555123456',
      operator: 'djezzy',
      amount: 100,
    })
    expect(res).toEqual({ status: 'ok', operation: { id: 7 }, extra: [1] })
  })

  it('accepts the 201 of invoice creation', async () => {
    server.reply({ status: 201, json: { id: 'inv-1' } })
    expect(await client.v1.invoices.create({ amount: 10 })).toEqual({ id: 'inv-1' })
  })

  it('returns the invoice list as the gateway sends it', async () => {
    server.reply({ status: 200, json: [{ id: 'inv-1' }] })
    expect(await client.v1.invoices.list()).toEqual([{ id: 'inv-1' }])
  })
})

describe('API-key interface validation', () => {
  const phone = { phone_number: '0555123456', operator: 'mobilis', amount: 500 } as const
  const cib = { amount: 1500, order_id: 'o-1', return_url: 'https://shop.example/r' }
  const bad = <T>(v: unknown) => v as T
  const rejects: [string, (c: GatewayClient) => Promise<unknown>, string][] = [
    [
      'a phone number that is not 10 digits',
      (c) => c.v1.recharge.phone({ ...phone, phone_number: '055512345' }),
      'phone_number',
    ],
    [
      'a phone number with letters',
      (c) => c.v1.recharge.phone({ ...phone, phone_number: '05551234ab' }),
      'phone_number',
    ],
    [
      'an unknown phone operator',
      (c) => c.v1.recharge.phone({ ...phone, operator: bad('orange') }),
      'operator',
    ],
    ['a fractional phone amount', (c) => c.v1.recharge.phone({ ...phone, amount: 10.5 }), 'amount'],
    ['a zero phone amount', (c) => c.v1.recharge.phone({ ...phone, amount: 0 }), 'amount'],
    [
      'a missing phone amount',
      (c) => c.v1.recharge.phone(bad({ phone_number: '0555123456', operator: 'mobilis' })),
      'amount',
    ],
    [
      'a field the phone recharge does not have',
      (c) => c.v1.recharge.phone(bad({ ...phone, phone: '1' })),
      'phone',
    ],
    [
      'an empty subscription number',
      (c) =>
        c.v1.recharge.internet({ subscription_number: ' ', provider: 'djaweb', package_id: 'p' }),
      'subscription_number',
    ],
    [
      'an unknown internet provider',
      (c) =>
        c.v1.recharge.internet({
          subscription_number: '1',
          provider: bad('idoom'),
          package_id: 'p',
        }),
      'provider',
    ],
    [
      'an empty package id',
      (c) =>
        c.v1.recharge.internet({ subscription_number: '1', provider: 'idoom_4g', package_id: '' }),
      'package_id',
    ],
    [
      'an empty game id',
      (c) => c.v1.recharge.game({ game_id: '', product_id: 'p', player_id: '1' }),
      'game_id',
    ],
    [
      'an empty product id',
      (c) => c.v1.recharge.game({ game_id: 'pubg', product_id: '', player_id: '1' }),
      'product_id',
    ],
    [
      'an empty player id',
      (c) => c.v1.recharge.game({ game_id: 'pubg', product_id: 'p', player_id: '' }),
      'player_id',
    ],
    ['a card amount under 50 DZD', (c) => c.v1.cib.create({ ...cib, amount: 49.99 }), 'amount'],
    [
      'a card amount with three decimals',
      (c) => c.v1.cib.create({ ...cib, amount: '100.123' }),
      'amount',
    ],
    [
      'a currency other than DZD',
      (c) => c.v1.cib.create({ ...cib, currency: bad('EUR') }),
      'currency',
    ],
    ['an empty order id', (c) => c.v1.cib.create({ ...cib, order_id: '' }), 'order_id'],
    [
      'a return URL that is not http(s)',
      (c) => c.v1.cib.create({ ...cib, return_url: 'javascript:alert(1)' }),
      'return_url',
    ],
    [
      'a description that is not text',
      (c) => c.v1.cib.create({ ...cib, description: bad(5) }),
      'description',
    ],
    ['a card check without order number', (c) => c.v1.cib.check(bad({})), 'order_number'],
    ['a bill payment body that is not an object', (c) => c.v1.bills.pay(bad([1, 2])), '(body)'],
    ['a page under 1', (c) => c.v1.operations.list({ page: 0 }), 'page'],
    ['a per_page that is not whole', (c) => c.v1.operations.list({ per_page: 2.5 }), 'per_page'],
    ['an unknown operation type', (c) => c.v1.operations.list({ type: bad('topup') }), 'type'],
    ['a from that is not a date', (c) => c.v1.operations.list({ from: '01/02/2024' }), 'from'],
    ['a to that is not a date', (c) => c.v1.operations.list({ to: '2024-13-01' }), 'to'],
    [
      'a from after to',
      (c) => c.v1.operations.list({ from: '2024-02-01', to: '2024-01-01' }),
      'from',
    ],
    ['an empty operation id', (c) => c.v1.operations.get(''), 'id'],
    [
      'an unknown product category',
      (c) => c.v1.products.list({ category: bad('food') }),
      'category',
    ],
    ['an invoice body that is not an object', (c) => c.v1.invoices.create(bad('x')), '(body)'],
  ]

  it.each(rejects)('rejects %s before sending', async (_name, call, field) => {
    const error = await call(client).then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ValidationError)
    expect(Object.keys((error as ValidationError).fields)).toContain(field)
    expect((error as ValidationError).message).toContain(field)
    expect(server.requests).toHaveLength(0)
  })

  it('throws a configuration error without apiUrl, and sends nothing', async () => {
    const c = createGatewayClient({ siteUrl: server.url, apiKey: API_KEY })
    await expect(c.v1.products.list()).rejects.toThrow(GatewayConfigurationError)
    await expect(c.v1.products.list()).rejects.toThrow(/apiUrl/)
    expect(server.requests).toHaveLength(0)
  })

  it('throws a configuration error without apiKey, and sends nothing', async () => {
    const c = createGatewayClient({ siteUrl: server.url, apiUrl: `${server.url}/api/v1` })
    await expect(c.v1.invoices.list()).rejects.toThrow(GatewayConfigurationError)
    await expect(c.v1.invoices.list()).rejects.toThrow(/apiKey/)
    expect(server.requests).toHaveLength(0)
  })
})
