/**
 * Every request gets one id and one log line, whether the middleware answers it or one of the two
 * paths answered outside it (the prepared checkout page, the gateway's webhooks).
 */
import { afterEach, describe, expect, it } from 'vitest'
import { logRequest, newRequestId, sendLogged } from '../../src/http/request-log.js'
import { manualClock, T0 } from '../dashboard/helpers.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'

const KEYS = ['time', 'request_id', 'method', 'route', 'status', 'duration_ms']

describe('the request log', () => {
  it('writes the line of a finished request with its duration on the clock', () => {
    const clock = manualClock()
    const lines: Record<string, unknown>[] = []
    const request = { started: clock(), requestId: 'abc', method: 'GET', route: '/x/:id' }
    clock.advance(7)
    logRequest({ clock, log: (l) => lines.push(l) }, request, 404)
    expect(lines).toEqual([
      {
        time: new Date(T0).toISOString(),
        request_id: 'abc',
        method: 'GET',
        route: '/x/:id',
        status: 404,
        duration_ms: 7,
      },
    ])
  })

  it('answers outside the middleware with the given headers and the id, and logs it', async () => {
    const clock = manualClock()
    const lines: Record<string, unknown>[] = []
    const headers = { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }
    const request = { started: clock(), requestId: newRequestId(), method: 'POST', route: '/w' }
    const response = sendLogged({ clock, log: (l) => lines.push(l) }, request, 202, '{}', headers)
    expect(response.status).toBe(202)
    expect(Object.fromEntries(response.headers)).toEqual({
      'cache-control': 'no-store',
      'content-type': 'application/json',
      'x-request-id': request.requestId,
    })
    expect(await response.text()).toBe('{}')
    expect(lines).toMatchObject([{ request_id: request.requestId, status: 202, route: '/w' }])
    // The record it was given is not changed (the prepared pages share theirs).
    expect(headers).toEqual({ 'Content-Type': 'application/json', 'Cache-Control': 'no-store' })
  })

  it('gives a fresh 12-character id to every request', () => {
    const ids = new Set(Array.from({ length: 1000 }, newRequestId))
    expect(ids.size).toBe(1000)
    for (const id of ids) expect(id).toMatch(/^[0-9A-Za-z]{12}$/)
  })
})

describe('every path writes the same line', () => {
  let p: Paylinks
  afterEach(async () => {
    await p.close()
  })

  it('routed, prepared and webhook requests each log one line naming the id they sent', async () => {
    const lines: Record<string, unknown>[] = []
    p = await startPaylinks({ log: (l) => lines.push(l) })
    const link = await makeLink(p, { title: 'Logged', amount: 100 })
    lines.length = 0
    const routed = await p.app.request(`/l/${link.slug}`)
    const prepared = p.app.fetch(new Request(`${p.url}/l/${link.slug}`))
    expect(prepared).not.toBeInstanceOf(Promise)
    const webhook = await p.app.request('/webhooks/gateway', { method: 'POST', body: '{}' })
    const answers = [routed, prepared as Response, webhook]

    const requests = lines.filter((l) => 'request_id' in l)
    expect(requests.map((l) => Object.keys(l))).toEqual([KEYS, KEYS, KEYS])
    expect(requests.map((l) => [l.method, l.route, l.status])).toEqual([
      ['GET', '/l/:slug', 200],
      ['GET', '/l/:slug', 200],
      ['POST', '/webhooks/gateway', webhook.status],
    ])
    expect(requests.map((l) => l.request_id)).toEqual(
      answers.map((r) => r.headers.get('x-request-id')),
    )
    expect(new Set(requests.map((l) => l.request_id)).size).toBe(3)
  })
})
