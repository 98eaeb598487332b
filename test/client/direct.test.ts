import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  createGatewayClient,
  type GatewayClient,
  GatewayConfigurationError,
  ValidationError,
} from '../../src/client/index.js'
import { toBase64 } from '../../src/lib/bytes.js'
import { nodeGetWithBody } from '../../src/runtime/node/get-with-body.js'
import {
  corruptKey,
  type RecordingServer,
  startRecordingServer,
  TEST_SEED,
} from './helpers/recording-server.js'

let server: RecordingServer
let client: GatewayClient
const SK = TEST_SEED

beforeAll(async () => {
  server = await startRecordingServer()
  client = createGatewayClient({ siteUrl: `${server.url}/site`, secretKey: SK })
})
afterAll(() => server.close())
beforeEach(() => {
  server.reset()
  server.fallback = { status: 200, json: { status: 'success' } }
})

describe('direct interface on the wire', () => {
  const post = (body: Record<string, unknown>) => ({
    method: 'POST',
    path: '/site/services/operation_post',
    body: { encrypted_sk: SK, ...body },
  })
  const cases: {
    name: string
    call: (c: GatewayClient) => Promise<unknown>
    method: string
    path: string
    query?: Record<string, string>
    body?: unknown
  }[] = [
    {
      name: 'phone top-up',
      call: (c) =>
        c.direct.operations.phone({
          amount: 100,
          operator: 'djezzy',
          offer: 'prepaid',
          phone: '0555123456',
        }),
      ...post({ amount: 100, operator: 'djezzy', offer: 'prepaid', phone: '0555123456' }),
    },
    {
      name: 'postpaid phone top-up with a decimal text amount',
      call: (c) =>
        c.direct.operations.phone({
          amount: '250.50',
          operator: 'ooredoo',
          offer: 'postpaid',
          phone: '+213661234567',
        }),
      ...post({ amount: 250.5, operator: 'ooredoo', offer: 'postpaid', phone: '+213661234567' }),
    },
    {
      name: 'IDOOM 4G top-up',
      call: (c) =>
        c.direct.operations.internet({
          amount: 1000,
          operator: 'idoom',
          offer: 'IDOOM 4G 1000',
          phone: '0555123456',
        }),
      ...post({ amount: 1000, operator: 'idoom', offer: 'IDOOM 4G 1000', phone: '0555123456' }),
    },
    {
      name: 'IDOOM ADSL top-up takes its amount and operator from the offer',
      call: (c) => c.direct.operations.internet({ offer: 'IDOOM ADSL 500', phone: '031234567' }),
      ...post({ amount: 500, operator: 'idoom', offer: 'IDOOM ADSL 500', phone: '031234567' }),
    },
    {
      name: 'game top-up with a predefined code',
      call: (c) =>
        c.direct.operations.game({
          amount: 210,
          operator: 'freefire',
          offer: '110',
          playerId: '123456789',
        }),
      ...post({ amount: 210, operator: 'freefire', offer: '110', playerId: '123456789' }),
    },
    {
      name: 'game top-up with a custom offer name',
      call: (c) =>
        c.direct.operations.game({
          amount: 900,
          operator: 'pubg',
          offer: 'Royale Pass',
          playerId: 'P-77',
        }),
      ...post({ amount: 900, operator: 'pubg', offer: 'Royale Pass', playerId: 'P-77' }),
    },
    {
      name: 'ade bill, offer filled in from the operator',
      call: (c) => c.direct.operations.bill({ amount: 1234.56, operator: 'ade', bill: 'ADE-1' }),
      ...post({ amount: 1234.56, operator: 'ade', offer: 'ade', bill: 'ADE-1' }),
    },
    {
      name: 'sonelgaz bill with customerId and ebb',
      call: (c) =>
        c.direct.operations.bill({
          amount: 3000,
          operator: 'sonelgaz',
          offer: 'sonelgaz',
          bill: 'SG-9',
          customerId: 'C-1',
          ebb: 'E-2',
        }),
      ...post({
        amount: 3000,
        operator: 'sonelgaz',
        offer: 'sonelgaz',
        bill: 'SG-9',
        customerId: 'C-1',
        ebb: 'E-2',
      }),
    },
    {
      name: 'algerie_telecom bill with phone',
      call: (c) =>
        c.direct.operations.bill({
          amount: 2000,
          operator: 'algerie_telecom',
          bill: 'AT-3',
          phone: '021234567',
        }),
      ...post({
        amount: 2000,
        operator: 'algerie_telecom',
        offer: 'algerie_telecom',
        bill: 'AT-3',
        phone: '021234567',
      }),
    },
    {
      name: 'operation history',
      call: (c) => c.direct.operations.history({ limit: 5, offset: 10 }),
      method: 'GET',
      path: '/site/services/operation-history/',
      query: { encrypted_sk: SK, limit: '5', offset: '10' },
    },
    {
      name: 'operation history without paging',
      call: (c) => c.direct.operations.history(),
      method: 'GET',
      path: '/site/services/operation-history/',
      query: { encrypted_sk: SK },
    },
    {
      name: 'operation detail',
      call: (c) => c.direct.operations.get('3f1c-a/b'),
      method: 'GET',
      path: '/site/services/operation-detail/3f1c-a%2Fb/',
      query: { encrypted_sk: SK },
    },
    {
      name: 'products without getWithBody fall back to the query string',
      call: (c) => c.direct.products.list({ search: 'free fire' }),
      method: 'GET',
      path: '/site/services/get_products/',
      query: { encrypted_sk: SK, search: 'free fire' },
    },
    {
      name: 'invoice creation',
      call: (c) =>
        c.direct.invoices.create({
          amount: 2500,
          items: [{ description: 'Mug', quantity: 2, unit_price: 1000 }],
          existing_item_ids: [{ item_id: 'item-1', quantity: 1 }],
          status: 'PENDING',
        }),
      method: 'POST',
      path: '/site/merchant/invoices/create/',
      body: {
        encrypted_sk: SK,
        amount: 2500,
        items: [{ description: 'Mug', quantity: 2, unit_price: 1000 }],
        existing_item_ids: [{ item_id: 'item-1', quantity: 1 }],
        status: 'PENDING',
      },
    },
    {
      name: 'invoice update',
      call: (c) =>
        c.direct.invoices.update({
          invoice_id: 'inv-9',
          amount: 3000,
          status: 'PAID',
          items_to_add: [{ description: 'Tea', quantity: 1, unit_price: '500.00' }],
          items_to_remove: ['it-1'],
          items_to_update: [{ item_id: 'it-2', quantity: 3, unit_price: 250 }],
        }),
      method: 'POST',
      path: '/site/merchant/invoices/update/',
      body: {
        encrypted_sk: SK,
        invoice_id: 'inv-9',
        amount: 3000,
        status: 'PAID',
        items_to_add: [{ description: 'Tea', quantity: 1, unit_price: 500 }],
        items_to_remove: ['it-1'],
        items_to_update: [{ item_id: 'it-2', quantity: 3, unit_price: 250 }],
      },
    },
    {
      name: 'invoice list with filters',
      call: (c) => c.direct.invoices.list({ status: 'PAID', page: 2 }),
      method: 'GET',
      path: '/site/merchant/invoices/',
      query: { encrypted_sk: SK, status: 'PAID', page: '2' },
    },
  ]

  it.each(cases)('$name', async ({ call, method, path, query, body }) => {
    await call(client)
    expect(server.requests).toHaveLength(1)
    const req = server.requests[0]!
    expect(req.method).toBe(method)
    expect(req.path).toBe(path)
    expect(req.headers['x-api-key']).toBeUndefined()
    if (body === undefined) {
      expect(req.query).toEqual(query)
      expect(req.body).toBe('')
    } else {
      expect(req.rawQuery).toBe('')
      expect(req.headers['content-type']).toBe('application/json')
      expect(req.json).toEqual(body)
    }
  })

  it('uses the plural operation-details path when configured', async () => {
    const c = createGatewayClient({
      siteUrl: `${server.url}/site`,
      secretKey: SK,
      operationDetailPath: 'operation-details',
    })
    await c.direct.operations.get('op-1')
    expect(server.requests[0]?.path).toBe('/site/services/operation-details/op-1/')
  })

  it('sends the product listing as a JSON body on GET with nodeGetWithBody', async () => {
    server.reply({
      json: { status: 'success', count: '1', products: [{ name: 'PUBG 60', price: 120 }] },
    })
    const c = createGatewayClient({
      siteUrl: `${server.url}/site`,
      secretKey: SK,
      getWithBody: nodeGetWithBody,
    })
    const list = await c.direct.products.list({ search: 'pubg' })
    const req = server.requests[0]!
    expect(req.method).toBe('GET')
    expect(req.path).toBe('/site/services/get_products/')
    expect(req.rawQuery).toBe('')
    expect(req.headers['content-type']).toBe('application/json')
    expect(req.json).toEqual({ encrypted_sk: SK, search: 'pubg' })
    expect(list).toEqual({
      status: 'success',
      count: 1,
      products: [{ name: 'PUBG 60', price: '120' }],
    })
  })

  it('sends only encrypted_sk in the body when no search is given', async () => {
    const c = createGatewayClient({
      siteUrl: server.url,
      secretKey: SK,
      getWithBody: nodeGetWithBody,
    })
    await c.direct.products.list()
    expect(server.requests[0]?.json).toEqual({ encrypted_sk: SK })
  })

  it('passes an RSA-encrypted secret key through unchanged', async () => {
    const encrypted = toBase64(new Uint8Array(256).map((_, i) => (i * 37) % 256))
    const c = createGatewayClient({ siteUrl: server.url, secretKey: encrypted })
    await c.direct.operations.history({ limit: 1 })
    expect(server.requests[0]?.query.encrypted_sk).toBe(encrypted)
  })
})

