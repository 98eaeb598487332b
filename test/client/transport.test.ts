import { inspect } from 'node:util'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  createGatewayClient,
  createPaymentGateway,
  GatewayApiError,
  GatewayAuthenticationError,
  GatewayBadRequestError,
  type GatewayClientOptions,
  GatewayConfigurationError,
  GatewayConnectionError,
  GatewayError,
  GatewayNotFoundError,
  GatewayRateLimitError,
  GatewayResponseError,
  GatewayServerError,
  GatewayTimeoutError,
} from '../../src/client/index.js'
import {
  type RecordingServer,
  recordingSleep,
  startRecordingServer,
  TEST_ACCOUNT,
  TEST_SEED,
} from './helpers/recording-server.js'

const API_KEY = 'pk_live_SECRET_api_key_123456'
let server: RecordingServer

beforeAll(async () => {
  server = await startRecordingServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.reset()
  server.fallback = { status: 200, json: {} }
})

function makeClient(options: GatewayClientOptions = {}) {
  const sleep = recordingSleep()
  const client = createGatewayClient({
    siteUrl: `${server.url}/site`,
    apiUrl: `${server.url}/v1`,
    apiKey: API_KEY,
    secretKey: TEST_SEED,
    sleep: sleep.sleep,
    random: () => 0,
    ...options,
  })
  return { client, delays: sleep.delays }
}

const cardParams = {
  account: TEST_ACCOUNT,
  amount: 1500,
  full_name: 'A B',
  phone: '0555123456',
  email: 'a@b.dz',
}
const phoneTopUp = {
  amount: 100,
  operator: 'mobilis',
  offer: 'prepaid',
  phone: '0555123456',
} as const

describe('error mapping', () => {
  const cases: [number, unknown, new (...a: never[]) => GatewayApiError, string][] = [
    [400, { error: 'Invalid secret key' }, GatewayBadRequestError, 'Invalid secret key'],
    [401, { message: 'Invalid API key' }, GatewayAuthenticationError, 'Invalid API key'],
    [403, { detail: 'Forbidden' }, GatewayAuthenticationError, 'Forbidden'],
    [404, { detail: 'Operation not found' }, GatewayNotFoundError, 'Operation not found'],
    [429, { message: 'Slow down' }, GatewayRateLimitError, 'Slow down'],
    [500, { message: 'Error fetching products: upstream' }, GatewayServerError, 'upstream'],
    [502, '<html><body>Bad gateway</body></html>', GatewayServerError, '502'],
    [418, { error: { message: 'teapot' } }, GatewayApiError, 'teapot'],
  ]

  it.each(cases)(
    'maps %i to its error class with the gateway message',
    async (status, body, Class, said) => {
      const { client } = makeClient({ maxRetries: 0 })
      server.reply(typeof body === 'string' ? { status, text: body } : { status, json: body })
      const error = await client.v1.operations.get('op-1').catch((e: unknown) => e)
      expect(error).toBeInstanceOf(Class)
      expect(error).toBeInstanceOf(GatewayApiError)
      expect(error).toBeInstanceOf(GatewayError)
      const api = error as GatewayApiError
      expect(api.status).toBe(status)
      expect(api.message).toContain(said)
      expect(api.request).toEqual({ method: 'GET', url: `${server.url}/v1/operations/op-1` })
      if (typeof body === 'string') expect(api.message).not.toContain('<html>')
    },
  )

  it('carries the code and the Retry-After hint of a 429', async () => {
    const { client } = makeClient()
    server.reply({ status: 429, json: { code: 'rate_limited' }, headers: { 'Retry-After': '7' } })
    const error = (await client.v1.recharge
      .phone({ phone_number: '0555123456', operator: 'mobilis', amount: 100 })
      .catch((e: unknown) => e)) as GatewayRateLimitError
    expect(error).toBeInstanceOf(GatewayRateLimitError)
    expect(error.code).toBe('rate_limited')
    expect(error.retryAfterMs).toBe(7000)
  })

  it('throws GatewayResponseError on a 200 whose body is not JSON', async () => {
    const { client } = makeClient()
    server.reply({ status: 200, text: '{"status": "success",' })
    const error = await client.direct.operations.phone(phoneTopUp).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(GatewayResponseError)
    expect((error as GatewayResponseError).status).toBe(200)
    expect((error as Error).message).toMatch(/not JSON/)
  })

  it('throws GatewayResponseError on a 200 whose JSON is not the promised object', async () => {
    const { client } = makeClient()
    server.reply({ status: 200, json: ['unexpected'] })
    await expect(client.card.check('1')).rejects.toBeInstanceOf(GatewayResponseError)
  })

  it('throws GatewayConnectionError when nothing listens', async () => {
    const closed = await startRecordingServer()
    await closed.close()
    const client = createGatewayClient({ siteUrl: closed.url, maxRetries: 0 })
    const error = await client.card.check('1').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(GatewayConnectionError)
    expect((error as Error).message).toMatch(/Could not reach the gateway/)
  })

  it('throws GatewayTimeoutError when the gateway never answers', async () => {
    const { client } = makeClient({ timeoutMs: 50 })
    server.reply({ hang: true })
    const error = await client.card.create(cardParams).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(GatewayTimeoutError)
    expect(error).toBeInstanceOf(GatewayConnectionError)
    expect((error as GatewayTimeoutError).timeoutMs).toBe(50)
    expect(server.requests).toHaveLength(1)
  })

  it('honours a per-call timeout over the client default', async () => {
    const { client } = makeClient({ timeoutMs: 60_000, maxRetries: 0 })
    server.reply({ hang: true })
    await expect(client.card.check('1', {}, { timeoutMs: 30 })).rejects.toBeInstanceOf(
      GatewayTimeoutError,
    )
  })

  it('times out even when the fetch ignores its abort signal', async () => {
    const never: GatewayClientOptions['fetch'] = () => new Promise<Response>(() => {})
    const client = createGatewayClient({ fetch: never, timeoutMs: 20, maxRetries: 0 })
    await expect(client.card.check('1')).rejects.toBeInstanceOf(GatewayTimeoutError)
  })

  it('does not send or retry a call the caller aborted', async () => {
    const { client, delays } = makeClient()
    const controller = new AbortController()
    controller.abort()
    const error = await client.card.check('1', {}, { signal: controller.signal }).catch((e) => e)
    expect(error).toBeInstanceOf(GatewayConnectionError)
    expect((error as Error).message).toMatch(/aborted/)
    expect(server.requests).toHaveLength(0)
    expect(delays).toEqual([])
  })
})

