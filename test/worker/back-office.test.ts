/**
 * The production Worker in its two halves, as `npm run deploy:worker` deploys them and miniflare
 * (workerd) runs them: `paylinks` (wrangler.toml) serves the customer side and hands every request
 * under /dashboard, through its DASHBOARD service binding, to `paylinks-dashboard`
 * (wrangler.dashboard.toml), which has no vars or secrets of its own. Both use one local D1.
 * Then the production Worker alone, on Node: what it answers when the back office is missing, and
 * what it hands over.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { get as httpGet } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import type { ExecutionContext } from '@cloudflare/workers-types/index.ts'
import { Miniflare } from 'miniflare'
import { describe, expect, it } from 'vitest'
import { customerWorker } from '../../src/runtime/worker/customer.js'
import { createWorker, type WorkerEnv } from '../../src/runtime/worker/handler.js'
import {
  dashboardVisitor,
  inputValue,
  migratedState,
  miniflareWorker,
  prepareEntry,
  useLocalD1,
  useWorker,
  WORKER_ADMIN_TOKEN,
} from './support.js'

const LIVE = {
  GATEWAY_MODE: 'live',
  GATEWAY_SITE_URL: 'https://gateway.invalid',
  MERCHANT_ACCOUNT: 'GCAZI7YBLIDJWIVEL7ETNAZGPP3LC24NO6KAOBWZHUERXQ7M5BC52DLV',
  MERCHANT_NAME: 'Boulangerie Atlas',
  // Live mode asks for https; the Workers answer on loopback whatever the address.
  PUBLIC_URL: 'https://pay.example.dz',
}

prepareEntry('production')
const worker = useWorker(LIVE, 'production')

/** A browser for /dashboard (its session cookie kept from each answer). */
const visitor = () => dashboardVisitor(() => worker().url, 'fr', '198.51.100.78')

/** The Workers' request log lines for the route `route`, parsed. */
const requestLines = (route: string) =>
  worker()
    .logs.filter((line) => line.startsWith('{') && line.includes('"request_id"'))
    .map((line) => JSON.parse(line) as { route?: string; status?: number })
    .filter((line) => line.route === route)

describe('the production Worker and its back office', () => {
  it('serves the dashboard through the back office, on the same D1 and configuration', async () => {
    const admin = visitor()
    const login = await admin.get('/dashboard/login')
    expect(login.status).toBe(200)
    const page = await login.text()
    // The back office's own middleware: its headers, and the page in the language asked for.
    expect(login.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(page).toContain('lang="fr"')
    const signedIn = await admin.post('/dashboard/login', {
      token: WORKER_ADMIN_TOKEN,
      _csrf: inputValue(page, '_csrf'),
    })
    expect(signedIn.status).toBe(303)

    // A link made in the back office is on the customer side at once: one database.
    const form = await (await admin.get('/dashboard/links/new')).text()
    const created = await admin.post('/dashboard/links', {
      _csrf: inputValue(form, '_csrf'),
      language: 'fr',
      active: 'on',
      title: 'Pain complet',
      pricing: 'fixed',
      amount: '250',
    })
    expect(created.status).toBe(303)
    const id = /\/dashboard\/links\/(lnk_\w+)/.exec(created.headers.get('location') ?? '')?.[1]
    expect(id).toBeDefined()
    const links = await fetch(`${worker().url}/api/v1/links`, {
      headers: { 'x-api-key': WORKER_ADMIN_TOKEN },
    })
    const listed = (await links.json()) as { data: { id: string; url: string }[] }
    const link = listed.data.find((entry) => entry.id === id)
    expect(link).toBeDefined()
    const checkout = await fetch(`${worker().url}/l/${link!.url.split('/l/')[1]}?lang=fr`)
    expect(checkout.status).toBe(200)
    expect(await checkout.text()).toContain('Pain complet')

    // The configuration came with each call: the merchant's name of the production Worker's vars.
    const overview = await (await admin.get('/dashboard')).text()
    expect(overview).toContain('Boulangerie Atlas')
    // Each dashboard request is logged once, by the back office.
    expect(requestLines('/dashboard/login').length).toBe(2)
  })

  it('sends pages plain to a client that does not ask for gzip, and gzip to one that does', async () => {
    // node:http, unlike fetch, sends no Accept-Encoding of its own: `curl` without --compressed.
    const get = (path: string, headers: Record<string, string> = {}) =>
      new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
        httpGet(`${worker().url}${path}`, { headers }, (res) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('end', () =>
            resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }),
          )
        }).on('error', reject)
      })
    // A link's page is served prepared (its gzip made once), not through the pages' compression.
    const made = await fetch(`${worker().url}/api/v1/links`, {
      method: 'POST',
      headers: { 'x-api-key': WORKER_ADMIN_TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Pain de seigle', amount: 300 }),
    })
    expect(made.status).toBe(201)
    const linkPath = new URL(((await made.json()) as { url: string }).url).pathname
    // A back-office page (handed over through the binding) and customer ones.
    for (const path of ['/dashboard/login', '/l/no-such-link', linkPath, linkPath]) {
      const plain = await get(path)
      expect(plain.encoding, path).toBeUndefined()
      expect(plain.body.toString('utf8'), path).toMatch(/^<!doctype html>/i)
      const gzip = await get(path, { 'accept-encoding': 'gzip' })
      expect(gzip.encoding, path).toBe('gzip')
      expect(gunzipSync(gzip.body).toString('utf8'), path).toMatch(/^<!doctype html>/i)
    }
  })

  it('sends a visitor without a session to the login page, and keeps the API on the customer side', async () => {
    const missing = await fetch(`${worker().url}/dashboard/no-such-page`, {
      headers: { 'accept-language': 'en' },
      redirect: 'manual',
    })
    // Pages under /dashboard ask for a session first, as on Node.
    expect(missing.status).toBe(303)
    expect(missing.headers.get('location')).toBe('/dashboard/login')
    const api = await fetch(`${worker().url}/api/v1/no-such-route`, {
      headers: { 'x-api-key': WORKER_ADMIN_TOKEN },
    })
    expect(api.status).toBe(404)
    expect(await api.json()).toMatchObject({ error: { code: 'not_found' } })
  })
})