describe('direct interface answers', () => {
  it('normalises the operation result ids to text', async () => {
    server.reply({
      json: {
        status: 'success',
        message: 'Operation submitted successfully',
        operation_id: 12345,
        transaction_id: 'tx-1',
        transaction_status: 'confirmed',
        queue: 'fast',
      },
    })
    const res = await client.direct.operations.phone({
      amount: 100,
      operator: 'mobilis',
      offer: 'prepaid',
      phone: '0661234567',
    })
    expect(res).toEqual({
      status: 'success',
      message: 'Operation submitted successfully',
      operation_id: '12345',
      transaction_id: 'tx-1',
      transaction_status: 'confirmed',
      queue: 'fast',
    })
  })

  it('reads the history with numbers given as text and keeps unknown fields', async () => {
    server.reply({
      json: {
        status: 'success',
        data: {
          operations: [
            {
              id: 'a1',
              operation_type: 'topup',
              amount: 100,
              status: 'processing',
              status_message: null,
              note: 'kept',
              blockchain_transaction: {
                amount: '100.0000000',
                retry_count: '0',
                max_retries: 3,
                confirmed_at: null,
              },
            },
          ],
          pagination: { total_count: '21', limit: 10, offset: '0', has_more: 'true' },
        },
      },
    })
    const history = await client.direct.operations.history()
    expect(history.data.pagination).toEqual({
      total_count: 21,
      limit: 10,
      offset: 0,
      has_more: true,
    })
    const op = history.data.operations[0]!
    expect(op.amount).toBe('100')
    expect(op.status_message).toBeNull()
    expect(op.note).toBe('kept')
    expect(op.blockchain_transaction).toEqual({
      amount: '100.0000000',
      retry_count: 0,
      max_retries: 3,
      confirmed_at: null,
    })
  })

  it('reads an empty history answer as no operations', async () => {
    server.reply({ json: { status: 'success' } })
    const history = await client.direct.operations.history()
    expect(history.data.operations).toEqual([])
    expect(history.data.pagination).toEqual({})
  })

  it('reads a created invoice with numbers and items', async () => {
    server.reply({
      json: {
        success: true,
        message: 'Invoice created',
        invoice: {
          id: 7,
          amount: '2500.00',
          status: 'PENDING',
          items: [
            { id: 'i1', description: 'Mug', quantity: '2', unit_price: '1000', total_price: 2000 },
          ],
          total_items: '1',
          subtotal: 2000,
        },
      },
    })
    const res = await client.direct.invoices.create({ amount: 2500 })
    expect(res.success).toBe(true)
    expect(res.invoice).toEqual({
      id: '7',
      amount: 2500,
      status: 'PENDING',
      items: [{ id: 'i1', description: 'Mug', quantity: 2, unit_price: 1000, total_price: 2000 }],
      total_items: 1,
      subtotal: 2000,
    })
  })
})

