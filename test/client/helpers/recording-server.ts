/**
 * A loopback HTTP server that records every request (method, path, query, headers, body) and
 * answers from a script, for asserting the client's wire literally.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { encodeStrKey } from '../../../src/lib/strkey.js'

export interface Recorded {
  method: string
  /** Path exactly as sent, without the query. */
  path: string
  /** Raw query string without `?`. */
  rawQuery: string
  query: Record<string, string>
  headers: Record<string, string | string[] | undefined>
  body: string
  /** The body parsed as JSON, or undefined when empty or not JSON. */
  json: unknown
}

export interface Scripted {
  status?: number
  json?: unknown
  /** A raw body, sent as is (takes precedence over json). */
  text?: string
  headers?: Record<string, string>
  /** Never answer (the connection is dropped when the server closes). */
  hang?: boolean
}

export interface RecordingServer {
  /** Base URL, e.g. http://127.0.0.1:PORT */
  url: string
  requests: Recorded[]
  /** Queues answers, used in order; when the queue is empty the fallback answers. */
  reply(...answers: Scripted[]): void
  fallback: Scripted
  /** Forgets recorded requests and queued answers, and restores the fallback `200 {}`. */
  reset(): void
  close(): Promise<void>
}

function record(req: IncomingMessage, body: string): Recorded {
  const raw = req.url ?? '/'
  const q = raw.indexOf('?')
  const rawQuery = q < 0 ? '' : raw.slice(q + 1)
  let json: unknown
  try {
    json = body === '' ? undefined : JSON.parse(body)
  } catch {
    json = undefined
  }
  return {
    method: req.method ?? '',
    path: q < 0 ? raw : raw.slice(0, q),
    rawQuery,
    query: Object.fromEntries(new URLSearchParams(rawQuery)),
    headers: req.headers,
    body,
    json,
  }
}

/** Starts a recording server on 127.0.0.1 with an ephemeral port. */
export async function startRecordingServer(): Promise<RecordingServer> {
  const requests: Recorded[] = []
  const queue: Scripted[] = []
  const state = { fallback: { status: 200, json: {} } as Scripted }
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      requests.push(record(req, Buffer.concat(chunks).toString('utf8')))
      const answer = queue.shift() ?? state.fallback
      if (answer.hang) return
      const text = answer.text ?? (answer.json === undefined ? '' : JSON.stringify(answer.json))
      res.writeHead(answer.status ?? 200, {
        ...(answer.text === undefined && answer.json !== undefined
          ? { 'Content-Type': 'application/json' }
          : {}),
        ...answer.headers,
      })
      res.end(text)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply: (...answers) => queue.push(...answers),
    reset: () => {
      requests.length = 0
      queue.length = 0
      state.fallback = { status: 200, json: {} }
    },
    get fallback() {
      return state.fallback
    },
    set fallback(value: Scripted) {
      state.fallback = value
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** A checksum-valid secret seed and account for tests (not keys of any real account). */
export const TEST_SEED = encodeStrKey('secretSeed', new Uint8Array(32).fill(7))
export const TEST_ACCOUNT = encodeStrKey('accountId', new Uint8Array(32).fill(9))
export const OTHER_ACCOUNT = encodeStrKey('accountId', new Uint8Array(32).fill(10))

/** A seed with its last character changed, so its checksum fails. */
export function corruptKey(key: string): string {
  const last = key.at(-1) === 'A' ? 'B' : 'A'
  return key.slice(0, -1) + last
}

/** A sleep that records the delays asked for and does not wait. */
export function recordingSleep(): { sleep: (ms: number) => Promise<void>; delays: number[] } {
  const delays: number[] = []
  return { delays, sleep: async (ms) => void delays.push(ms) }
}
