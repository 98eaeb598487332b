/** Loopback harness for the simulator tests: a real HTTP server, a webhook receiver, a manual scheduler. */
import { once } from 'node:events'
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import type { Hono } from 'hono'
import {
  createSimulator,
  type Simulator,
  type SimulatorOptions,
} from '../../src/simulator/index.js'

export interface RunningSimulator {
  sim: Simulator
  /** `http://127.0.0.1:<port>`: the simulator's site_url. */
  url: string
  close(): Promise<void>
}

/** Starts a simulator on a real loopback port (port 0), with its publicUrl pointing at it. */
export async function startSimulator(
  options: Omit<SimulatorOptions, 'publicUrl'> = {},
): Promise<RunningSimulator> {
  let app: Hono | undefined
  const server = serve({
    fetch: (req, env) => app!.fetch(req, env),
    port: 0,
    hostname: '127.0.0.1',
  }) as Server
  if (!server.listening) await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}`
  const sim = createSimulator({ publicUrl: url, ...options })
  app = sim.app
  return {
    sim,
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export interface ReceivedWebhook {
  method: string
  path: string
  headers: IncomingMessage['headers']
  body: string
}

export interface WebhookReceiver {
  url: string
  received: ReceivedWebhook[]
  /** Status codes to answer, in order; after they run out, 200. */
  answers: number[]
  close(): Promise<void>
}

/** A loopback HTTP server that records every request and answers scripted statuses. */
export async function startReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = []
  const answers: number[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      })
      const status = answers.shift() ?? 200
      res.writeHead(status, { 'content-type': 'text/plain' })
      res.end(status < 300 ? 'thanks' : `refused with ${status}`)
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/webhooks/gateway`,
    received,
    answers,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** A scheduler that runs tasks only when the test says so. */
export function manualScheduler() {
  const tasks: { delayMs: number; task: () => Promise<void> }[] = []
  return {
    tasks,
    schedule: (delayMs: number, task: () => Promise<void>) => {
      tasks.push({ delayMs, task })
    },
    /** Runs every task queued so far (not those they queue). */
    async runAll(): Promise<number[]> {
      const batch = tasks.splice(0)
      for (const entry of batch) await entry.task()
      return batch.map((entry) => entry.delayMs)
    },
  }
}

/** A GET with a JSON body over node:http (what WHATWG fetch cannot send). */
export function getWithBody(url: string, body: string): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'GET',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          try {
            resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) })
          } catch (error) {
            reject(error)
          }
        })
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/** A form POST that does not follow redirects. */
export function postForm(url: string, fields: Record<string, string>): Promise<Response> {
  return fetch(url, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' })
}

/** A controllable clock. */
export function fakeClock(start = Date.parse('2025-03-01T10:00:00Z')) {
  let now = start
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms
    },
  }
}

/** A JSON answer read loosely: tests assert on its fields directly. */
// biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field with expect
export type LooseJson = Record<string, any>
