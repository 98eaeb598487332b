/** What a visitor sees when something fails that nothing handles: a page in their language. */
import { afterEach, describe, expect, it } from 'vitest'
import { type Paylinks, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { startPayment } from './support.js'

let p: Paylinks
afterEach(async () => {
  await p.close()
})

describe('an unhandled error', () => {
  it('gives the customer a page in their language with a reference, the API a JSON body', async () => {
    p = await startPaylinks()
    const link = await makeLink(p, { title: 'Thé', amount: 1500, language: 'fr' })
    const { receiptId } = await startPayment(p, link.slug)
    // A fault no route expects: the payments table is gone from under the running app.
    p.sqlite.sqlite.exec('ALTER TABLE payments RENAME TO payments_gone')

    const page = await p.app.request(`/r/${receiptId}?lang=ar`)
    expect(page.status).toBe(500)
    expect(page.headers.get('content-type')).toContain('text/html')
    const html = await page.text()
    expect(html).toContain('<html lang="ar" dir="rtl"')
    expect(html).toContain('حدث خطأ')
    const ref = page.headers.get('x-request-id') ?? ''
    expect(ref).not.toBe('')
    expect(html).toContain(`مرجع الخطأ: ${ref}`)
    expect(html).not.toContain('SqliteError')
    // Its inline style is allowed by the page's policy (the nonce is the request's).
    const nonce = /<style nonce="([^"]+)"/.exec(html)?.[1]
    expect(nonce).toBeTruthy()
    expect(page.headers.get('content-security-policy')).toContain(`'nonce-${nonce}'`)

    const fr = await p.app.request(`/r/${receiptId}`, {
      headers: { 'accept-language': 'fr-DZ,fr;q=0.9' },
    })
    expect(fr.status).toBe(500)
    expect(await fr.text()).toContain('Une erreur est survenue')

    const api = await p.app.request('/api/v1/payments', {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    })
    expect(api.status).toBe(500)
    expect(await api.json()).toMatchObject({ error: { code: 'internal' } })
  })
})