describe('retry policy', () => {
  it('retries a read after a 503 and then succeeds, with backoff', async () => {
    const { client, delays } = makeClient()
    server.reply(
      { status: 503, json: { message: 'busy' } },
      { status: 503 },
      { status: 200, json: { orderStatus: 0 } },
    )
    const result = await client.card.check('1')
    expect(result.outcome).toBe('pending')
    expect(server.requests).toHaveLength(3)
    expect(delays).toEqual([500, 1000])
  })

  it('takes up to a quarter off the backoff as jitter', async () => {
    const { client, delays } = makeClient({ random: () => 0.999 })
    server.reply({ status: 500 }, { status: 200, json: {} })
    await client.v1.products.list()
    expect(delays[0]).toBeGreaterThanOrEqual(375)
    expect(delays[0]).toBeLessThan(500)
  })

  it('gives up after maxRetries and throws the last error', async () => {
    const { client } = makeClient({ maxRetries: 2 })
    server.fallback = { status: 503, json: { message: 'down' } }
    await expect(client.direct.operations.history()).rejects.toBeInstanceOf(GatewayServerError)
    expect(server.requests).toHaveLength(3)
  })

  it('honours Retry-After in seconds and as an HTTP date, capped', async () => {
    const now = Date.parse('2025-01-01T00:00:00Z')
    const { client, delays } = makeClient({ now: () => now, maxRetries: 3 })
    server.reply(
      { status: 429, headers: { 'Retry-After': '2' } },
      { status: 503, headers: { 'Retry-After': 'Wed, 01 Jan 2025 00:00:05 GMT' } },
      { status: 503, headers: { 'Retry-After': '3600' } },
      { status: 200, json: {} },
    )
    await client.v1.invoices.list()
    expect(delays).toEqual([2000, 5000, 30_000])
  })

  it('retries a read after a connection error', async () => {
    let calls = 0
    const flaky: GatewayClientOptions['fetch'] = async (input, init) => {
      calls++
      if (calls === 1) throw new TypeError('fetch failed')
      return fetch(input, init)
    }
    const { client } = makeClient({ fetch: flaky })
    server.reply({ status: 200, json: { orderStatus: 6 } })
    expect((await client.card.check('1')).outcome).toBe('failed')
    expect(calls).toBe(2)
  })

  it('does not retry a 4xx read', async () => {
    const { client } = makeClient()
    server.reply({ status: 400, json: { message: 'bad' } })
    await expect(client.v1.operations.list()).rejects.toBeInstanceOf(GatewayBadRequestError)
    expect(server.requests).toHaveLength(1)
  })

  it('sends a read once when the call asks for no retries', async () => {
    const { client } = makeClient()
    server.fallback = { status: 503 }
    await expect(client.card.check('1', {}, { maxRetries: 0 })).rejects.toBeInstanceOf(
      GatewayServerError,
    )
    expect(server.requests).toHaveLength(1)
  })

  const creations: [string, (c: ReturnType<typeof makeClient>['client']) => Promise<unknown>][] = [
    ['card.create', (c) => c.card.create(cardParams)],
    ['direct.operations.phone', (c) => c.direct.operations.phone(phoneTopUp)],
    ['direct.invoices.create', (c) => c.direct.invoices.create({ amount: 100 })],
    ['direct.invoices.update', (c) => c.direct.invoices.update({ invoice_id: 'i' })],
    [
      'v1.recharge.phone',
      (c) => c.v1.recharge.phone({ phone_number: '0555123456', operator: 'mobilis', amount: 1 }),
    ],
    [
      'v1.cib.create',
      (c) => c.v1.cib.create({ amount: 100, order_id: 'o', return_url: 'https://a.dz/' }),
    ],
    ['v1.bills.pay', (c) => c.v1.bills.pay({ bill: 'b' })],
    ['v1.invoices.create', (c) => c.v1.invoices.create({ amount: 1 })],
  ]

  it.each(creations)(
    'sends %s exactly once on a 503, even when retries are asked for',
    async (_n, call) => {
      const { client, delays } = makeClient({ maxRetries: 5 })
      server.fallback = { status: 503, json: { message: 'busy' } }
      await expect(call(client)).rejects.toBeInstanceOf(GatewayServerError)
      expect(server.requests).toHaveLength(1)
      expect(delays).toEqual([])
    },
  )

  it('sends a creation once when it times out', async () => {
    const { client } = makeClient({ timeoutMs: 30, maxRetries: 5 })
    server.fallback = { hang: true }
    await expect(client.direct.operations.phone(phoneTopUp)).rejects.toBeInstanceOf(
      GatewayTimeoutError,
    )
    expect(server.requests).toHaveLength(1)
  })
})

