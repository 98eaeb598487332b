/**
 * A link's QR images (`qr_svg_url`, `qr_png_url` in the API) are meant to be shown elsewhere: on
 * the merchant's own site, in a shop's order page. Chromium on another origin must display them,
 * and may fetch them (to inline the SVG or draw the PNG on a canvas).
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { closeContexts, describeInChromium, launchChromium } from './support.js'

let p: Paylinks
let browser: Browser
let shop: Server
let shopUrl: string
let slug: string

describeInChromium('QR images on another site', () => {
  beforeAll(async () => {
    p = await startPaylinks({ http: true })
    slug = (await makeLink(p, { title: 'Embedded', amount: 1500 })).slug
    const qr = `${p.url}/l/${slug}/qr`
    // The merchant's shop: another origin (another port) with the two images on its page.
    shop = createServer((_req, res) => {
      res.setHeader('Content-Type', 'text/html; charset=utf-8')
      res.end(
        `<!doctype html><title>Shop</title><img id="svg" src="${qr}.svg" alt=""><img id="png" src="${qr}.png" alt="">`,
      )
    })
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve))
    shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/`
    browser = await launchChromium()
  })

  afterAll(async () => {
    await closeContexts(browser)
    await new Promise((resolve) => shop?.close(resolve))
    await p?.close()
  })

  it('are displayed by a page of another origin, and can be fetched from it', async () => {
    expect(new URL(shopUrl).origin).not.toBe(new URL(p.url).origin)
    const page = await browser.newPage()
    await page.goto(shopUrl, { waitUntil: 'load' })
    const widths = await page.evaluate(() =>
      ['svg', 'png'].map((id) => (document.getElementById(id) as HTMLImageElement).naturalWidth),
    )
    expect(widths.every((w) => w > 0)).toBe(true)
    const fetched = await page.evaluate(async (url) => {
      const res = await fetch(url)
      return { status: res.status, svg: (await res.text()).startsWith('<svg') }
    }, `${p.url}/l/${slug}/qr.svg`)
    expect(fetched).toEqual({ status: 200, svg: true })
    await page.close()
  })
})
