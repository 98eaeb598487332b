/**
 * Starting on Workers: the admin token generated in simulator mode under `wrangler dev` (shown
 * once, in its console); the deployed Worker (wrangler.toml's top level) refusing, with a 503 that
 * names each setting, a configuration that lacks what it needs, and serving once it has it.
 */
import { request as httpRequest } from 'node:http'
import { solveChallenge } from 'altcha-lib/v1'
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../src/lib/hash.js'
import { inputValue, postForm, prepareEntry, useWorker, WORKER_ADMIN_TOKEN } from './support.js'

// Tests below restart into the deployed Worker.
prepareEntry('production')
const worker = useWorker({ ADMIN_TOKEN: '' })

const tokenLines = () => worker().logs.filter((line) => line.includes('admin token'))

describe('starting Paylinks on Workers', () => {
  it('generates an admin token on the first request, logs it once and stores only its hash', async () => {
    expect((await fetch(`${worker().url}/healthz`)).status).toBe(200)
    expect((await fetch(`${worker().url}/healthz`)).status).toBe(200)
    const lines = tokenLines()
    expect(lines).toHaveLength(1)
    const token = /plk_[0-9A-Za-z]{32}/.exec(lines[0]!)?.[0]
    expect(token).toBeDefined()
    const stored = (await worker().mf.getD1Database('DB'))
      .prepare("SELECT value FROM settings WHERE key = 'admin_token_sha256'")
      .first<{ value: string }>()
    expect((await stored)?.value).toBe(await sha256Hex(token!))
    expect(worker().logs.filter((line) => line.includes(token!))).toHaveLength(1)

    // A new isolate finds the stored hash and shows nothing.
    await worker().restart({ ADMIN_TOKEN: '' })
    expect((await fetch(`${worker().url}/healthz`)).status).toBe(200)
    expect(tokenLines()).toHaveLength(1)
  })

  it('deployed as wrangler.toml ships it, refuses to serve and names every missing setting', async () => {
    // Only wrangler.toml's top-level vars: no secret, nothing filled in.
    await worker().restart({ PUBLIC_URL: '', ADMIN_TOKEN: '', CAPTCHA: 'altcha' }, 'production')
    const res = await fetch(`${worker().url}/l/anything`)
    expect(res.status).toBe(503)
    const text = await res.text()
    expect(text).toContain('wrangler tail')
    for (const name of ['ADMIN_TOKEN', 'MERCHANT_ACCOUNT', 'PUBLIC_URL', 'GATEWAY_SITE_URL'])
      expect(text).toContain(name)
    const failure = worker().logs.find((line) => line.includes('"start_failed"'))
    expect(failure).toContain('MERCHANT_ACCOUNT: required in live mode')
    expect(failure).toContain('PUBLIC_URL: required in live mode')
    expect(failure).toContain('GATEWAY_SITE_URL: required in live mode')
    expect(failure).toContain('ADMIN_TOKEN: required in live mode on Workers')
    // The Worker never generated a token to show in its logs.
    expect(tokenLines()).toHaveLength(1)
  })

  it('deployed, serves in live mode once configured, and refuses again without ADMIN_TOKEN', async () => {
    const live = {
      GATEWAY_MODE: 'live',
      PUBLIC_URL: 'https://pay.example.dz',
      GATEWAY_SITE_URL: 'https://gateway.invalid',
      MERCHANT_ACCOUNT: 'GCAZI7YBLIDJWIVEL7ETNAZGPP3LC24NO6KAOBWZHUERXQ7M5BC52DLV',
    }
    await worker().restart(live, 'production')
    const health = await fetch(`${worker().url}/healthz`)
    expect(health.status).toBe(200)
    // The warm-up ran in workerd, which refuses random values and Responses while it starts.
    expect(worker().logs.filter((line) => line.includes('warm_up_failed'))).toEqual([])
    expect(
      worker()
        .logs.filter((line) => line.includes('"worker_started"'))
        .at(-1),
    ).toContain('"live"')
    expect(await health.json()).toMatchObject({ mode: 'live' })
    const api = await fetch(`${worker().url}/api/v1/links`, {
      headers: { 'x-api-key': WORKER_ADMIN_TOKEN },
    })
    expect(api.status).toBe(200)

    await worker().restart({ ...live, ADMIN_TOKEN: '' }, 'production')
    const refused = await fetch(`${worker().url}/healthz`)
    expect(refused.status).toBe(503)
    expect(await refused.text()).toContain('ADMIN_TOKEN')
    expect(tokenLines()).toHaveLength(1)
  })

  it('alone, without its back office running, answers /dashboard with a 503 naming how to start both', async () => {
    // `wrangler dev` of wrangler.toml alone: DASHBOARD is bound, to a Worker no one runs.
    await worker().restart(
      {
        GATEWAY_MODE: 'live',
        PUBLIC_URL: 'https://pay.example.dz',
        GATEWAY_SITE_URL: 'https://gateway.invalid',
        MERCHANT_ACCOUNT: 'GCAZI7YBLIDJWIVEL7ETNAZGPP3LC24NO6KAOBWZHUERXQ7M5BC52DLV',
      },
      'production',
      { backOffice: false },
    )
    const res = await fetch(`${worker().url}/dashboard/login`)
    expect(res.status).toBe(503)
    expect(res.headers.get('content-type')).toContain('text/plain')
    const text = await res.text()
    expect(text).toContain('npm run prod:worker')
    expect(text).toContain('npm run deploy:worker')
    expect(text).not.toContain('not found')
    const logged = worker()
      .logs.filter((line) => line.includes('"dashboard_missing"'))
      .at(-1)
    expect(logged).toContain('paylinks-dashboard')
    // The customer side is unaffected.
    expect((await fetch(`${worker().url}/healthz`)).status).toBe(200)
  })

  it('deployed, has no simulator mode and no simulator to mount', async () => {
    await worker().restart({ GATEWAY_MODE: 'simulator' }, 'production')
    const res = await fetch(`${worker().url}/_sim/_inspect`)
    expect(res.status).toBe(503)
    expect(await res.text()).toContain('GATEWAY_MODE')
    const failure = worker()
      .logs.filter((line) => line.includes('"start_failed"'))
      .at(-1)
    expect(failure).toContain('simulator mode is not part of this build')
  })

  it('under wrangler dev, serves simulator mode on localhost only', async () => {
    await worker().restart({ PUBLIC_URL: 'https://pay.example.dz' }, 'dev')
    const res = await fetch(`${worker().url}/_sim/_inspect`)
    expect(res.status).toBe(503)
    expect(await res.text()).toContain('PUBLIC_URL')
    const failure = worker()
      .logs.filter((line) => line.includes('"start_failed"'))
      .at(-1)
    expect(failure).toContain('simulator mode serves only on localhost')
  })

  it('under wrangler dev with PUBLIC_URL empty, takes the address the request came to, on loopback only', async () => {
    await worker().restart({ PUBLIC_URL: '' }, 'dev')
    // Another host name: the same 503 as a PUBLIC_URL naming it, and nothing kept.
    const elsewhere = await requestAs('pay.example.dz', 'GET', '/healthz')
    expect(elsewhere.status).toBe(503)
    expect(elsewhere.body).toContain('PUBLIC_URL')
    // localhost, on the port wrangler serves (any): the links are on it.
    const local = `localhost:${new URL(worker().url).port}`
    const created = await requestAs(
      local,
      'POST',
      '/api/v1/links',
      JSON.stringify({ title: 'Port', amount: 100, language: 'en' }),
    )
    expect(created.status).toBe(201)
    const link = JSON.parse(created.body) as { slug: string; url: string }
    expect(link.url).toBe(`http://${local}/l/${link.slug}`)
  })

  it('protects the checkout with the ALTCHA proof of work, each solution good once', async () => {
    await worker().restart({ CAPTCHA: 'altcha' }, 'dev')
    const created = await fetch(`${worker().url}/api/v1/links`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': WORKER_ADMIN_TOKEN },
      body: JSON.stringify({ title: 'Captcha', amount: 100, language: 'en' }),
    })
    expect(created.status).toBe(201)
    const { slug } = (await created.json()) as { slug: string }
    const html = await (await fetch(`${worker().url}/l/${slug}`)).text()
    const url = /data-url="([^"]+)"/.exec(html)?.[1] ?? ''
    const challenge = (await (await fetch(`${worker().url}${url}`)).json()) as {
      challenge: string
      salt: string
      algorithm: string
      maxnumber: number
    }
    const solution = await solveChallenge(
      challenge.challenge,
      challenge.salt,
      challenge.algorithm,
      challenge.maxnumber,
    ).promise
    const fields = {
      name: 'Amina Benali',
      phone: '0555123456',
      email: 'amina@example.dz',
      terms: 'on',
      csrf: inputValue(html, 'csrf'),
      altcha: btoa(JSON.stringify({ ...challenge, number: solution?.number })),
    }
    expect((await postForm(`${worker().url}/l/${slug}`, { ...fields, altcha: '' })).status).toBe(
      400,
    )
    expect((await postForm(`${worker().url}/l/${slug}`, fields)).status).toBe(303)
    expect((await postForm(`${worker().url}/l/${slug}`, fields)).status).toBe(400)
  })

  it('never mounts the simulator outside simulator mode, even in the dev Worker', async () => {
    await worker().restart(
      {
        GATEWAY_MODE: 'sandbox',
        GATEWAY_SITE_URL: 'https://gateway.invalid',
        GATEWAY_API_URL: 'https://gateway.invalid/api/v1',
        MERCHANT_ACCOUNT: 'GCAZI7YBLIDJWIVEL7ETNAZGPP3LC24NO6KAOBWZHUERXQ7M5BC52DLV',
      },
      'dev',
    )
    expect((await fetch(`${worker().url}/healthz`)).status).toBe(200)
    expect((await fetch(`${worker().url}/_sim/_inspect/webhooks.json`)).status).toBe(404)
  })
})

/**
 * A merchant API request to the Worker as if sent to `host` (node:http: fetch sends the address
 * it connects to as Host, whatever the headers say).
 */
function requestAs(
  host: string,
  method: string,
  path: string,
  body?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${worker().url}${path}`,
      {
        method,
        headers: { host, 'content-type': 'application/json', 'x-api-key': WORKER_ADMIN_TOKEN },
      },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => {
          text += chunk
        })
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }))
      },
    )
    request.once('error', reject)
    request.end(body)
  })
}
