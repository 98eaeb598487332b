/**
 * The warm-up a Worker runs while its isolate starts (src/worker-warm.tsx): the first checkout
 * request's code on made-up inputs. workerd refuses random values while an isolate starts, and the
 * warm-up must neither log nor reach the database; a part that breaks must show, not be skipped.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { parseConfig } from '../../src/config.js'
import { altchaCaptcha } from '../../src/security/captcha.js'
import { warmFirstRequest } from '../../src/worker-warm.js'

const config = parseConfig(
  {
    GATEWAY_MODE: 'sandbox',
    PUBLIC_URL: 'https://pay.example.dz',
    GATEWAY_SITE_URL: 'https://gateway.invalid',
    MERCHANT_ACCOUNT: 'GCAZI7YBLIDJWIVEL7ETNAZGPP3LC24NO6KAOBWZHUERXQ7M5BC52DLV',
    ADMIN_TOKEN: 'warm-admin-token-0123456789abcdef',
  },
  { runtime: 'workers' },
)

afterEach(() => {
  vi.restoreAllMocks()
})

/** What workerd does with random values asked for while an isolate starts. */
function refuseRandomValues() {
  const refuse = () => {
    throw new Error('Disallowed operation called within global scope')
  }
  return [
    vi.spyOn(crypto, 'getRandomValues').mockImplementation(refuse),
    vi.spyOn(crypto, 'randomUUID').mockImplementation(refuse),
  ]
}

describe('the warm-up of a starting Worker', () => {
  it('runs the checkout page and the link query without random values or a log line', async () => {
    const random = refuseRandomValues()
    const output = [vi.spyOn(console, 'log'), vi.spyOn(console, 'warn'), vi.spyOn(console, 'error')]
    await expect(warmFirstRequest({ config, captcha: altchaCaptcha() })).resolves.toBeUndefined()
    await expect(warmFirstRequest({ config, captcha: undefined })).resolves.toBeUndefined()
    for (const spy of [...random, ...output]) expect(spy).not.toHaveBeenCalled()
  })

  it('fails when a part it runs fails, instead of skipping it', async () => {
    const captcha = {
      ...altchaCaptcha(),
      widget: () => {
        throw new Error('widget broke')
      },
    }
    await expect(warmFirstRequest({ config, captcha })).rejects.toThrow('widget broke')
  })
})
