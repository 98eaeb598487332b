/**
 * A card payment's query carries the customer's name, phone and e-mail: however its creation
 * fails, the error names the request by its URL without the query and quotes none of them.
 */
import { createServer } from 'node:net'
import { inspect } from 'node:util'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  type CardPaymentParams,
  createGatewayClient,
  GatewayApiError,
  type GatewayClientOptions,
  GatewayConnectionError,
  GatewayError,
  GatewayServerError,
  GatewayTimeoutError,
} from '../../src/client/index.js'
import {
  type RecordingServer,
  startRecordingServer,
  TEST_ACCOUNT,
} from './helpers/recording-server.js'

const NAME = 'Amina Benali'
const PHONE = '+213555123456'
const EMAIL = 'amina@example.dz'
const params: CardPaymentParams = {
  account: TEST_ACCOUNT,
  amount: 1500,
  full_name: NAME,
  phone: PHONE,
  email: EMAIL,
  return_url: 'https://shop.example/r/abc',
}
/** Each personal value as written and as it travels in a query. */
const PERSONAL = [NAME, PHONE, EMAIL].flatMap((v) => [v, encodeURIComponent(v)])

let server: RecordingServer
beforeAll(async () => {
  server = await startRecordingServer()
})
afterAll(() => server.close())
beforeEach(() => server.reset())

/** The error card.create fails with, and everything a log or a serialiser could take from it. */
async function failure(options: GatewayClientOptions = {}) {
  const client = createGatewayClient({ siteUrl: `${server.url}/site`, maxRetries: 0, ...options })
  const error = await client.card.create(params).then(
    () => {
      throw new Error('card.create succeeded')
    },
    (e: unknown) => e as GatewayError,
  )
  expect(error).toBeInstanceOf(GatewayError)
  const text = [
    error.message,
    String(error.stack),
    JSON.stringify(error),
    inspect(error, { depth: 5 }),
    String(error.cause),
  ].join('\n')
  return { error, text }
}

function expectNoPersonalData(text: string) {
  for (const value of PERSONAL) expect(text).not.toContain(value)
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as { port: number }
  await new Promise((resolve) => probe.close(resolve))
  return port
}

describe('card.create errors and the customer', () => {
  it('name a 5xx by the URL without its query, and scrub an echo of the customer', async () => {
    server.fallback = { status: 503, json: { message: `busy, cannot pay for ${NAME} <${EMAIL}>` } }
    const { error, text } = await failure()
    expect(error).toBeInstanceOf(GatewayServerError)
    expect(error.request?.url).toBe(`${server.url}/site/make-cib-transaction/`)
    expect(error.message).toContain(
      `GET ${server.url}/site/make-cib-transaction/: busy, cannot pay for [redacted] <[redacted]>`,
    )
    expectNoPersonalData(text)
    expectNoPersonalData(JSON.stringify((error as GatewayApiError).body))
  })

  it('scrub a refusal that quotes the e-mail and phone', async () => {
    server.fallback = {
      status: 200,
      json: { success: false, message: `invalid email ${EMAIL} or phone ${PHONE}` },
    }
    const { error, text } = await failure()
    expect(error).toBeInstanceOf(GatewayApiError)
    expect(error.message).toContain('invalid email [redacted] or phone [redacted]')
    expectNoPersonalData(text)
    expectNoPersonalData(JSON.stringify((error as GatewayApiError).body))
  })

  it('keep the query out of a timeout', async () => {
    server.fallback = { hang: true }
    const { error, text } = await failure({ timeoutMs: 50 })
    expect(error).toBeInstanceOf(GatewayTimeoutError)
    expectNoPersonalData(text)
  })

  it('keep the query out of a refused connection', async () => {
    const port = await closedPort()
    const { error, text } = await failure({ siteUrl: `http://127.0.0.1:${port}/site` })
    expect(error).toBeInstanceOf(GatewayConnectionError)
    expect(error.request?.url).toBe(`http://127.0.0.1:${port}/site/make-cib-transaction/`)
    expectNoPersonalData(text)
  })

  it('cut the query from a fetch failure that quotes the URL it was given', async () => {
    const { error, text } = await failure({
      fetch: async (input) => {
        throw new TypeError(`fetch failed for ${input}`)
      },
    })
    expect(error).toBeInstanceOf(GatewayConnectionError)
    expect(error.message).toContain(`fetch failed for ${server.url}/site/make-cib-transaction/`)
    expectNoPersonalData(text)
  })
})
