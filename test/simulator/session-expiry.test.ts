import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SIMULATOR_MERCHANT_ACCOUNT } from '../../src/simulator/index.js'
import {
  fakeClock,
  type RunningSimulator,
  startReceiver,
  startSimulator,
  type WebhookReceiver,
} from './helpers.js'

const clock = fakeClock()
let run: RunningSimulator
let receiver: WebhookReceiver

beforeAll(async () => {
  receiver = await startReceiver()
  run = await startSimulator({ clock: clock.now, sessionTtlMs: 5 * 60_000 })
})
afterAll(async () => {
  await run.close()
  await receiver.close()
})

async function create() {
  const query = new URLSearchParams({
    account: SIMULATOR_MERCHANT_ACCOUNT,
    amount: '2000.5',
    full_name: 'Karim',
    phone: '0555123456',
    email: 'k@example.dz',
    return_url: 'http://shop.test/back',
    webhook_url: receiver.url,
    redirect: 'no',
    keep_return_url: 'True',
  })
  return (await (await fetch(`${run.url}/make-cib-transaction/?${query}`)).json()) as {
    cib_transaction_id: number
    payment_url: string
  }
}

describe('card-page session expiry by the clock', () => {
  it('stays unpaid until the session time is up, then answers -2007 and sends the failed webhook', async () => {
    const tx = await create()
    clock.advance(5 * 60_000 - 1)
    let check = await (
      await fetch(`${run.url}/cib-transaction-check/?order_number=${tx.cib_transaction_id}`)
    ).json()
    expect(check).toMatchObject({ orderStatus: 0 })

    clock.advance(1)
    check = await (
      await fetch(`${run.url}/cib-transaction-check/?order_number=${tx.cib_transaction_id}`)
    ).json()
    expect(check).toMatchObject({ orderStatus: 6, actionCode: -2007, Amount: 200050 })
    await run.sim.flush()
    const event = JSON.parse(receiver.received.at(-1)!.body)
    expect(event).toMatchObject({
      payment_status: 'failed',
      action_code: -2007,
      message: 'failed2000.5',
    })
  })

  it('shows the expired result on the card page and refuses the card afterwards', async () => {
    const tx = await create()
    clock.advance(10 * 60_000)
    const page = await (await fetch(`${tx.payment_url}?lang=en`)).text()
    expect(page).toContain('Payment session expired')
    expect(page).toContain('http://shop.test/back?payment_status=expired')
    const post = await fetch(`${tx.payment_url}/card`, {
      method: 'POST',
      body: new URLSearchParams({ pan: '6280580000000009', expiry: '12/30', cvv: '123' }),
      redirect: 'manual',
    })
    expect(post.status).toBe(303)
    const check = await (
      await fetch(`${run.url}/cib-transaction-check/?order_number=${tx.cib_transaction_id}`)
    ).json()
    expect(check).toMatchObject({ actionCode: -2007 })
  })
})
