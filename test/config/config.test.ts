import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ConfigError, type ParseOptions, parseConfig } from '../../src/config.js'
import { getPaymentById } from '../../src/data/payments.js'
import { startPayment } from '../flows/support.js'
import { startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'

const ACCOUNT = 'GCAZI7YBLIDJWIVEL7ETNAZGPP3LC24NO6KAOBWZHUERXQ7M5BC52DLV'

function problems(env: Record<string, string>, options: ParseOptions = {}): string[] {
  try {
    parseConfig(env, options)
  } catch (error) {
    if (error instanceof ConfigError) return error.problems
    throw error
  }
  return []
}

describe('configuration', () => {
  it('runs on the embedded defaults with nothing set', () => {
    const config = parseConfig({})
    expect(config).toMatchObject({
      port: 8787,
      publicUrl: 'http://localhost:8787',
      databasePath: './data/paylinks.db',
      gatewayMode: 'simulator',
      gatewaySiteUrl: 'http://localhost:8787/_sim',
      gatewayApiUrl: 'http://localhost:8787/_sim/api/v1',
      defaultLanguage: 'ar',
      captcha: 'altcha',
      checkAmountUnit: 'centimes',
    })
  })

  it('names every bad setting at once, without echoing secrets', () => {
    const found = problems({
      PORT: 'eighty',
      GATEWAY_MODE: 'prod',
      MERCHANT_ACCOUNT: 'GABC',
      ADMIN_TOKEN: 'short-secret',
      CAPTCHA: 'google',
    })
    expect(found.map((p) => p.split(':')[0]).sort()).toEqual([
      'ADMIN_TOKEN',
      'CAPTCHA',
      'GATEWAY_MODE',
      'MERCHANT_ACCOUNT',
      'PORT',
    ])
    expect(found.join('\n')).not.toContain('short-secret')
  })

  it('refuses live mode without its account, an https public URL and the gateway address', () => {
    const found = problems({ GATEWAY_MODE: 'live', PUBLIC_URL: 'http://shop.example.dz' })
    expect(found.some((p) => p.startsWith('MERCHANT_ACCOUNT'))).toBe(true)
    expect(found.some((p) => p.startsWith('PUBLIC_URL: must start with https://'))).toBe(true)
    expect(found.some((p) => p.startsWith('GATEWAY_SITE_URL'))).toBe(true)
    expect(
      problems({
        GATEWAY_MODE: 'live',
        PUBLIC_URL: 'https://pay.example.dz',
        MERCHANT_ACCOUNT: ACCOUNT,
        GATEWAY_SITE_URL: 'https://www.sofizpay.com',
      }),
    ).toEqual([])
  })

  it('listens on loopback in simulator mode and on every interface with a real gateway, unless HOST says otherwise', () => {
    expect(parseConfig({}).host).toBe('127.0.0.1')
    expect(parseConfig({ GATEWAY_MODE: 'sandbox', MERCHANT_ACCOUNT: ACCOUNT }).host).toBe('0.0.0.0')
    expect(parseConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0')
    expect(
      parseConfig({ GATEWAY_MODE: 'sandbox', MERCHANT_ACCOUNT: ACCOUNT, HOST: '::1' }).host,
    ).toBe('::1')
  })

  it('refuses sandbox mode without its own merchant account, on either runtime', () => {
    for (const runtime of ['node', 'workers'] as const) {
      const env = { GATEWAY_MODE: 'sandbox', ADMIN_TOKEN: 'a-long-admin-token-123' }
      expect(problems(env, { runtime })).toEqual([
        'MERCHANT_ACCOUNT: required in sandbox mode — the ledger account (G…) that receives card payments',
      ])
    }
  })

  it('on Workers, refuses sandbox and live modes without ADMIN_TOKEN, which Node generates and prints instead', () => {
    const live = {
      GATEWAY_MODE: 'live',
      PUBLIC_URL: 'https://pay.example.dz',
      MERCHANT_ACCOUNT: ACCOUNT,
      GATEWAY_SITE_URL: 'https://www.sofizpay.com',
    }
    const onWorkers = (env: Record<string, string>) => problems(env, { runtime: 'workers' })
    expect(onWorkers(live)).toEqual([expect.stringMatching(/^ADMIN_TOKEN: required in live mode/)])
    expect(onWorkers({ GATEWAY_MODE: 'sandbox', MERCHANT_ACCOUNT: ACCOUNT })).toEqual([
      expect.stringMatching(/^ADMIN_TOKEN: required in sandbox mode/),
    ])
    expect(onWorkers({ ...live, ADMIN_TOKEN: 'a-long-admin-token-123' })).toEqual([])
    expect(problems(live)).toEqual([])
  })

  it('on Workers, serves simulator mode only on a loopback public URL; Node leaves that to HOST', () => {
    const onWorkers = (publicUrl: string) =>
      problems({ PUBLIC_URL: publicUrl }, { runtime: 'workers' }).map((p) => p.split(':')[0])
    for (const url of ['http://localhost:8787', 'http://127.0.0.1:9000', 'http://[::1]:8787'])
      expect(onWorkers(url)).toEqual([])
    for (const url of [
      'https://pay.example.dz',
      'http://192.168.1.10:8787',
      'http://127.0.0.1.nip.io',
    ])
      expect(onWorkers(url)).toEqual(['PUBLIC_URL'])
    expect(onWorkers('')).toEqual([])
    expect(problems({ PUBLIC_URL: 'http://192.168.1.10:8787' })).toEqual([])
  })

  it('hands the check amount unit to the gateway client', async () => {
    // The simulator answers in centimes: read as DZD, the amount no longer matches and the
    // approved payment must not count as paid.
    const p = await startPaylinks({ env: { GATEWAY_CHECK_AMOUNT_UNIT: 'dzd' } })
    try {
      const link = await makeLink(p, { title: 'Unit', amount: 1500 })
      const { tx, payment } = await startPayment(p, link.slug)
      await p.simulator.completePayment(tx.cibTransactionId, 'approved')
      await p.settle()
      const settled = await getPaymentById(p.deps.db, payment.id)
      expect(settled?.status).toBe('failed')
      expect(settled?.errorReason).toContain('amount')
    } finally {
      await p.close()
    }
  })
})

describe('the example settings files', () => {
  const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')
  // The configuration table's names: `| \`NAME\`, \`OTHER\` | meaning | default |`.
  const documented = new Set(
    [...read('README.md').matchAll(/^\| (`[A-Z_]+`(?:, `[A-Z_]+`)*) \|/gm)].flatMap((m) =>
      [...m[1]!.matchAll(/`([A-Z_]+)`/g)].map((n) => n[1]!),
    ),
  )

  it.each(['.dev.vars.example', 'prod.env.example'])(
    '%s names only settings the README’s configuration table explains',
    (file) => {
      const names = [...read(file).matchAll(/^(?:# )?([A-Z][A-Z_]+)=/gm)].map((m) => m[1]!)
      expect(names.length).toBeGreaterThan(5)
      expect(names.filter((name) => !documented.has(name))).toEqual([])
    },
  )

  it('prod.env.example sets every setting the production Worker refuses to start without', () => {
    const set = [...read('prod.env.example').matchAll(/^([A-Z][A-Z_]+)=/gm)].map((m) => m[1])
    for (const name of [
      'ADMIN_TOKEN',
      'GATEWAY_MODE',
      'PUBLIC_URL',
      'GATEWAY_SITE_URL',
      'MERCHANT_ACCOUNT',
    ])
      expect(set).toContain(name)
  })
})
