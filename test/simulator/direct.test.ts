import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeStrKey } from '../../src/lib/strkey.js'
import { SIMULATOR_MERCHANT_ACCOUNT, SIMULATOR_SECRET_SEED } from '../../src/simulator/index.js'
import {
  fakeClock,
  getWithBody,
  type LooseJson,
  type RunningSimulator,
  startSimulator,
} from './helpers.js'

const clock = fakeClock()
let run: RunningSimulator
const SK = SIMULATOR_SECRET_SEED
// A different, checksum-valid seed: another merchant.
const OTHER_SK = encodeStrKey('secretSeed', new Uint8Array(32).fill(7))
// The default seed with its last character changed: right shape, wrong checksum.
const BAD_CHECKSUM = `${SK.slice(0, -1)}${SK.endsWith('A') ? 'B' : 'A'}`

beforeAll(async () => {
  run = await startSimulator({ clock: clock.now, seed: 'direct' })
})
afterAll(() => run.close())

async function post(path: string, body: unknown) {
  const res = await fetch(`${run.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as LooseJson }
}
async function get(path: string) {
  const res = await fetch(`${run.url}${path}`)
  return { status: res.status, body: (await res.json()) as LooseJson }
}
const operation = (fields: Record<string, unknown>) =>
  post('/services/operation_post', { encrypted_sk: SK, ...fields })

describe('operation_post', () => {
  const accepted: [string, Record<string, unknown>, string][] = [
    [
      'a phone top-up',
      { operator: 'mobilis', offer: 'prepaid', amount: 500, phone: '0661234567' },
      'Operation submitted successfully',
    ],
    [
      'an IDOOM 4G top-up on a 10-digit number',
      { operator: 'idoom', offer: 'IDOOM 4G 2000', amount: 2000, phone: '0661234567' },
      'Internet recharge completed successfully',
    ],
    [
      'an IDOOM ADSL top-up on a 9-digit number',
      { operator: 'idoom', offer: 'IDOOM ADSL 500', amount: 500, phone: '021234567' },
      'Internet recharge completed successfully',
    ],
    [
      'a game top-up with a code',
      { operator: 'freefire', offer: '530', amount: 900, playerId: '123456789' },
      'Game recharge completed successfully',
    ],
    [
      'a game top-up with a custom offer name',
      { operator: 'pubg', offer: 'Royale Pass', amount: 1500, playerId: 'p-1' },
      'Game recharge completed successfully',
    ],
    [
      'an ADE bill',
      { operator: 'ade', offer: 'ade', amount: 1234.5, bill: 'ADE-778' },
      'Bill payment completed successfully',
    ],
    [
      'a Sonelgaz bill',
      {
        operator: 'sonelgaz',
        offer: 'sonelgaz',
        amount: 3000,
        bill: 'B1',
        customerId: 'C1',
        ebb: 'E1',
      },
      'Bill payment completed successfully',
    ],
    [
      'an Algérie Télécom bill',
      {
        operator: 'algerie_telecom',
        offer: 'algerie_telecom',
        amount: 2500,
        bill: 'AT-1',
        phone: '021234567',
      },
      'Bill payment completed successfully',
    ],
  ]
  for (const [what, fields, message] of accepted) {
    it(`accepts ${what} with its success body`, async () => {
      const res = await operation(fields)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        status: 'success',
        message,
        operation_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        transaction_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        transaction_status: 'confirmed',
      })
    })
  }

  const refused: [string, Record<string, unknown>, RegExp][] = [
    ['a missing amount', { operator: 'mobilis', offer: 'prepaid', phone: '0661234567' }, /amount/],
    [
      'an unknown operator',
      { operator: 'nokia', offer: 'prepaid', amount: 100, phone: '0661234567' },
      /operator must be one of/,
    ],
    [
      'a phone offer other than prepaid/postpaid',
      { operator: 'djezzy', offer: 'gold', amount: 100, phone: '0661234567' },
      /prepaid or postpaid/,
    ],
    [
      'a phone top-up without phone',
      { operator: 'ooredoo', offer: 'postpaid', amount: 100 },
      /phone is required/,
    ],
    [
      'an IDOOM amount outside the list',
      { operator: 'idoom', offer: 'IDOOM 4G 700', amount: 700, phone: '0661234567' },
      /IDOOM 4G/,
    ],
    [
      'an IDOOM amount that differs from the offer',
      { operator: 'idoom', offer: 'IDOOM 4G 1000', amount: 500, phone: '0661234567' },
      /amount must be 1000/,
    ],
    [
      'IDOOM 4G on a 9-digit number',
      { operator: 'idoom', offer: 'IDOOM 4G 1000', amount: 1000, phone: '021234567' },
      /10 digits/,
    ],
    [
      'IDOOM ADSL on a 10-digit number',
      { operator: 'idoom', offer: 'IDOOM ADSL 1000', amount: 1000, phone: '0661234567' },
      /9 digits/,
    ],
    [
      'an unknown game code',
      { operator: 'pubg', offer: '999', amount: 100, playerId: 'x' },
      /60, 325, 660/,
    ],
    [
      'a game top-up without playerId',
      { operator: 'freefire', offer: '110', amount: 200 },
      /playerId is required/,
    ],
    [
      'a bill whose offer is not its operator',
      { operator: 'ade', offer: 'sonelgaz', amount: 100, bill: 'x' },
      /offer must be ade/,
    ],
    ['a bill without bill', { operator: 'ade', offer: 'ade', amount: 100 }, /bill is required/],
    [
      'a Sonelgaz bill without customerId',
      { operator: 'sonelgaz', offer: 'sonelgaz', amount: 100, bill: 'x', ebb: 'e' },
      /customerId/,
    ],
    [
      'a Sonelgaz bill without ebb',
      { operator: 'sonelgaz', offer: 'sonelgaz', amount: 100, bill: 'x', customerId: 'c' },
      /ebb/,
    ],
    [
      'an Algérie Télécom bill without phone',
      { operator: 'algerie_telecom', offer: 'algerie_telecom', amount: 100, bill: 'x' },
      /phone is required/,
    ],
  ]
  for (const [what, fields, message] of refused) {
    it(`refuses ${what} with a 400 naming the rule`, async () => {
      const res = await operation(fields)
      expect(res.status).toBe(400)
      expect(res.body.status).toBe('error')
      expect(res.body.message).toMatch(message)
    })
  }

  it('refuses a bad secret key and a body that is not JSON', async () => {
    expect(
      (await post('/services/operation_post', { encrypted_sk: 'nope', operator: 'ade' })).body
        .message,
    ).toBe('Invalid secret key format')
    expect(
      (await post('/services/operation_post', { encrypted_sk: BAD_CHECKSUM })).body.message,
    ).toBe('Invalid secret key')
    expect((await post('/services/operation_post', '{oops')).body.message).toBe('Invalid JSON')
  })
})

describe('get_products', () => {
  const url = () => `${run.url}/services/get_products/`

  it('reads the JSON body of the GET and filters by search', async () => {
    const res = await getWithBody(url(), JSON.stringify({ encrypted_sk: SK, search: 'idoom 4g' }))
    expect(res.status).toBe(200)
    const body = res.json as {
      status: string
      count: number
      products: { name: string; price: string }[]
    }
    expect(body.status).toBe('success')
    expect(body.count).toBe(6)
    expect(body.products[0]).toEqual({ name: 'IDOOM 4G 500', price: '500.00' })
  })

  it('lists every available product without search, prices as text, unavailable ones left out', async () => {
    const res = await getWithBody(url(), JSON.stringify({ encrypted_sk: SK }))
    const body = res.json as { count: number; products: { name: string; price: unknown }[] }
    expect(body.count).toBe(body.products.length)
    expect(body.products.every((p) => typeof p.price === 'string')).toBe(true)
    expect(body.products.some((p) => p.name === 'Djaweb 2000')).toBe(false)
  })

  it('falls back to the query string, as WHATWG fetch cannot send a body on GET', async () => {
    const res = await get(`/services/get_products/?encrypted_sk=${SK}&search=PUBG`)
    expect(res.status).toBe(200)
    expect(res.body.count).toBe(3)
  })

  it('gives the four documented 400 bodies', async () => {
    expect(await getWithBody(url(), '{not json')).toEqual({
      status: 400,
      json: { status: 'error', message: 'Invalid JSON' },
    })
    expect((await getWithBody(url(), JSON.stringify({ search: 'x' }))).json).toMatchObject({
      message: 'encrypted_sk is required',
    })
    expect(
      (await getWithBody(url(), JSON.stringify({ encrypted_sk: BAD_CHECKSUM }))).json,
    ).toMatchObject({ message: 'Invalid secret key' })
    expect(
      (await getWithBody(url(), JSON.stringify({ encrypted_sk: 'SHORT' }))).json,
    ).toMatchObject({ message: 'Invalid secret key format' })
    expect((await get('/services/get_products/')).status).toBe(400)
  })

  it('answers 500 "Error fetching products: …" under a 500 fault', async () => {
    run.sim.faults.set({ endpoints: { get_products: { status5xx: 500, times: 1 } } })
    const res = await get(`/services/get_products/?encrypted_sk=${SK}`)
    expect(res.status).toBe(500)
    expect(res.body.message).toMatch(/^Error fetching products: /)
  })
})

describe('operation history and detail', () => {
  it('pages the merchant’s operations newest first with the pagination object', async () => {
    const fresh = encodeStrKey('secretSeed', new Uint8Array(32).fill(9))
    for (const amount of [100, 200, 300]) {
      await post('/services/operation_post', {
        encrypted_sk: fresh,
        operator: 'djezzy',
        offer: 'prepaid',
        amount,
        phone: '0771234567',
      })
      clock.advance(1000)
    }
    const page = await get(`/services/operation-history/?encrypted_sk=${fresh}&limit=2&offset=0`)
    expect(page.status).toBe(200)
    expect(page.body.status).toBe('success')
    expect(page.body.data.pagination).toEqual({
      total_count: 3,
      limit: 2,
      offset: 0,
      has_more: true,
    })
    expect(page.body.data.operations.map((op: { amount: string }) => op.amount)).toEqual([
      '300.00',
      '200.00',
    ])
    const last = await get(`/services/operation-history/?encrypted_sk=${fresh}&limit=2&offset=2`)
    expect(last.body.data.pagination).toEqual({
      total_count: 3,
      limit: 2,
      offset: 2,
      has_more: false,
    })
    const op = last.body.data.operations[0]
    expect(op).toMatchObject({
      operation_type: 'topup',
      phone: '0771234567',
      operator: 'djezzy',
      amount: '100.00',
      offer: 'prepaid',
    })
    expect(op.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/)
    expect(op.blockchain_transaction).toMatchObject({
      amount: '100.0000000',
      asset_code: 'DZD',
      status: 'confirmed',
      max_retries: 3,
      retry_count: 0,
    })
    expect(op.blockchain_transaction.source_account).toMatch(/^G[A-Z2-7]{55}$/)
    expect(op.blockchain_transaction.source_account).not.toBe(SIMULATOR_MERCHANT_ACCOUNT)
  })

  it('defaults limit to 10, and moves an operation from processing to completed with time', async () => {
    const res = await get(`/services/operation-history/?encrypted_sk=${OTHER_SK}`)
    expect(res.body.data.pagination.limit).toBe(10)
    const created = await operation({
      operator: 'mobilis',
      offer: 'prepaid',
      amount: 100,
      phone: '0661234567',
    })
    const id = created.body.operation_id
    expect(
      (await get(`/services/operation-detail/${id}/?encrypted_sk=${SK}`)).body.data.status,
    ).toBe('processing')
    clock.advance(60_000)
    expect(
      (await get(`/services/operation-detail/${id}/?encrypted_sk=${SK}`)).body.data.status,
    ).toBe('completed')
  })

  it('answers the detail on the singular and plural paths, 404 for an unknown or foreign id', async () => {
    const { body } = await operation({ operator: 'ade', offer: 'ade', amount: 100, bill: 'b' })
    const one = await get(`/services/operation-detail/${body.operation_id}/?encrypted_sk=${SK}`)
    const two = await get(`/services/operation-details/${body.operation_id}/?encrypted_sk=${SK}`)
    expect(one.status).toBe(200)
    expect(one.body.data.id).toBe(body.operation_id)
    expect(two.body).toEqual(one.body)
    expect((await get(`/services/operation-detail/nope/?encrypted_sk=${SK}`)).status).toBe(404)
    expect(
      (await get(`/services/operation-detail/${body.operation_id}/?encrypted_sk=${OTHER_SK}`))
        .status,
    ).toBe(404)
  })

  it('refuses a history without key or with a bad limit', async () => {
    expect((await get('/services/operation-history/')).body.message).toBe(
      'encrypted_sk is required',
    )
    expect((await get(`/services/operation-history/?encrypted_sk=${SK}&limit=0`)).status).toBe(400)
    expect((await get(`/services/operation-history/?encrypted_sk=${SK}&offset=-1`)).status).toBe(
      400,
    )
  })
})

describe('merchant invoices', () => {
  it('creates an invoice from free items and catalog items, with totals', async () => {
    const res = await post('/merchant/invoices/create/', {
      encrypted_sk: SK,
      amount: 6799.5,
      items: [{ description: 'Tajine pot', quantity: 2, unit_price: 1500 }],
      existing_item_ids: [{ item_id: 'item-003', quantity: 3 }],
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ success: true, message: 'Invoice created successfully' })
    const invoice = res.body.invoice
    expect(invoice).toMatchObject({
      amount: 6799.5,
      status: 'PENDING',
      total_items: 2,
      subtotal: 6898.5,
    })
    expect(invoice.items[0]).toMatchObject({
      description: 'Tajine pot',
      quantity: 2,
      unit_price: 1500,
      total_price: 3000,
    })
    expect(invoice.items[1]).toMatchObject({
      item_id: 'item-003',
      name: 'Handmade basket',
      quantity: 3,
      unit_price: 1299.5,
      total_price: 3898.5,
    })
    expect(invoice.items[1]).not.toHaveProperty('description')
  })

  it('updates items, amount and status', async () => {
    const created = await post('/merchant/invoices/create/', {
      encrypted_sk: SK,
      amount: 500,
      items: [
        { description: 'A', quantity: 1, unit_price: 200 },
        { description: 'B', quantity: 1, unit_price: 300 },
      ],
    })
    const [a, b] = created.body.invoice.items
    const updated = await post('/merchant/invoices/update/', {
      encrypted_sk: SK,
      invoice_id: created.body.invoice.id,
      items_to_remove: [a.id],
      items_to_update: [{ item_id: b.id, quantity: 2 }],
      items_to_add: [{ description: 'C', quantity: 1, unit_price: 50 }],
      status: 'CANCELLED',
    })
    expect(updated.status).toBe(200)
    expect(updated.body.invoice).toMatchObject({
      amount: 650,
      subtotal: 650,
      status: 'CANCELLED',
      total_items: 2,
    })
  })

  it('lists the merchant’s invoices with a status filter and paging, not other merchants’', async () => {
    await post('/merchant/invoices/create/', {
      encrypted_sk: OTHER_SK,
      amount: 100,
      status: 'PAID',
    })
    const mine = await get(`/merchant/invoices/?encrypted_sk=${OTHER_SK}`)
    expect(mine.body).toMatchObject({ success: true, count: 1, pagination: { total_count: 1 } })
    const paid = await get(`/merchant/invoices/?encrypted_sk=${SK}&status=PAID`)
    expect(paid.body.count).toBe(0)
    const cancelled = await get(`/merchant/invoices/?encrypted_sk=${SK}&status=CANCELLED&limit=1`)
    expect(cancelled.body.invoices).toHaveLength(1)
  })

  it('answers errors under the key `error`: bad key, bad field, unknown item (404), unknown invoice (404)', async () => {
    const badKey = await post('/merchant/invoices/create/', {
      encrypted_sk: BAD_CHECKSUM,
      amount: 100,
    })
    expect(badKey).toEqual({ status: 400, body: { error: 'Invalid secret key' } })
    const badQuantity = await post('/merchant/invoices/create/', {
      encrypted_sk: SK,
      amount: 100,
      items: [{ description: 'x', quantity: 0, unit_price: 1 }],
    })
    expect(badQuantity.status).toBe(400)
    expect(badQuantity.body.error).toMatch(/^items\.0\.quantity/)
    const missing = await post('/merchant/invoices/create/', { encrypted_sk: SK })
    expect(missing.body.error).toBe('amount: is required')
    const unknownItem = await post('/merchant/invoices/create/', {
      encrypted_sk: SK,
      amount: 1,
      existing_item_ids: [{ item_id: 'item-999', quantity: 1 }],
    })
    expect(unknownItem).toEqual({ status: 404, body: { error: 'Item not found: item-999' } })
    const unknownInvoice = await post('/merchant/invoices/update/', {
      encrypted_sk: SK,
      invoice_id: 'nope',
      status: 'PAID',
    })
    expect(unknownInvoice.status).toBe(404)
    expect((await get('/merchant/invoices/?encrypted_sk=bad')).body.error).toBe(
      'Invalid secret key format',
    )
  })

  it('marks an invoice PAID when a card payment linked to it is approved', async () => {
    const created = await post('/merchant/invoices/create/', { encrypted_sk: SK, amount: 1500 })
    const id = created.body.invoice.id
    const query = new URLSearchParams({
      account: SIMULATOR_MERCHANT_ACCOUNT,
      amount: '1500',
      full_name: 'A',
      phone: '1',
      email: 'a@b.dz',
      redirect: 'no',
      invoice_id: id,
    })
    const tx = (await get(`/make-cib-transaction/?${query}`)).body
    await run.sim.completePayment(String(tx.cib_transaction_id), 'approved')
    const list = await get(`/merchant/invoices/?encrypted_sk=${SK}&status=PAID`)
    expect(list.body.invoices.map((inv: { id: string }) => inv.id)).toContain(id)
  })
})
