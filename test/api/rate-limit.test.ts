import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { LINK_WRITE_LIMITS } from '../../src/api/rate-limit.js'
import { GUESS_LIMITS } from '../../src/security/token-guessing.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { api, rowCount } from './helpers.js'

// 20 s into a one-minute window, so the window's end is 40 s away.
const T0 = Date.UTC(2026, 0, 15, 9, 0, 20)
let now = T0
let p: Paylinks
beforeEach(async () => {
  now = T0
  p = await startPaylinks({ clock: () => now })
})
afterEach(() => p.close())

const from = (ip: string) => ({ 'x-test-ip': ip })
// An invalid body is cheap and still counts: the limit is on attempts, not on successes.
const attempt = (ip: string) => api(p, 'POST', '/api/v1/links', { json: {}, headers: from(ip) })

describe('link write rate limit', () => {
  it('refuses the write after the per-address limit with 429 and Retry-After, creating nothing', async () => {
    for (let i = 0; i < LINK_WRITE_LIMITS.perIp; i++)
      expect((await attempt('10.1.1.1')).status).toBe(400)
    const res = await api(p, 'POST', '/api/v1/links', {
      json: { title: 'Cours', amount: 1500 },
      headers: from('10.1.1.1'),
    })
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe('40')
    expect(res.body.error.code).toBe('rate_limited')
    expect(rowCount(p, 'links')).toBe(0)
  })

  it('counts PATCH and DELETE as link writes too', async () => {
    for (let i = 0; i < LINK_WRITE_LIMITS.perIp; i++) await attempt('10.1.1.2')
    for (const method of ['PATCH', 'DELETE']) {
      const res = await api(p, method, '/api/v1/links/lnk_any', {
        ...(method === 'PATCH' ? { json: { title: 'x' } } : {}),
        headers: from('10.1.1.2'),
      })
      expect(res.status).toBe(429)
    }
  })

  it('keeps other addresses and reads working, and lets the address write again in the next window', async () => {
    for (let i = 0; i <= LINK_WRITE_LIMITS.perIp; i++) await attempt('10.1.1.3')
    expect((await attempt('10.1.1.3')).status).toBe(429)
    expect((await attempt('10.1.1.4')).status).toBe(400)
    expect((await api(p, 'GET', '/api/v1/links', { headers: from('10.1.1.3') })).status).toBe(200)
    now += 40_000
    expect((await attempt('10.1.1.3')).status).toBe(400)
  })

  it('limits the token across addresses', async () => {
    const perToken = LINK_WRITE_LIMITS.perToken
    for (let i = 0; i < perToken; i++) {
      const res = await attempt(`10.2.${Math.floor(i / LINK_WRITE_LIMITS.perIp)}.1`)
      expect(res.status).toBe(400)
    }
    const res = await attempt('10.9.9.9')
    expect(res.status).toBe(429)
    expect(res.body.error.message).toMatch(/token/)
  })

  it('does not count requests without the admin token', async () => {
    // Wrong tokens only up to the guessing limit, which would refuse the address from then on.
    const wrong = GUESS_LIMITS.perAddress.failures - 1
    for (let i = 0; i < LINK_WRITE_LIMITS.perIp + 5; i++) {
      const res = await api(p, 'POST', '/api/v1/links', {
        json: {},
        token: i < wrong ? 'nope-nope-nope-nope' : null,
        headers: from('10.3.3.3'),
      })
      expect(res.status).toBe(401)
    }
    expect((await attempt('10.3.3.3')).status).toBe(400)
  })
})
