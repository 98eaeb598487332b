import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createGatewayClient, GatewayTimeoutError } from '../../src/client/index.js'
import { nodeGetWithBody } from '../../src/runtime/node/get-with-body.js'
import {
  type RecordingServer,
  startRecordingServer,
  TEST_SEED,
} from './helpers/recording-server.js'

let server: RecordingServer

beforeAll(async () => {
  server = await startRecordingServer()
})
afterAll(() => server.close())
beforeEach(() => server.reset())

describe('nodeGetWithBody', () => {
  it('sends a GET whose body arrives intact, with its length, and returns the answer as a Response', async () => {
    server.reply({
      status: 400,
      json: { message: 'Invalid secret key' },
      headers: { 'X-Trace': 'a' },
    })
    const body = JSON.stringify({ encrypted_sk: 'S…', search: 'جيزي' })
    const res = await nodeGetWithBody(`${server.url}/services/get_products/`, {
      headers: { 'Content-Type': 'application/json' },
      body,
    })
    const req = server.requests[0]!
    expect(req.method).toBe('GET')
    expect(req.body).toBe(body)
    expect(req.headers['content-length']).toBe(String(new TextEncoder().encode(body).length))
    expect(res.status).toBe(400)
    expect(res.headers.get('x-trace')).toBe('a')
    expect(await res.json()).toEqual({ message: 'Invalid secret key' })
  })

  it('answers a 204 with an empty body', async () => {
    server.reply({ status: 204 })
    const res = await nodeGetWithBody(server.url, { headers: {}, body: '{}' })
    expect(res.status).toBe(204)
    expect(await res.text()).toBe('')
  })

  it('is cut off by the client timeout like fetch', async () => {
    server.reply({ hang: true })
    const client = createGatewayClient({
      siteUrl: server.url,
      secretKey: TEST_SEED,
      getWithBody: nodeGetWithBody,
      timeoutMs: 30,
      maxRetries: 0,
    })
    await expect(client.direct.products.list()).rejects.toBeInstanceOf(GatewayTimeoutError)
  })

  it('rejects when its signal is aborted', async () => {
    server.reply({ hang: true })
    const controller = new AbortController()
    const pending = nodeGetWithBody(server.url, {
      headers: {},
      body: '{}',
      signal: controller.signal,
    })
    controller.abort()
    await expect(pending).rejects.toThrow()
  })
})