describe('secrets stay out of errors and output', () => {
  it('leaves the query, encrypted_sk with it, out of the URL an error carries, and scrubs an echoed secret', async () => {
    const { client } = makeClient({ maxRetries: 0 })
    server.reply({
      status: 400,
      json: { message: `Invalid secret key ${TEST_SEED}`, encrypted_sk: TEST_SEED },
    })
    const error = (await client.direct.operations
      .history()
      .catch((e: unknown) => e)) as GatewayApiError
    expect(error).toBeInstanceOf(GatewayBadRequestError)
    expect(error.request?.url).toBe(`${server.url}/site/services/operation-history/`)
    const everything = [
      error.message,
      String(error.stack),
      JSON.stringify(error),
      JSON.stringify(error.body),
      inspect(error),
    ].join('\n')
    expect(everything).not.toContain(TEST_SEED)
    expect(everything).toContain('[redacted]')
  })

  it('never puts the API key in an error', async () => {
    const { client } = makeClient({ maxRetries: 0 })
    server.reply({ status: 401, json: { error: `key ${API_KEY} is not valid` } })
    const error = await client.v1.products.list().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(GatewayAuthenticationError)
    expect(`${(error as Error).message} ${inspect(error)} ${JSON.stringify(error)}`).not.toContain(
      API_KEY,
    )
  })

  it('keeps the secret out of timeout and connection errors', async () => {
    const { client } = makeClient({ timeoutMs: 20, maxRetries: 0 })
    server.reply({ hang: true })
    const error = await client.direct.invoices.list().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(GatewayTimeoutError)
    expect(inspect(error)).not.toContain(TEST_SEED)
    const leaky: GatewayClientOptions['fetch'] = async (input) => {
      throw new Error(`cannot fetch ${input}`)
    }
    const c2 = createGatewayClient({ fetch: leaky, secretKey: TEST_SEED, maxRetries: 0 })
    const e2 = await c2.direct.operations.history().catch((e: unknown) => e)
    expect(e2).toBeInstanceOf(GatewayConnectionError)
    expect(`${inspect(e2)} ${String((e2 as Error).cause)}`).not.toContain(TEST_SEED)
  })

  it('shows [redacted] for both keys in toString, JSON and inspect', () => {
    const { client } = makeClient()
    for (const text of [String(client), JSON.stringify(client), inspect(client, { depth: 5 })]) {
      expect(text).not.toContain(API_KEY)
      expect(text).not.toContain(TEST_SEED)
      expect(text).toContain('[redacted]')
    }
    expect(JSON.parse(JSON.stringify(client))).toEqual({
      siteUrl: `${server.url}/site`,
      apiUrl: `${server.url}/v1`,
      sandbox: false,
      apiKey: '[redacted]',
      secretKey: '[redacted]',
    })
  })
})

