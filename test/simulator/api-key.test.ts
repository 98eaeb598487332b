import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyGatewaySignature } from '../../src/client/index.js'
import {
  SIMULATOR_API_KEY,
  SIMULATOR_MERCHANT_ACCOUNT,
  SIMULATOR_PUBLIC_KEY_PEM,
} from '../../src/simulator/index.js'
import { fakeClock, type LooseJson, type RunningSimulator, startSimulator } from './helpers.js'

const clock = fakeClock(Date.parse('2025-03-01T10:00:00Z'))
let run: RunningSimulator
let api: string

beforeAll(async () => {
  run = await startSimulator({ clock: clock.now })
  api = `${run.url}/api/v1`
})
afterAll(() => run.close())

async function call(
  method: string,
  path: string,
  body?: unknown,
  key: string | null = SIMULATOR_API_KEY,
) {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (key !== null) headers['x-api-key'] = key
  const res = await fetch(`${api}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as LooseJson }
}

describe('the API-key interface', () => {
  const endpoints: [string, string][] = [
    ['POST', '/recharge/phone'],
    ['POST', '/recharge/internet'],
    ['POST', '/recharge/game'],
    ['POST', '/cib/transaction'],
    ['POST', '/cib/transaction/check'],
    ['POST', '/bills/pay'],
    ['GET', '/operations'],
    ['GET', '/operations/abc'],
    ['GET', '/products'],
    ['GET', '/merchant/invoices'],
    ['POST', '/merchant/invoices'],
  ]
  for (const [method, path] of endpoints) {
    it(`answers 401 on ${method} ${path} without a key or with a wrong one`, async () => {
      const missing = await call(method, path, method === 'POST' ? {} : undefined, null)
      expect(missing.status).toBe(401)
      expect(missing.body).toMatchObject({ success: false, code: 'unauthorized' })
      expect((await call(method, path, method === 'POST' ? {} : undefined, 'wrong')).status).toBe(
        401,
      )
    })
  }

  it('recharges a phone and answers an OperationResponse', async () => {
    const res = await call('POST', '/recharge/phone', {
      phone_number: '0551234567',
      operator: 'mobilis',
      amount: 500,
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      success: true,
      status: 'processing',
      data: { type: 'phone', amount: '500.00', operator: 'mobilis' },
    })
    expect(res.body.operation_id).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('refuses a bad phone recharge with a 400 Error body naming the field', async () => {
    for (const [body, field] of [
      [{ phone_number: '055123456', operator: 'mobilis', amount: 500 }, 'phone_number'],
      [{ phone_number: '0551234567', operator: 'nokia', amount: 500 }, 'operator'],
      [{ phone_number: '0551234567', operator: 'djezzy', amount: 10.5 }, 'amount'],
      [{ operator: 'djezzy', amount: 100 }, 'phone_number'],
    ] as const) {
      const res = await call('POST', '/recharge/phone', body)
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ success: false, code: 'invalid_request' })
      expect(res.body.error).toMatch(new RegExp(`^${field}`))
    }
    const notJson = await fetch(`${api}/recharge/phone`, {
      method: 'POST',
      headers: { 'x-api-key': SIMULATOR_API_KEY },
      body: '{',
    })
    expect(notJson.status).toBe(400)
  })

  it('recharges internet from a catalog package, refusing another provider’s package', async () => {
    const ok = await call('POST', '/recharge/internet', {
      subscription_number: '0661234567',
      provider: 'idoom_4g',
      package_id: 'idoom_4g_1000',
    })
    expect(ok.status).toBe(200)
    expect(ok.body.data).toMatchObject({ type: 'internet', amount: '1000.00' })
    const wrong = await call('POST', '/recharge/internet', {
      subscription_number: '021234567',
      provider: 'idoom_adsl',
      package_id: 'idoom_4g_1000',
    })
    expect(wrong.status).toBe(400)
    expect(wrong.body.error).toMatch(/^package_id/)
    const digits = await call('POST', '/recharge/internet', {
      subscription_number: '0661234567',
      provider: 'idoom_adsl',
      package_id: 'idoom_adsl_500',
    })
    expect(digits.body.error).toMatch(/9 digits/)
  })

  it('buys game credit from a catalog product of that game only', async () => {
    const ok = await call('POST', '/recharge/game', {
      game_id: 'pubg',
      product_id: 'pubg_325',
      player_id: '5123',
    })
    expect(ok.status).toBe(200)
    expect(ok.body.data).toMatchObject({ type: 'game', amount: '850.00' })
    expect(
      (
        await call('POST', '/recharge/game', {
          game_id: 'freefire',
          product_id: 'pubg_325',
          player_id: '5',
        })
      ).status,
    ).toBe(400)
    expect(
      (await call('POST', '/recharge/game', { game_id: 'pubg', product_id: 'pubg_325' })).body
        .error,
    ).toBe('player_id: is required')
  })

  it('pays a bill', async () => {
    const ok = await call('POST', '/bills/pay', {
      biller: 'sonelgaz',
      bill_number: 'SG-99',
      amount: 4321.1,
    })
    expect(ok.status).toBe(200)
    expect(ok.body.data).toMatchObject({ type: 'bill', amount: '4321.10' })
    expect(
      (await call('POST', '/bills/pay', { biller: 'gas', bill_number: 'x', amount: 1 })).status,
    ).toBe(400)
  })

  it('lists operations with paging and the type and date filters, and reads one, 404 when unknown', async () => {
    clock.advance(86_400_000) // 2025-03-02
    const later = await call('POST', '/recharge/phone', {
      phone_number: '0771234567',
      operator: 'djezzy',
      amount: 100,
    })
    const all = await call('GET', '/operations?per_page=2')
    expect(all.status).toBe(200)
    expect(all.body.pagination).toEqual({ page: 1, per_page: 2, total: 5, total_pages: 3 })
    expect(all.body.data[0].id).toBe(later.body.operation_id)
    const page3 = await call('GET', '/operations?per_page=2&page=3')
    expect(page3.body.data).toHaveLength(1)
    const phones = await call('GET', '/operations?type=phone')
    expect(phones.body.data.map((op: { type: string }) => op.type)).toEqual(['phone', 'phone'])
    const firstDay = await call('GET', '/operations?from=2025-03-01&to=2025-03-01')
    expect(firstDay.body.pagination.total).toBe(4)
    const secondDay = await call('GET', '/operations?from=2025-03-02')
    expect(secondDay.body.data.map((op: { id: string }) => op.id)).toEqual([
      later.body.operation_id,
    ])
    for (const bad of [
      'type=card',
      'from=2025-02-30',
      'to=yesterday',
      'page=0',
      'per_page=101',
      'from=2025-03-02&to=2025-03-01',
    ])
      expect((await call('GET', `/operations?${bad}`)).status).toBe(400)

    const one = await call('GET', `/operations/${later.body.operation_id}`)
    expect(one.body).toMatchObject({
      success: true,
      data: { id: later.body.operation_id, type: 'phone' },
    })
    const missing = await call('GET', '/operations/not-an-operation')
    expect(missing.status).toBe(404)
    expect(missing.body.code).toBe('not_found')
  })

  it('starts a card payment, lists it as a cib operation and checks it by order number or order id', async () => {
    const created = await call('POST', '/cib/transaction', {
      amount: 2500,
      currency: 'DZD',
      order_id: 'ORD-1',
      return_url: 'https://shop.test/r?o=ORD-1',
      description: 'Basket',
    })
    expect(created.status).toBe(200)
    expect(created.body).toMatchObject({
      success: true,
      order_id: 'ORD-1',
      amount: '2500.00',
      currency: 'DZD',
    })
    expect(created.body.redirect_url).toMatch(new RegExp(`^${run.url}/pay/`))
    const check = await call('POST', '/cib/transaction/check', {
      order_number: created.body.order_number,
    })
    expect(check.body).toMatchObject({
      orderStatus: 0,
      destination_account: SIMULATOR_MERCHANT_ACCOUNT,
      Amount: 250000,
    })
    const tx = await run.sim.completePayment(created.body.order_number, 'approved')
    expect(
      await verifyGatewaySignature(
        new URL(tx!.returnRedirect!).searchParams.get('message')!,
        new URL(tx!.returnRedirect!).searchParams.get('signature')!,
        SIMULATOR_PUBLIC_KEY_PEM,
      ),
    ).toBe(true)
    expect(
      (await call('POST', '/cib/transaction/check', { order_id: 'ORD-1' })).body,
    ).toMatchObject({ orderStatus: 2, respCode: '00' })
    const cib = await call('GET', '/operations?type=cib')
    expect(cib.body.data[0]).toMatchObject({
      type: 'cib',
      status: 'completed',
      details: { order_id: 'ORD-1' },
    })
    expect((await call('GET', `/operations/${created.body.transaction_id}`)).body.data.type).toBe(
      'cib',
    )
  })

  it('refuses a bad card transaction and an unknown check', async () => {
    const base = {
      amount: 2500,
      currency: 'DZD',
      order_id: 'ORD-2',
      return_url: 'https://shop.test/r',
    }
    expect(
      (await call('POST', '/cib/transaction', { ...base, currency: 'EUR' })).body.error,
    ).toMatch(/^currency/)
    expect((await call('POST', '/cib/transaction', { ...base, amount: 20 })).body.error).toMatch(
      /^amount/,
    )
    expect(
      (await call('POST', '/cib/transaction', { ...base, return_url: 'ftp://x' })).body.error,
    ).toMatch(/^return_url/)
    expect(
      (await call('POST', '/cib/transaction', { ...base, order_id: undefined })).body.error,
    ).toBe('order_id: is required')
    await call('POST', '/cib/transaction', base)
    expect((await call('POST', '/cib/transaction', base)).body.error).toMatch(/already been used/)
    expect((await call('POST', '/cib/transaction/check', { order_number: '1' })).status).toBe(404)
    expect((await call('POST', '/cib/transaction/check', {})).status).toBe(400)
  })

  it('lists products by category and refuses an unknown category', async () => {
    const all = await call('GET', '/products')
    expect(all.body.count).toBe(all.body.data.length)
    const games = await call('GET', '/products?category=game')
    expect(games.body.data.every((p: { category: string }) => p.category === 'game')).toBe(true)
    expect(games.body.data[0]).toMatchObject({ id: 'freefire_110', price: '200.00' })
    expect((await call('GET', '/products?category=food')).status).toBe(400)
  })

  it('creates an invoice with 201 and lists it', async () => {
    const created = await call('POST', '/merchant/invoices', {
      amount: 1000,
      items: [{ description: 'Cake', quantity: 2, unit_price: 500 }],
    })
    expect(created.status).toBe(201)
    expect(created.body.data).toMatchObject({ amount: 1000, subtotal: 1000, status: 'PENDING' })
    const list = await call('GET', '/merchant/invoices')
    expect(list.body.data.map((inv: { id: string }) => inv.id)).toContain(created.body.data.id)
    expect((await call('POST', '/merchant/invoices', { items: [] })).status).toBe(400)
  })
})
