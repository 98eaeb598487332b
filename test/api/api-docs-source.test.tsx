/**
 * The OpenAPI document and docs page are made once with slots and filled per deployment and per
 * answer (src/api/api-docs-source.ts); the Worker fills text it reads from its static assets, Node
 * text it generated. Both must give what the generator gives for the real URL and nonce.
 */
import { describe, expect, it } from 'vitest'
import {
  apiDocsFrom,
  fillDocument,
  fillPage,
  NONCE_SLOT,
  PUBLIC_URL_SLOT,
} from '../../src/api/api-docs-source.js'
import { apiDocsTemplates } from '../../src/api/api-docs-templates.js'
import { openApiDocument } from '../../src/api/openapi.js'
import { ApiDocsPage } from '../../views/api-docs.js'

const render = async (publicUrl: string, nonce: string) => {
  const page = (<ApiDocsPage doc={openApiDocument(publicUrl)} nonce={nonce} />) as {
    toString(): unknown
  }
  return String(await page.toString())
}

describe('the API document templates', () => {
  it('fill into exactly what the generator makes for the public URL and the nonce', async () => {
    const templates = await apiDocsTemplates()
    const url = 'https://pay.example.dz'
    expect(JSON.parse(fillDocument(templates.documentJson, url))).toEqual(openApiDocument(url))
    expect(fillPage(templates.pageHtml, url, 'n0nce+/=')).toBe(await render(url, 'n0nce+/='))
  })

  it('hold each slot, and nothing else names a placeholder', async () => {
    const templates = await apiDocsTemplates()
    expect(templates.documentJson).toContain(PUBLIC_URL_SLOT)
    expect(templates.pageHtml).toContain(`nonce="${NONCE_SLOT}"`)
    // The curl examples carry the server too.
    expect(templates.pageHtml.split(PUBLIC_URL_SLOT).length).toBeGreaterThan(3)
    const filled = fillPage(templates.pageHtml, 'https://a.example', 'n')
    expect(filled).not.toContain('paylinks.invalid')
    expect(filled).not.toContain(NONCE_SLOT)
  })

  it('escape the public URL for JSON and HTML, and drop its trailing slashes as the server', () => {
    const url = 'https://pay.example.dz/a"b<c>&d\'//'
    const json = fillDocument(`{"url":"${PUBLIC_URL_SLOT}/api"}`, url)
    expect(JSON.parse(json)).toEqual({ url: 'https://pay.example.dz/a"b<c>&d\'/api' })
    const html = fillPage(
      `<code>${PUBLIC_URL_SLOT}</code><style nonce="${NONCE_SLOT}">`,
      url,
      'x"y',
    )
    expect(html).toBe(
      '<code>https://pay.example.dz/a&quot;b&lt;c&gt;&amp;d&#39;</code><style nonce="x&quot;y">',
    )
  })

  it('load their templates once, and again after a load that failed', async () => {
    let loads = 0
    const docs = apiDocsFrom(async () => {
      loads++
      if (loads === 1) throw new Error('asset unavailable')
      return { documentJson: `{"servers":[{"url":"${PUBLIC_URL_SLOT}"}]}`, pageHtml: 'page' }
    })
    await expect(docs.document('https://a.example')).rejects.toThrow('asset unavailable')
    expect(await docs.document('https://a.example')).toEqual({
      servers: [{ url: 'https://a.example' }],
    })
    expect(await docs.page('https://a.example', 'n')).toBe('page')
    expect(await docs.document('https://b.example')).toEqual({
      servers: [{ url: 'https://b.example' }],
    })
    expect(loads).toBe(2)
  })
})
