/**
 * The declared body length on Node, read from the `IncomingMessage` that @hono/node-server passes
 * in the bindings: over a real server on loopback, with a length, chunked, and without bindings.
 */
import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nodeDeclaredBodyLength } from '../../src/runtime/node/declared-length.js'

let server: ReturnType<typeof serve>
let port = 0

beforeAll(async () => {
  await new Promise<void>((resolve) => {
    server = serve(
      {
        fetch: async (request, env) => {
          const declared = nodeDeclaredBodyLength(env)
          await request.arrayBuffer()
          return Response.json({ declared: declared === undefined ? 'unknown' : declared })
        },
        port: 0,
        hostname: '127.0.0.1',
      },
      (info: AddressInfo) => {
        port = info.port
        resolve()
      },
    )
  })
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

/** POSTs `chunks`, with a Content-Length when `length` is given, chunked otherwise. */
function post(chunks: string[], length?: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/webhooks/gateway',
        headers: length === undefined ? {} : { 'content-length': String(length) },
      },
      (res) => {
        let text = ''
        res.on('data', (d) => {
          text += d
        })
        res.on('end', () => resolve(JSON.parse(text)))
      },
    )
    req.on('error', reject)
    for (const chunk of chunks) req.write(chunk)
    req.end()
  })
}

describe('nodeDeclaredBodyLength', () => {
  it('reads the Content-Length Node parsed', async () => {
    expect(await post(['{"a":1}'], 7)).toEqual({ declared: 7 })
    expect(await post([], 0)).toEqual({ declared: 0 })
  })

  it('is null for a chunked body, whose stream alone tells its length', async () => {
    expect(await post(['{"a":', '1}'])).toEqual({ declared: null })
  })

  it('is undefined without the server bindings (another runtime, or a test calling the app)', () => {
    expect(nodeDeclaredBodyLength(undefined)).toBeUndefined()
    expect(nodeDeclaredBodyLength({ DB: {} })).toBeUndefined()
  })
})
