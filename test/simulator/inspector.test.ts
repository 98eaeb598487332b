import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  SIMULATOR_MERCHANT_ACCOUNT,
  SIMULATOR_PUBLIC_KEY_PEM,
  SIMULATOR_SECRET_SEED,
} from '../../src/simulator/index.js'
import {
  type LooseJson,
  type RunningSimulator,
  startReceiver,
  startSimulator,
  type WebhookReceiver,
} from './helpers.js'

let run: RunningSimulator
let receiver: WebhookReceiver
beforeAll(async () => {
  receiver = await startReceiver()
  run = await startSimulator({ webhookRetryDelaysMs: [] })
  receiver.answers.push(418)
  const query = new URLSearchParams({
    account: SIMULATOR_MERCHANT_ACCOUNT,
    amount: '75',
    full_name: 'A',
    phone: '1',
    email: 'a@b.dz',
    webhook_url: receiver.url,
    redirect: 'no',
  })
  const created = (await (await fetch(`${run.url}/make-cib-transaction/?${query}`)).json()) as {
    cib_transaction_id: number
  }
  await run.sim.completePayment(String(created.cib_transaction_id), 'insufficient_funds')
  await run.sim.flush()
  await fetch(`${run.url}/services/operation_post`, {
    method: 'POST',
    body: JSON.stringify({
      encrypted_sk: SIMULATOR_SECRET_SEED,
      operator: 'ade',
      offer: 'ade',
      amount: 10,
      bill: 'b',
    }),
  })
  await fetch(`${run.url}/merchant/invoices/create/`, {
    method: 'POST',
    body: JSON.stringify({ encrypted_sk: SIMULATOR_SECRET_SEED, amount: 10 }),
  })
})
afterAll(async () => {
  await run.close()
  await receiver.close()
})

const json = async (name: string) =>
  (await (await fetch(`${run.url}/_inspect/${name}.json`)).json()) as LooseJson[]

describe('the inspector', () => {
  it('lists transactions with their outcome and check answer', async () => {
    const [tx] = await json('transactions')
    expect(tx).toMatchObject({
      amount: '75.00',
      outcome: 'insufficient_funds',
      step: 'done',
      check: { actionCode: 116 },
    })
  })

  it('lists webhook deliveries with the receiver’s status and body', async () => {
    const [delivery] = await json('webhooks')
    expect(delivery).toMatchObject({
      state: 'failed',
      url: receiver.url,
      attempts: [{ status: 418, body: 'refused with 418' }],
    })
    expect(delivery!.payload).toMatchObject({ event: 'cib.payment.updated', action_code: 116 })
  })

  it('lists operations and invoices, never the secret seed', async () => {
    const operations = await json('operations')
    const invoices = await json('invoices')
    expect(operations).toHaveLength(1)
    expect(invoices).toHaveLength(1)
    const page = await (await fetch(`${run.url}/_inspect`)).text()
    for (const text of [JSON.stringify(operations), JSON.stringify(invoices), page])
      expect(text).not.toContain(SIMULATOR_SECRET_SEED)
  })

  it('renders a page with a table per kind and the receiver’s answers', async () => {
    const res = await fetch(`${run.url}/_inspect`)
    expect(res.headers.get('content-type')).toMatch(/text\/html/)
    const page = await res.text()
    for (const caption of ['Card transactions', 'Webhook deliveries', 'Operations', 'Invoices'])
      expect(page).toContain(`<caption>${caption}</caption>`)
    expect(page).toContain('refused with 418')
  })

  it('serves its public key at a fixed path', async () => {
    const res = await fetch(`${run.url}/gateway-public-key.pem`)
    expect(await res.text()).toBe(SIMULATOR_PUBLIC_KEY_PEM)
    expect(run.sim.urls.publicKeyUrl).toBe(`${run.url}/gateway-public-key.pem`)
  })
})
