/**
 * Property tests over the settings page's forms (signed in, with the session's form token):
 * whatever the fields hold and whatever bytes are uploaded as the logo, the answer is a page or a
 * redirect, never a 5xx; a refused form stores nothing; a stored logo is always one whose bytes
 * are PNG, JPEG or WebP.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { branding, logo } from '../../db/schema.js'
import { readLogo } from '../../src/domain/logo-image.js'
import { type Paylinks, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'
import { pngLogo } from '../support/images.js'
import { fieldValue, inheritedNames, nastyText, numericText } from './arbitraries.js'

const RUNS = { numRuns: 100 }
const FIELDS = [
  'merchant_name',
  'brand_color',
  'contact_phone',
  'contact_email',
  'contact_address',
  'terms_url',
  'terms_ar',
  'terms_fr',
  'terms_en',
  'default_language',
  'receipt_footer',
  'till_link_minutes',
] as const

let p: Paylinks
let cookie = ''
let formToken = ''
let caller = 0

const asText = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))
const hiddenToken = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? ''

function request(path: string, init: { method?: string; body?: BodyInit; type?: string } = {}) {
  return p.app.request(path, {
    method: init.method ?? 'GET',
    ...(init.body ? { body: init.body } : {}),
    headers: {
      cookie,
      'x-test-ip': `settings-${++caller}`,
      ...(init.type ? { 'content-type': init.type } : {}),
    },
  })
}

beforeAll(async () => {
  p = await startPaylinks()
  const login = await request('/dashboard/login')
  // The sign-in form's token is bound to this pre-session cookie.
  cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
  const signedIn = await request('/dashboard/login', {
    method: 'POST',
    body: new URLSearchParams({ _csrf: hiddenToken(await login.text()), token: TEST_ADMIN_TOKEN }),
    type: 'application/x-www-form-urlencoded',
  })
  expect(signedIn.status).toBe(303)
  cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
  formToken = hiddenToken(await (await request('/dashboard/settings')).text())
  expect(formToken).not.toBe('')
}, 60_000)

afterAll(async () => {
  await p.close()
})

async function expectPageOrRedirect(res: Response) {
  expect(res.status).toBeLessThan(500)
  if (res.status === 303) expect(res.headers.get('location')).toMatch(/^\/dashboard\/settings/)
  else expect(res.headers.get('content-type')).toContain('text/html')
  await res.text()
}

const stored = async () => ({
  branding: await p.deps.db.select().from(branding),
  logo: await p.deps.db.select().from(logo),
})

describe('the settings form', () => {
  const value = fc.oneof(
    { weight: 3, arbitrary: fieldValue.map(asText) },
    { weight: 2, arbitrary: numericText },
    { weight: 2, arbitrary: fc.constantFrom('#0b5cad', '#ffd400', 'ar', 'https://x.dz/t', '') },
  )
  const anyForm = fc
    .tuple(
      fc.dictionary(fc.constantFrom(...FIELDS), value),
      fc.dictionary(fc.oneof(nastyText, inheritedNames), value, { maxKeys: 2 }),
    )
    .map(([known, stray]) => ({ ...stray, ...known }))

  it('answers a page or a redirect, and a refusal stores nothing', async () => {
    await fc.assert(
      fc.asyncProperty(anyForm, async (fields) => {
        const before = await stored()
        const form = new URLSearchParams(fields)
        form.set('_csrf', formToken)
        const res = await request('/dashboard/settings', {
          method: 'POST',
          body: form,
          type: 'application/x-www-form-urlencoded',
        })
        if (res.status !== 303) expect(await stored()).toEqual(before)
        await expectPageOrRedirect(res)
      }),
      RUNS,
    )
  }, 120_000)
})

describe('the logo upload', () => {
  const png = pngLogo(32, 16)
  const bytes = fc.oneof(
    fc.uint8Array({ maxLength: 2000 }),
    // A real PNG with a few bytes changed, cut or appended.
    fc
      .tuple(
        fc.nat(png.length - 1),
        fc.integer({ min: 0, max: 255 }),
        fc.uint8Array({ maxLength: 40 }),
      )
      .map(([at, b, tail]) => {
        const copy = new Uint8Array([...png, ...tail])
        copy[at] = b
        return copy
      }),
    fc.nat(png.length).map((n) => png.subarray(0, n)),
  )
  const declared = fc.constantFrom(
    'image/png',
    'image/svg+xml',
    'text/html',
    'application/octet-stream',
    '',
  )

  it('stores only images whose bytes are PNG, JPEG or WebP, and never answers 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(bytes, declared, nastyText, async (file, type, name) => {
        const before = await stored()
        const form = new FormData()
        form.set('_csrf', formToken)
        form.set('logo', new Blob([file as Uint8Array<ArrayBuffer>], { type }), name || 'x')
        const res = await request('/dashboard/settings/logo', { method: 'POST', body: form })
        if (res.status === 303) {
          const [row] = await p.deps.db.select().from(logo)
          expect(row && readLogo(row.bytes).ok).toBe(true)
        } else expect(await stored()).toEqual(before)
        await expectPageOrRedirect(res)
      }),
      RUNS,
    )
  }, 120_000)
})
