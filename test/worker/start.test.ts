/**
 * Starting on Workers: the admin token generated when no ADMIN_TOKEN secret is set (shown once,
 * in the log stream), and live mode refusing a configuration that lacks what it needs.
 */
import { solveChallenge } from 'altcha-lib/v1'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sha256Hex } from '../../src/security/tokens.js'
import {
  inputValue,
  postForm,
  startWorker,
  WORKER_ADMIN_TOKEN,
  type WorkerPaylinks,
} from './support.js'

let w: WorkerPaylinks

beforeAll(async () => {
  w = await startWorker({ ADMIN_TOKEN: '' })
}, 120_000)

afterAll(async () => {
  await w?.close()
})

const tokenLines = () => w.logs.filter((line) => line.includes('admin token'))

describe('starting Paylinks on Workers', () => {
  it('generates an admin token on the first request, logs it once and stores only its hash', async () => {
    expect((await fetch(`${w.url}/healthz`)).status).toBe(200)
    expect((await fetch(`${w.url}/healthz`)).status).toBe(200)
    const lines = tokenLines()
    expect(lines).toHaveLength(1)
    const token = /plk_[0-9A-Za-z]{32}/.exec(lines[0]!)?.[0]
    expect(token).toBeDefined()
    const stored = (await w.mf.getD1Database('DB'))
      .prepare("SELECT value FROM settings WHERE key = 'admin_token_sha256'")
      .first<{ value: string }>()
    expect((await stored)?.value).toBe(await sha256Hex(token!))
    expect(w.logs.filter((line) => line.includes(token!))).toHaveLength(1)

    // A new isolate finds the stored hash and shows nothing.
    await w.restart({ ADMIN_TOKEN: '' })
    expect((await fetch(`${w.url}/healthz`)).status).toBe(200)
    expect(tokenLines()).toHaveLength(1)
  })

  it('refuses to serve in live mode without the settings it needs, naming them in the log', async () => {
    await w.restart({ GATEWAY_MODE: 'live' })
    const res = await fetch(`${w.url}/l/anything`)
    expect(res.status).toBe(503)
    const text = await res.text()
    expect(text).toContain('wrangler tail')
    expect(text).not.toContain('MERCHANT_ACCOUNT')
    const failure = w.logs.find((line) => line.includes('"start_failed"'))
    expect(failure).toContain('MERCHANT_ACCOUNT: required in live mode')
    expect(failure).toContain('PUBLIC_URL: must start with https://')
    expect(failure).toContain('GATEWAY_SITE_URL: required in live mode')
  })

  it('protects the checkout with the ALTCHA proof of work, each solution good once', async () => {
    await w.restart({ CAPTCHA: 'altcha' })
    const created = await fetch(`${w.url}/api/v1/links`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': WORKER_ADMIN_TOKEN },
      body: JSON.stringify({ title: 'Captcha', amount: 100, language: 'en' }),
    })
    expect(created.status).toBe(201)
    const { slug } = (await created.json()) as { slug: string }
    const html = await (await fetch(`${w.url}/l/${slug}`)).text()
    const url = /data-url="([^"]+)"/.exec(html)?.[1] ?? ''
    const challenge = (await (await fetch(`${w.url}${url}`)).json()) as {
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
    expect((await postForm(`${w.url}/l/${slug}`, { ...fields, altcha: '' })).status).toBe(400)
    expect((await postForm(`${w.url}/l/${slug}`, fields)).status).toBe(303)
    expect((await postForm(`${w.url}/l/${slug}`, fields)).status).toBe(400)
  })

  it('never mounts the simulator outside simulator mode', async () => {
    await w.restart({
      GATEWAY_MODE: 'sandbox',
      GATEWAY_SITE_URL: 'https://gateway.invalid',
      GATEWAY_API_URL: 'https://gateway.invalid/api/v1',
    })
    expect((await fetch(`${w.url}/healthz`)).status).toBe(200)
    expect((await fetch(`${w.url}/_sim/_inspect/webhooks.json`)).status).toBe(404)
  })
})
