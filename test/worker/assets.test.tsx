/**
 * The deployed Worker reads the dashboard's words and stylesheet, the /terms page's texts and the
 * API's document from its static assets (src/runtime/worker/assets.ts) instead of carrying them: what it
 * serves from them is what Node serves from the code. (The e-mails' texts: mail.test.ts; the till's
 * script: till.test.ts.)
 */
import { describe, expect, it } from 'vitest'
import { openApiDocument } from '../../src/api/openapi.js'
import { dashTranslator } from '../../src/dashboard/messages.js'
import { TERMS_TEXTS } from '../../src/i18n/terms.js'
import { ApiDocsPage } from '../../views/api-docs.js'
import { DASHBOARD_CSS } from '../../views/dashboard/styles.js'
import { useWorker } from './support.js'

const worker = useWorker(
  {
    GATEWAY_MODE: 'sandbox',
    GATEWAY_SITE_URL: 'https://gateway.invalid',
    MERCHANT_ACCOUNT: 'GCAZI7YBLIDJWIVEL7ETNAZGPP3LC24NO6KAOBWZHUERXQ7M5BC52DLV',
  },
  'production',
)

/** The nonce the answer's Content-Security-Policy allows. */
const nonceOf = (res: Response) =>
  /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1]

describe('the deployed Worker’s static assets', () => {
  it('give the dashboard its words in each language and its stylesheet under the nonce', async () => {
    for (const lang of ['ar', 'fr', 'en'] as const) {
      const res = await fetch(`${worker().url}/dashboard/login?lang=${lang}`)
      expect(res.status).toBe(200)
      const nonce = nonceOf(res)
      const html = await res.text()
      const t = dashTranslator(lang)
      expect(html).toContain(`<html lang="${lang}" dir="${t('dir')}">`)
      expect(html).toContain(t('loginTitle'))
      expect(html).toContain(`<style nonce="${nonce}">${DASHBOARD_CSS}</style>`)
    }
  })

  it('give the /terms page its texts in each language', async () => {
    const escaped = (text: string) =>
      text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&#39;')
    for (const lang of ['ar', 'fr', 'en'] as const) {
      const res = await fetch(`${worker().url}/terms?lang=${lang}`)
      expect(res.status).toBe(200)
      const html = await res.text()
      expect(html).toContain(`<p>${escaped(TERMS_TEXTS[lang].online)}</p>`)
      expect(html).toContain(`<p>${escaped(TERMS_TEXTS[lang].merchant)}</p>`)
    }
  })

  it('serve the OpenAPI document with this Worker as its server', async () => {
    const res = await fetch(`${worker().url}/api/v1/openapi.json`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await res.json()).toEqual(openApiDocument(worker().url))
  })

  it('serve the docs page as Node renders it, with the answer’s own nonce', async () => {
    const res = await fetch(`${worker().url}/api/docs`)
    expect(res.status).toBe(200)
    const nonce = nonceOf(res)
    expect(nonce).toMatch(/^[\w+/=-]{16,}$/)
    const page = (<ApiDocsPage doc={openApiDocument(worker().url)} nonce={nonce!} />) as {
      toString(): unknown
    }
    expect(await res.text()).toBe(String(await page.toString()))
  })

  it('are not reachable at their own paths: every request reaches the Worker', async () => {
    for (const path of ['/api/openapi.json', '/dashboard/words-en.json', '/dashboard/styles.css']) {
      const res = await fetch(`${worker().url}${path}`, { redirect: 'manual' })
      // The app's own answers: a 404 under /api, the way to the login page under /dashboard.
      expect([res.status, res.headers.get('location')]).toEqual(
        path.startsWith('/api/') ? [404, null] : [303, '/dashboard/login'],
      )
      expect(res.headers.get('x-request-id')).toBeTruthy()
    }
  })
})
