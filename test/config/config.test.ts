import { describe, expect, it } from 'vitest'
import { ConfigError, parseConfig } from '../../src/config.js'
import { getPaymentById } from '../../src/data/payments.js'
import { makeLink, startPayment } from '../flows/support.js'
import { startPaylinks } from '../support/harness.js'

const ACCOUNT = 'GCAZI7YBLIDJWIVEL7ETNAZGPP3LC24NO6KAOBWZHUERXQ7M5BC52DLV'

function problems(env: Record<string, string>): string[] {
  try {
    parseConfig(env)
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
