/**
 * The app routes with Hono's trie router, named in `createApp` instead of left to Hono's default
 * (SmartRouter), which would try RegExpRouter at the first request before settling on the trie.
 */
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Paylinks, startPaylinks } from '../support/harness.js'

describe("the app's router", () => {
  let p: Paylinks
  beforeAll(async () => {
    p = await startPaylinks()
  })
  afterAll(() => p.close())

  it('is the trie router', () => {
    expect(p.app.router.name).toBe('TrieRouter')
  })

  it("is the one Hono's default router settles on for the same routes", async () => {
    // Should this fail, RegExpRouter takes these routes now: let the default choose again.
    const byDefault = new Hono()
    for (const route of p.app.routes) byDefault.on(route.method, route.path, (c) => c.text('ok'))
    await byDefault.request('/healthz')
    expect(byDefault.router.name).toBe('SmartRouter + TrieRouter')
  })

  it('answers the health check, a dashboard route and an unknown path', async () => {
    expect((await p.app.request('/healthz')).status).toBe(200)
    const signIn = await p.app.request('/dashboard/links/new')
    expect(signIn.status).toBe(303)
    expect(signIn.headers.get('location')).toMatch(/\/dashboard\/login/)
    expect((await p.app.request('/no/such/page')).status).toBe(404)
  })
})
