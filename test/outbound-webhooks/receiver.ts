/**
 * A webhook receiver for tests: a real HTTP server on 127.0.0.1 that keeps what it got and answers
 * what the test says; `verify` checks a request with the reference library's `Webhook.verify`,
 * the clock set to the sender's (the library refuses timestamps five minutes from its own now).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { vi } from 'vitest'

export interface Received {
  headers: IncomingHttpHeaders
  body: string
  /** The answer it was given. */
  status: number
}

export interface Receiver {
  url: string
  received: Received[]
  /** The status of the next answers (default 200). */
  answer(status: number): void
  close(): Promise<void>
}

/** Starts a receiver on a free loopback port. */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = []
  let status = 200
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), status })
      res.writeHead(status, { 'content-type': 'text/plain' })
      res.end(status < 300 ? 'ok' : 'receiver is down')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answer: (next) => {
      status = next
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** The payload as `Webhook.verify` returns it, checked with `secret` at time `now`; throws if not. */
export function verify(secret: string, request: Received, now: number): unknown {
  vi.useFakeTimers({ toFake: ['Date'], now })
  try {
    return new Webhook(secret).verify(request.body, request.headers as Record<string, string>)
  } finally {
    vi.useRealTimers()
  }
}

/** Each request's event type, in arrival order. */
export const typesOf = (received: Received[]) =>
  received.map((r) => (JSON.parse(r.body) as { type: string }).type)