describe('the back office on its own', () => {
  it('has no public answer, and builds its app again for each new configuration it is called with', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paylinks-back-office-'))
    // A stand-in for the production Worker: it calls the back office's entrypoint with the vars
    // the test puts in the address (the real production Worker is the pair's, above).
    const caller = `export default {
      async fetch(request, env) {
        const vars = JSON.parse(new URL(request.url).searchParams.get('vars'))
        return env.DASHBOARD.serve(new Request('https://pay.example.dz/dashboard/login'), vars)
      },
    }`
    const mf = new Miniflare({
      workers: [
        {
          name: 'caller',
          modules: true,
          script: caller,
          compatibilityDate: '2026-04-01',
          serviceBindings: { DASHBOARD: { name: 'paylinks-dashboard', entrypoint: 'Dashboard' } },
        },
        await miniflareWorker('dashboard', 'paylinks-dashboard'),
      ],
      d1Persist: join(await migratedState(dir), 'v3', 'd1'),
      cf: false,
    })
    try {
      const titleFor = async (merchant: string) => {
        const vars = { ...LIVE, ADMIN_TOKEN: WORKER_ADMIN_TOKEN, MERCHANT_NAME: merchant }
        const url = `http://caller.test/?vars=${encodeURIComponent(JSON.stringify(vars))}`
        const response = await mf.dispatchFetch(url)
        expect(response.status).toBe(200)
        return /<title>([^<]*)<\/title>/.exec(await response.text())?.[1]
      }
      // One isolate, three calls: the second configuration is served as it is, not the first's.
      expect(await titleFor('Librairie Es-Salam')).toContain('Librairie Es-Salam')
      expect(await titleFor('Pharmacie Ibn Sina')).toContain('Pharmacie Ibn Sina')
      expect(await titleFor('Librairie Es-Salam')).toContain('Librairie Es-Salam')
      // Its own fetch handler answers nothing to whoever reaches it without the entrypoint.
      const own = await (await mf.getWorker('paylinks-dashboard')).fetch(
        'http://any.test/dashboard',
      )
      expect(own.status).toBe(404)
    } finally {
      await mf.dispose()
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})

const local = useLocalD1('back-office')

const ctx = {
  waitUntil() {},
  passThroughOnException() {},
  props: {},
} as unknown as ExecutionContext

describe('the production Worker alone', () => {
  const env = (extra: Record<string, unknown>): WorkerEnv => ({
    DB: local.d1(),
    ...LIVE,
    ADMIN_TOKEN: WORKER_ADMIN_TOKEN,
    ...extra,
  })

  it('answers 503 naming how to deploy the back office when its binding is missing', async () => {
    const paylinks = createWorker({ ...customerWorker })
    const response = await paylinks.fetch(
      new Request('https://pay.example.dz/dashboard/login'),
      env({}),
      ctx,
    )
    expect(response.status).toBe(503)
    expect(await response.text()).toContain('npm run deploy:worker')
    // A binding to a Worker that is not running (`wrangler dev` of wrangler.toml alone) throws.
    const unreachable = {
      serve: () =>
        Promise.reject(new Error('Worker "paylinks-dashboard" not found. Make sure it is running')),
    }
    const thrown = await paylinks.fetch(
      new Request('https://pay.example.dz/dashboard'),
      env({ DASHBOARD: unreachable }),
      ctx,
    )
    expect(thrown.status).toBe(503)
    expect(await thrown.text()).toContain('npm run prod:worker')
    // The customer side is unaffected.
    const health = await paylinks.fetch(new Request('https://pay.example.dz/healthz'), env({}), ctx)
    expect(health.status).toBe(200)
  })

  it('hands the request over as it came, with its vars and secrets and no other binding', async () => {
    const calls: { url: string; method: string; vars: Record<string, string> }[] = []
    const dashboard = {
      async serve(request: Request, vars: Record<string, string>) {
        calls.push({ url: request.url, method: request.method, vars })
        return new Response('back office', { status: 200 })
      },
    }
    const paylinks = createWorker({ ...customerWorker })
    for (const path of ['/dashboard', '/dashboard/links/new?x=1']) {
      const response = await paylinks.fetch(
        new Request(`https://pay.example.dz${path}`, { method: 'POST', body: 'a=1' }),
        env({ DASHBOARD: dashboard }),
        ctx,
      )
      expect(await response.text()).toBe('back office')
    }
    expect(calls.map((call) => call.url)).toEqual([
      'https://pay.example.dz/dashboard',
      'https://pay.example.dz/dashboard/links/new?x=1',
    ])
    expect(calls[0]!.method).toBe('POST')
    expect(calls[0]!.vars).toMatchObject({ ...LIVE, ADMIN_TOKEN: WORKER_ADMIN_TOKEN })
    expect(Object.values(calls[0]!.vars).every((value) => typeof value === 'string')).toBe(true)
    // Paths that only start alike stay on the customer side.
    const other = await paylinks.fetch(
      new Request('https://pay.example.dz/dashboards'),
      env({ DASHBOARD: dashboard }),
      ctx,
    )
    expect(other.status).toBe(404)
    expect(calls).toHaveLength(2)
  })
})