describe('direct interface validation', () => {
  const phone = { amount: 100, operator: 'djezzy', offer: 'prepaid', phone: '0555123456' } as const
  const internet = { amount: 1000, offer: 'IDOOM 4G 1000', phone: '0555123456' } as const
  const game = { amount: 100, operator: 'freefire', offer: '110', playerId: '42' } as const
  const bad = <T>(v: unknown) => v as T
  const rejects: [string, (c: GatewayClient) => Promise<unknown>, string][] = [
    [
      'an unknown phone operator',
      (c) => c.direct.operations.phone({ ...phone, operator: bad('orange') }),
      'operator',
    ],
    [
      'an unknown phone offer',
      (c) => c.direct.operations.phone({ ...phone, offer: bad('monthly') }),
      'offer',
    ],
    [
      'a phone number that is not Algerian',
      (c) => c.direct.operations.phone({ ...phone, phone: '12345' }),
      'phone',
    ],
    [
      'a phone amount with three decimals',
      (c) => c.direct.operations.phone({ ...phone, amount: 1.005 }),
      'amount',
    ],
    [
      'a negative phone amount',
      (c) => c.direct.operations.phone({ ...phone, amount: -5 }),
      'amount',
    ],
    [
      'a game field on a phone top-up',
      (c) => c.direct.operations.phone(bad({ ...phone, playerId: '1' })),
      'playerId',
    ],
    [
      'encrypted_sk given by the caller',
      (c) => c.direct.operations.phone(bad({ ...phone, encrypted_sk: SK })),
      'encrypted_sk',
    ],
    [
      'an internet operator other than idoom',
      (c) => c.direct.operations.internet({ ...internet, operator: bad('djaweb') }),
      'operator',
    ],
    [
      'an offer that is not an IDOOM offer',
      (c) => c.direct.operations.internet({ ...internet, offer: 'FIBRE 1000' }),
      'offer',
    ],
    [
      'an IDOOM amount not offered',
      (c) => c.direct.operations.internet({ offer: 'IDOOM 4G 700', phone: '0555123456' }),
      'offer',
    ],
    [
      'a 9-digit number for IDOOM 4G',
      (c) => c.direct.operations.internet({ ...internet, phone: '031234567' }),
      'phone',
    ],
    [
      'a 10-digit number for IDOOM ADSL',
      (c) => c.direct.operations.internet({ offer: 'IDOOM ADSL 500', phone: '0312345678' }),
      'phone',
    ],
    [
      'an internet amount that differs from the offer',
      (c) => c.direct.operations.internet({ ...internet, amount: 2000 }),
      'amount',
    ],
    [
      'a non-digit internet number',
      (c) => c.direct.operations.internet({ ...internet, phone: '05551234ab' }),
      'phone',
    ],
    [
      'an unknown game',
      (c) => c.direct.operations.game({ ...game, operator: bad('ml') }),
      'operator',
    ],
    [
      'a numeric offer that is not a freefire code',
      (c) => c.direct.operations.game({ ...game, offer: '60' }),
      'offer',
    ],
    [
      'a numeric offer that is not a pubg code',
      (c) => c.direct.operations.game({ ...game, operator: 'pubg', offer: '110' }),
      'offer',
    ],
    ['an empty game offer', (c) => c.direct.operations.game({ ...game, offer: '' }), 'offer'],
    [
      'a missing playerId',
      (c) => c.direct.operations.game(bad({ amount: 100, operator: 'pubg', offer: '60' })),
      'playerId',
    ],
    [
      'player_id instead of playerId',
      (c) =>
        c.direct.operations.game(
          bad({ amount: 100, operator: 'pubg', offer: '60', player_id: '1' }),
        ),
      'player_id',
    ],
    [
      'an unknown biller',
      (c) => c.direct.operations.bill(bad({ amount: 100, operator: 'seaal', bill: 'x' })),
      'operator',
    ],
    [
      'a bill without a bill number',
      (c) => c.direct.operations.bill(bad({ amount: 100, operator: 'ade' })),
      'bill',
    ],
    [
      'a bill offer that differs from the operator',
      (c) =>
        c.direct.operations.bill({ amount: 100, operator: 'ade', offer: 'sonelgaz', bill: 'x' }),
      'offer',
    ],
    [
      'a sonelgaz bill without customerId',
      (c) =>
        c.direct.operations.bill(bad({ amount: 100, operator: 'sonelgaz', bill: 'x', ebb: 'e' })),
      'customerId',
    ],
    [
      'a sonelgaz bill without ebb',
      (c) =>
        c.direct.operations.bill(
          bad({ amount: 100, operator: 'sonelgaz', bill: 'x', customerId: 'c' }),
        ),
      'ebb',
    ],
    [
      'an algerie_telecom bill without phone',
      (c) => c.direct.operations.bill(bad({ amount: 100, operator: 'algerie_telecom', bill: 'x' })),
      'phone',
    ],
    [
      'sonelgaz extras on an ade bill',
      (c) => c.direct.operations.bill(bad({ amount: 100, operator: 'ade', bill: 'x', ebb: 'e' })),
      'ebb',
    ],
    ['a history limit under 1', (c) => c.direct.operations.history({ limit: 0 }), 'limit'],
    ['a negative history offset', (c) => c.direct.operations.history({ offset: -1 }), 'offset'],
    ['an operation id of ..', (c) => c.direct.operations.get('..'), 'id'],
    ['a search that is not text', (c) => c.direct.products.list({ search: bad(5) }), 'search'],
    ['an invoice without amount', (c) => c.direct.invoices.create(bad({ items: [] })), 'amount'],
    [
      'an invoice item without description',
      (c) =>
        c.direct.invoices.create(bad({ amount: 10, items: [{ quantity: 1, unit_price: 10 }] })),
      'items.0.description',
    ],
    [
      'an invoice item with a zero quantity',
      (c) =>
        c.direct.invoices.create({
          amount: 10,
          items: [{ description: 'x', quantity: 0, unit_price: 10 }],
        }),
      'items.0.quantity',
    ],
    [
      'an invoice item with a negative price',
      (c) =>
        c.direct.invoices.create({
          amount: 10,
          items: [{ description: 'x', quantity: 1, unit_price: -1 }],
        }),
      'items.0.unit_price',
    ],
    [
      'an existing item without item_id',
      (c) => c.direct.invoices.create(bad({ amount: 10, existing_item_ids: [{ quantity: 1 }] })),
      'existing_item_ids.0.item_id',
    ],
    [
      'an unknown invoice status',
      (c) => c.direct.invoices.create({ amount: 10, status: bad('OPEN') }),
      'status',
    ],
    [
      'an update without invoice_id',
      (c) => c.direct.invoices.update(bad({ status: 'PAID' })),
      'invoice_id',
    ],
    [
      'an update removing a non-id',
      (c) => c.direct.invoices.update({ invoice_id: 'i', items_to_remove: [bad({})] }),
      'items_to_remove.0',
    ],
    [
      'an update of an item without item_id',
      (c) => c.direct.invoices.update(bad({ invoice_id: 'i', items_to_update: [{ quantity: 1 }] })),
      'items_to_update.0.item_id',
    ],
    [
      'an invoice list filter that is an object',
      (c) => c.direct.invoices.list(bad({ status: {} })),
      'status',
    ],
    [
      'an invoice list filter named encrypted_sk',
      (c) => c.direct.invoices.list({ encrypted_sk: 'x' }),
      '(body)',
    ],
  ]

  it.each(rejects)('rejects %s before sending', async (_name, call, field) => {
    const error = await call(client).then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ValidationError)
    expect(Object.keys((error as ValidationError).fields)).toContain(field)
    expect(server.requests).toHaveLength(0)
  })

  it('rejects a plain seed whose checksum fails, naming encrypted_sk and not its value', async () => {
    const badSeed = corruptKey(SK)
    const c = createGatewayClient({ siteUrl: server.url, secretKey: badSeed })
    const error = await c.direct.operations.history().then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).fields).toHaveProperty('encrypted_sk')
    expect((error as ValidationError).message).not.toContain(badSeed)
    expect(server.requests).toHaveLength(0)
  })

  it('rejects a secret key that is neither a seed nor a ciphertext', async () => {
    const c = createGatewayClient({ siteUrl: server.url, secretKey: 'not-a-key' })
    await expect(c.direct.products.list()).rejects.toBeInstanceOf(ValidationError)
    expect(server.requests).toHaveLength(0)
  })

  it('throws a configuration error for a direct call without secretKey', async () => {
    const c = createGatewayClient({ siteUrl: server.url })
    await expect(c.direct.invoices.list()).rejects.toBeInstanceOf(GatewayConfigurationError)
    await expect(c.direct.operations.history()).rejects.toThrow(/secretKey/)
    expect(server.requests).toHaveLength(0)
  })
})
