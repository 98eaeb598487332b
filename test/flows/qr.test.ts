import jsQR from 'jsqr'
import { PNG } from 'pngjs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'

let p: Paylinks
beforeEach(async () => {
  p = await startPaylinks()
})
afterEach(async () => {
  await p.close()
})

describe('QR codes and the poster', () => {
  it('serves a PNG that decodes to the link URL, with an ETag that answers 304', async () => {
    const link = await makeLink(p, { title: 'QR', amount: 100 })
    const res = await p.app.request(`/l/${link.slug}/qr.png`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/png')
    const png = PNG.sync.read(Buffer.from(await res.arrayBuffer()))
    expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(
      `${p.url}/l/${link.slug}`,
    )
    const etag = res.headers.get('etag') ?? ''
    expect(etag).toMatch(/^"[0-9a-f]+"$/)
    const again = await p.app.request(`/l/${link.slug}/qr.png`, {
      headers: { 'if-none-match': etag },
    })
    expect(again.status).toBe(304)
  })

  it('serves the SVG, and as a download when asked', async () => {
    const link = await makeLink(p, { title: 'QR', amount: 100 })
    const res = await p.app.request(`/l/${link.slug}/qr.svg?download`)
    expect(res.headers.get('content-type')).toContain('image/svg+xml')
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="paylink-${link.slug}.svg"`,
    )
    expect(await res.text()).toMatch(/^<svg [^>]*viewBox="0 0 \d+ \d+"/)
  })

  it('gives different links different ETags', async () => {
    const a = await makeLink(p, { title: 'A', amount: 100 })
    const b = await makeLink(p, { title: 'B', amount: 100 })
    const ea = (await p.app.request(`/l/${a.slug}/qr.svg`)).headers.get('etag')
    const eb = (await p.app.request(`/l/${b.slug}/qr.svg`)).headers.get('etag')
    expect(ea).not.toBe(eb)
  })

  it('prints a poster with the title, the amount, the QR code and the card marks in the link language', async () => {
    const link = await makeLink(p, { title: 'Café du coin', amount: 250, language: 'fr' })
    const html = await (await p.app.request(`/l/${link.slug}/poster`)).text()
    expect(html).toContain('Café du coin')
    expect(html).toMatch(/250,00\sDA/)
    expect(html).toContain('<svg xmlns="http://www.w3.org/2000/svg"')
    expect(html).toContain('aria-label="CIB / Edahabia"')
    expect(html).toContain('Scannez pour payer par carte')
    expect(html).toContain('size:A5')
  })

  it('answers 404 for the QR of an unknown link', async () => {
    expect((await p.app.request('/l/nope12345678/qr.png')).status).toBe(404)
  })
})
