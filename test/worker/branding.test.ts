/**
 * The settings page on Workers (workerd, local D1 migrated by wrangler): the owner saves the
 * branding and a logo through the dashboard and the checkout page shows them at once; a change
 * written to D1 by someone else (another isolate) shows at once too, since the checkout reads the
 * branding's version with its link. The checkout still reads at most 5 rows.
 */
import type { D1Database } from '@cloudflare/workers-types/index.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pngLogo } from '../support/images.js'
import { T0 } from '../support/manual-time.js'
import { type MeteredWorker, startMeteredWorker } from './d1-meter.js'
import { inputValue, WORKER_ADMIN_TOKEN } from './support.js'

let w: MeteredWorker
let d1: D1Database
let cookie = ''
let page0Rows = 0
const SLUG = 'brandw0000001'

/** A request as a signed-in browser makes it (its session cookie, no redirect followed). */
async function browse(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers)
  if (cookie) headers.set('cookie', cookie)
  headers.set('accept-language', 'en')
  const res = await fetch(`${w.url}${path}`, { ...init, headers, redirect: 'manual' })
  for (const line of res.headers.getSetCookie()) {
    const pair = line.split(';')[0] as string
    if (pair.startsWith('paylinks_session=')) cookie = pair
    // The sign-in form's token is bound to the pre-session cookie until the session opens.
    if (pair.startsWith('paylinks_presession=') && !cookie) cookie = pair
  }
  return res
}

async function csrf(path: string): Promise<string> {
  return inputValue(await (await browse(path)).text(), '_csrf')
}

beforeAll(async () => {
  w = await startMeteredWorker()
  d1 = (await w.mf.getD1Database('DB')) as unknown as D1Database
  await d1
    .prepare(
      `INSERT INTO links (id, slug, title, amount, language, created_at, updated_at)
       VALUES ('lnk_brandw', ?1, 'Cahier', 150000, 'en', ?2, ?2)`,
    )
    .bind(SLUG, T0)
    .run()
  const login = await browse('/dashboard/login', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: WORKER_ADMIN_TOKEN, _csrf: await csrf('/dashboard/login') }),
  })
  expect(login.status).toBe(303)
}, 180_000)

afterAll(async () => {
  await w?.close()
})

describe('settings on Workers', () => {
  it('shows the environment’s name until settings are saved, reading at most 5 rows', async () => {
    const page = await w.get(`/l/${SLUG}`)
    expect(page.status).toBe(200)
    expect(page.body).not.toContain('Librairie El Amel')
    expect(page.tally.rowsRead).toBeLessThanOrEqual(5)
    page0Rows = page.tally.rowsRead
  })

  it('shows what the dashboard saves on the next checkout page', async () => {
    await w.get(`/l/${SLUG}`)
    const res = await browse('/dashboard/settings', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        _csrf: await csrf('/dashboard/settings'),
        merchant_name: 'Librairie El Amel',
        brand_color: '#1f6f43',
        contact_email: 'contact@elamel.dz',
        till_link_minutes: '10',
      }),
    })
    expect(res.status).toBe(303)
    const changed = await w.get(`/l/${SLUG}`)
    expect(changed.body).toContain('Librairie El Amel')
    expect(changed.body).toContain('button,.btn{background:#1f6f43}')
    // The page after a change reads the branding row once more; the next ones do not.
    const next = await w.get(`/l/${SLUG}`)
    expect(next.body).toBe(changed.body)
    expect(next.tally.rowsRead).toBeLessThanOrEqual(5)
    expect(next.tally.statements).toBe(1)
    // Two rows: the link and the branding's version, before and after a change.
    expect(next.tally.rowsRead).toBe(page0Rows)
  })

  it('shows a logo uploaded through the dashboard, served from D1 with its headers', async () => {
    const png = pngLogo(160, 64)
    const form = new FormData()
    form.set('_csrf', await csrf('/dashboard/settings'))
    form.set('logo', new Blob([png as Uint8Array<ArrayBuffer>], { type: 'image/png' }), 'logo.png')
    const res = await browse('/dashboard/settings/logo', { method: 'POST', body: form })
    expect(res.status).toBe(303)
    const page = await w.get(`/l/${SLUG}`)
    const src = /<img class="logo" src="([^"]+)"/.exec(page.body)?.[1] ?? ''
    expect(src).toMatch(/^\/brand\/logo\/[0-9a-f]{64}\.png$/)
    const logo = await fetch(`${w.url}${src}`)
    expect(logo.status).toBe(200)
    expect(logo.headers.get('content-type')).toBe('image/png')
    expect(logo.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(logo.headers.get('x-content-type-options')).toBe('nosniff')
    expect(new Uint8Array(await logo.arrayBuffer())).toEqual(png)
  })

  it('refuses an SVG logo on Workers too, storing nothing new', async () => {
    const form = new FormData()
    form.set('_csrf', await csrf('/dashboard/settings'))
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
    form.set('logo', new Blob([svg], { type: 'image/png' }), 'logo.png')
    const res = await browse('/dashboard/settings/logo', { method: 'POST', body: form })
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('not a PNG, JPEG or WebP')
    const rows = await d1.prepare('SELECT count(*) AS n FROM logo').first<{ n: number }>()
    expect(rows?.n).toBe(1)
  })

  it('shows a change another isolate wrote to D1 on the next checkout page', async () => {
    await w.get(`/l/${SLUG}`)
    // What another isolate's settings page writes: the row and a new version, in one statement.
    await d1
      .prepare(
        `UPDATE branding SET merchant_name = 'Papeterie Nour', brand_color = '#5b21b6',
         version = version + 1 WHERE id = 1`,
      )
      .run()
    const page = await w.get(`/l/${SLUG}`)
    expect(page.body).toContain('Papeterie Nour')
    expect(page.body).toContain('button,.btn{background:#5b21b6}')
    const again = await w.get(`/l/${SLUG}`)
    expect(again.body).toBe(page.body)
    expect(again.tally.rowsRead).toBeLessThanOrEqual(5)
  })
})
