/** Guessing the admin token through the merchant API: wrong tokens are throttled, right ones are not. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Browser, manualClock, T0 } from '../dashboard/helpers.js'
import { type Paylinks, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'
import { api } from './helpers.js'

const MIN = 60_000
const WRONG = 'wrong-token-wrong-token'
let clock: ReturnType<typeof manualClock>
let p: Paylinks
beforeEach(async () => {
  clock = manualClock(T0)
  p = await startPaylinks({ clock })
})
afterEach(() => p.close())

const from = (ip: string) => ({ 'x-test-ip': ip })
const links = (ip: string, token?: string | null) =>
  api(p, 'GET', '/api/v1/links', { headers: from(ip), ...(token === undefined ? {} : { token }) })

describe('guessing the admin token through the API', () => {
  it('answers 80 wrong keys from one address with 10 times 401, then 429 with Retry-After and a JSON error', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 80; i++) {
      const res = await links('10.7.0.1', WRONG)
      statuses.push(res.status)
      if (res.status === 429) {
        expect(res.headers.get('retry-after')).toBe('300')
        expect(res.body.error).toMatchObject({ code: 'rate_limited' })
        expect(res.body.error.message).toMatch(/wrong tokens from this address/)
      }
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401))
    expect(statuses.slice(10)).toEqual(Array(70).fill(429))
    // The right token from that address waits too; from another address it is not slowed.
    expect((await links('10.7.0.1')).status).toBe(429)
    expect((await links('10.7.0.2')).status).toBe(200)
    clock.advance(5 * MIN - 1000)
    expect((await links('10.7.0.1')).headers.get('retry-after')).toBe('1')
    clock.advance(1000)
    expect((await links('10.7.0.1')).status).toBe(200)
  })

  it('counts one IPv6 subscriber block (/64) as one address', async () => {
    for (let i = 0; i < 10; i++)
      expect((await links(`2001:db8:1:2::${i.toString(16)}`, WRONG)).status).toBe(401)
    expect((await links('2001:db8:1:2:ffff::1')).status).toBe(429)
    expect((await links('2001:db8:1:3::1')).status).toBe(200)
  })

  it('never counts the right token, nor a request without one', async () => {
    for (let i = 0; i < 30; i++) {
      expect((await links('10.7.1.1')).status).toBe(200)
      expect((await links('10.7.1.1', null)).status).toBe(401)
    }
    for (let i = 0; i < 9; i++) expect((await links('10.7.1.1', WRONG)).status).toBe(401)
    expect((await links('10.7.1.1')).status).toBe(200)
  })

  it('refuses a throttled request before reading its body', async () => {
    for (let i = 0; i < 10; i++) await links('10.7.2.1', WRONG)
    let read = false
    const body = new ReadableStream(
      {
        pull(controller) {
          read = true
          controller.enqueue(new TextEncoder().encode('{"title":"X","amount":1500}'))
          controller.close()
        },
      },
      { highWaterMark: 0 },
    )
    const res = await p.app.request('/api/v1/links', {
      method: 'POST',
      body,
      duplex: 'half',
      headers: {
        ...from('10.7.2.1'),
        'x-api-key': TEST_ADMIN_TOKEN,
        'content-type': 'application/json',
      },
    } as RequestInit)
    expect(res.status).toBe(429)
    expect(read).toBe(false)
  })

  it('after 100 wrong keys from many addresses, closes the dashboard login everywhere for 5 minutes and leaves the API to its per-address limit', async () => {
    for (let i = 0; i < 100; i++)
      expect((await links(`198.18.${i >> 4}.${i & 15}`, WRONG)).status).toBe(401)
    const login = await new Browser(p, from('192.0.2.51')).login()
    expect(login.status).toBe(429)
    expect(login.headers.get('retry-after')).toBe('300')
    // The merchant's integration is not locked out by strangers.
    expect((await links('192.0.2.50')).status).toBe(200)
    clock.advance(5 * MIN)
    expect((await new Browser(p, from('192.0.2.51')).login()).status).not.toBe(429)
  })

  it('counts wrong tokens at the dashboard login toward the same limit', async () => {
    for (let a = 0; a < 10; a++) {
      const bot = new Browser(p, from(`198.19.0.${a}`))
      for (let i = 0; i < 10; i++) expect((await bot.login(WRONG)).status).toBe(401)
    }
    expect((await new Browser(p, from('192.0.2.60')).login()).status).toBe(429)
  })
})