describe('the payment gateway (card payments and invoices only)', () => {
  const options = { apiKey: API_KEY, secretKey: TEST_SEED }

  it('holds the card payments and invoices of the full client, nothing else, redacted alike', () => {
    const full = createGatewayClient({ ...options, siteUrl: `${server.url}/site` })
    const payment = createPaymentGateway({ ...options, siteUrl: `${server.url}/site` })
    expect(Object.keys(payment)).toEqual([
      'direct',
      'card',
      'siteUrl',
      'apiUrl',
      'sandbox',
      'toString',
      'toJSON',
    ])
    expect(Object.keys(payment.direct)).toEqual(['invoices'])
    expect(Object.keys(payment.card)).toEqual(Object.keys(full.card))
    expect(Object.keys(payment.direct.invoices)).toEqual(Object.keys(full.direct.invoices))
    expect(String(payment)).toBe(String(full))
    expect(JSON.stringify(payment)).toBe(JSON.stringify(full))
    expect(inspect(payment, { depth: 5 })).toBe(String(full))
    expect(Object.isFrozen(payment)).toBe(true)
  })

  it('refuses bad options as the full client does', () => {
    for (const bad of [{ siteUrl: 'ftp://x' }, { timeoutMs: 0 }, { apiUrl: 'https://x/v1?k=1' }])
      expect(() => createPaymentGateway(bad)).toThrow(GatewayConfigurationError)
  })

  it('creates an invoice over the same transport', async () => {
    const payment = createPaymentGateway({
      ...options,
      siteUrl: `${server.url}/site`,
      maxRetries: 0,
    })
    server.reply({ status: 404, json: { error: 'no such invoice' } })
    const error = await payment.direct.invoices.list().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(GatewayNotFoundError)
    expect(server.requests.at(-1)?.path).toMatch(/^\/site\//)
  })
})

describe('configuration', () => {
  it('defaults the site to the production gateway', () => {
    expect(createGatewayClient().siteUrl).toBe('https://www.sofizpay.com')
  })

  it('keeps a base path and drops a trailing slash', () => {
    expect(createGatewayClient({ siteUrl: 'http://localhost:8787/_sim/' }).siteUrl).toBe(
      'http://localhost:8787/_sim',
    )
  })

  it.each([
    ['a siteUrl that is not a URL', { siteUrl: 'gateway' }],
    ['a siteUrl with another scheme', { siteUrl: 'ftp://gateway.example' }],
    ['an apiUrl with a query', { apiUrl: 'https://api.example/v1?x=1' }],
    ['a zero timeout', { timeoutMs: 0 }],
    ['negative retries', { maxRetries: -1 }],
  ])('rejects %s', (_name, options) => {
    expect(() => createGatewayClient(options)).toThrow(GatewayConfigurationError)
  })
})
