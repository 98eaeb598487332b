/**
 * An HTTPS webhook receiver for tests, serving hooks.example.test from any loopback address: it
 * keeps what it got, with the TLS server name the client asked for, and answers what the test says.
 */
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import type { Received } from './receiver.js'

// A certificate for hooks.example.test alone, made for these tests (its key is no secret).
export const TLS = {
  cert: readFileSync(new URL('./tls/hooks.example.test.crt', import.meta.url)),
  key: readFileSync(new URL('./tls/hooks.example.test.key', import.meta.url)),
}

export interface TlsReceiver {
  received: (Received & { servername: string | false })[]
  /** The status and headers of the next answers (default 200). */
  answer(status: number, headers?: Record<string, string>): void
  close(): Promise<void>
}

/** A real HTTPS receiver for hooks.example.test on `host`, at `port` (0: any free port). */
export async function tlsReceiver(
  host: string,
  port: number,
): Promise<TlsReceiver & { port: number }> {
  const received: TlsReceiver['received'] = []
  let status = 200
  let headers: Record<string, string> = {}
  const server: Server = createServer(TLS, (req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const servername = (req.socket as unknown as { servername: string | false }).servername
      received.push({
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        status,
        servername,
      })
      res.writeHead(status, { 'content-type': 'text/plain', ...headers })
      res.end(`answered by ${host}`)
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, resolve)
  })
  return {
    port: (server.address() as AddressInfo).port,
    received,
    answer(next, nextHeaders = {}) {
      status = next
      headers = nextHeaders
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
