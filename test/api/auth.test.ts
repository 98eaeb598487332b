import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { sha256Hex } from '../../src/lib/hash.js'
import * as tokens from '../../src/security/tokens.js'
import { type Paylinks, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'
import { postLink } from '../support/links.js'
import { api, rowCount } from './helpers.js'

// The real constant-time check, observed: the API must go through it and nothing else. A spy on
// the shared module, not a module of this file's own (vi.mock would need a registry apart): it
// calls the real check and is taken off after this file's tests.
const check = vi.spyOn(tokens, 'checkAdminToken')

let p: Paylinks
let linkId: string
beforeAll(async () => {
  p = await startPaylinks()
  linkId = (await postLink(p, { title: 'Cours', amount: 1500 })).id
})
afterAll(() => {
  check.mockRestore()
  return p.close()
})

const ROUTES: [string, string][] = [
  ['GET', '/api/v1/links'],
  ['POST', '/api/v1/links'],
  ['GET', '/api/v1/links/LINK'],
  ['PATCH', '/api/v1/links/LINK'],
  ['DELETE', '/api/v1/links/LINK'],
  ['GET', '/api/v1/payments'],
  ['GET', '/api/v1/payments/pay_unknown'],
  ['GET', '/api/v1/nothing-here'],
]

describe('merchant API authentication', () => {
  it.each(ROUTES)(
    'refuses %s %s without a token, with 401 and WWW-Authenticate',
    async (method, path) => {
      const res = await api(p, method, path.replace('LINK', linkId), {
        token: null,
        ...(method === 'GET' ? {} : { json: { title: 'Nope', amount: 1500 } }),
      })
      expect(res.status).toBe(401)
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /)
      expect(res.body.error.code).toBe('unauthorized')
      expect(res.body.error.message).toMatch(/X-API-Key/)
    },
  )

  it('refuses a wrong token in X-API-Key and as a bearer token, and never echoes it', async () => {
    const wrong = `${TEST_ADMIN_TOKEN}x`
    for (const headers of [{ 'x-api-key': wrong }, { authorization: `Bearer ${wrong}` }] as Record<
      string,
      string
    >[]) {
      const res = await api(p, 'GET', '/api/v1/links', { headers, token: null })
      expect(res.status).toBe(401)
      expect(res.body.error.code).toBe('unauthorized')
      expect(JSON.stringify(res.body)).not.toContain(wrong)
    }
  })

  it('accepts the admin token in X-API-Key and as Authorization: Bearer', async () => {
    const byKey = await api(p, 'GET', `/api/v1/links/${linkId}`)
    expect(byKey.status).toBe(200)
    for (const authorization of [`Bearer ${TEST_ADMIN_TOKEN}`, `bearer ${TEST_ADMIN_TOKEN}`]) {
      const res = await p.app.request(`/api/v1/links/${linkId}`, { headers: { authorization } })
      expect(res.status).toBe(200)
    }
  })

  it('does not take the token in another scheme or in the query string', async () => {
    const basic = await p.app.request('/api/v1/links', {
      headers: { authorization: `Basic ${btoa(`admin:${TEST_ADMIN_TOKEN}`)}` },
    })
    expect(basic.status).toBe(401)
    const query = await p.app.request(`/api/v1/links?api_key=${TEST_ADMIN_TOKEN}`)
    expect(query.status).toBe(401)
  })

  it('compares through the constant-time helper, against the stored hash', async () => {
    check.mockClear()
    await api(p, 'GET', '/api/v1/payments', { headers: { 'x-api-key': 'guess-guess-guess' } })
    expect(check).toHaveBeenCalledWith('guess-guess-guess', p.deps.secrets.adminTokenHash)
    expect(p.deps.secrets.adminTokenHash).toBe(await sha256Hex(TEST_ADMIN_TOKEN))
  })

  it('creates nothing for an unauthenticated POST', async () => {
    const before = rowCount(p, 'links')
    const res = await p.app.request('/api/v1/links', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'wrong-token-wrong-token' },
      body: JSON.stringify({ title: 'Sneaky', amount: 1500 }),
    })
    expect(res.status).toBe(401)
    expect(rowCount(p, 'links')).toBe(before)
  })

  it('serves the OpenAPI document and the docs page without a token', async () => {
    expect((await p.app.request('/api/v1/openapi.json')).status).toBe(200)
    expect((await p.app.request('/api/docs')).status).toBe(200)
  })
})
