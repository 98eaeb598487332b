/**
 * Property tests over the merchant dashboard's forms: the login form, the new-link and edit-link
 * forms (signed in, with the session's form token) and the payment filters. Whatever arrives: a
 * page or a redirect, never a 5xx, and a refused form changes nothing.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Paylinks, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { fieldValue, inheritedNames, nastyText, numericText } from './arbitraries.js'
import { fingerprint } from './support.js'

const RUNS = { numRuns: 120 }
const LINK_FORM_FIELDS = [
  'title',
  'description',
  'pricing',
  'amount',
  'invoice_id',
  'amount_min',
  'amount_max',
  'items',
  'max_payments',
  'expires_at',
  'language',
  'memo',
  'success_message',
  'success_url',
  'active',
  'inactive_message',
] as const

let p: Paylinks
let now = Date.UTC(2026, 5, 1, 9, 0, 0)
let cookie = ''
let formToken = ''
let linkId = ''
let caller = 0

const asText = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))
const hiddenToken = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? ''

function request(path: string, init: { method?: string; form?: URLSearchParams } = {}) {
  return p.app.request(path, {
    method: init.method ?? 'GET',
    ...(init.form ? { body: init.form } : {}),
    headers: {
      cookie,
      'x-test-ip': `dash-${++caller}`,
      ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
  })
}

beforeAll(async () => {
  p = await startPaylinks({ clock: () => now })
  linkId = (await makeLink(p, { title: 'Existing', amount: 2500 })).id
  const login = await request('/dashboard/login')
  // The sign-in form's token is bound to this pre-session cookie.
  cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
  const signedIn = await request('/dashboard/login', {
    method: 'POST',
    form: new URLSearchParams({ _csrf: hiddenToken(await login.text()), token: TEST_ADMIN_TOKEN }),
  })
  expect(signedIn.status).toBe(303)
  cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
  formToken = hiddenToken(await (await request('/dashboard/links/new')).text())
  expect(formToken).not.toBe('')
}, 60_000)

afterAll(async () => {
  await p.close()
})

/** A dashboard answer: a page or a redirect inside the dashboard. */
async function expectPageOrRedirect(res: Response) {
  expect(res.status).toBeLessThan(500)
  if (res.status === 303) expect(res.headers.get('location')).toMatch(/^\/dashboard/)
  else expect(res.headers.get('content-type')).toContain('text/html')
  await res.text()
}

describe('the login form', () => {
  it('signs in with the admin token only, answers a page otherwise, and changes nothing', async () => {
    const signedOut = cookie
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(nastyText, numericText),
        fc.constantFrom('valid', 'forged', 'missing'),
        async (token, csrf) => {
          cookie = ''
          const login = await request('/dashboard/login')
          cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
          const form = new URLSearchParams({ token })
          if (csrf === 'valid') form.set('_csrf', hiddenToken(await login.text()))
          if (csrf === 'forged') form.set('_csrf', `${now.toString(36)}.forged`)
          const before = fingerprint(p.sqlite.sqlite)
          const res = await request('/dashboard/login', { method: 'POST', form })
          expect(res.status).not.toBe(303)
          await expectPageOrRedirect(res)
          expect(fingerprint(p.sqlite.sqlite)).toEqual(before)
        },
      ),
      RUNS,
    )
    cookie = signedOut
  }, 60_000)
})

describe('the link forms', () => {
  const formValue = fc.oneof(
    { weight: 3, arbitrary: fieldValue.map(asText) },
    { weight: 2, arbitrary: numericText },
    { weight: 1, arbitrary: fc.constantFrom('fixed', 'open', 'items', 'on', '') },
    {
      weight: 1,
      arbitrary: fc.constantFrom('Carton | 2 | 750', 'x | y | z', '|||', 'Carton | 1e9 | -1'),
    },
  )
  const anyForm = fc
    .tuple(
      fc.dictionary(fc.constantFrom(...LINK_FORM_FIELDS), formValue),
      fc.dictionary(fc.oneof(nastyText, inheritedNames), formValue, { maxKeys: 2 }),
    )
    .map(([known, stray]) => ({ ...stray, ...known }))
  // A valid form with one or two hostile changes, so some runs save.
  const nearValid = fc
    .dictionary(fc.oneof(fc.constantFrom(...LINK_FORM_FIELDS), inheritedNames), formValue, {
      maxKeys: 2,
    })
    .map((changes) => ({
      title: 'Commande',
      pricing: 'fixed',
      amount: '1500',
      language: 'fr',
      active: 'on',
      ...changes,
    }))
  const linkForm = fc.oneof(anyForm, nearValid)

  it.each([
    ['POST /dashboard/links (new link)', () => '/dashboard/links'],
    ['POST /dashboard/links/:id (edit)', () => `/dashboard/links/${linkId}`],
  ])(
    '%s: never a 5xx, and a refused form changes nothing',
    async (_, path) => {
      await fc.assert(
        fc.asyncProperty(linkForm, fc.boolean(), async (fields, withToken) => {
          now += 61_000
          const form = new URLSearchParams(Object.entries(fields))
          if (withToken) form.set('_csrf', formToken)
          const before = fingerprint(p.sqlite.sqlite)
          const res = await request(path(), { method: 'POST', form })
          const saved = res.status === 303
          await expectPageOrRedirect(res)
          if (!saved || !withToken) expect(fingerprint(p.sqlite.sqlite)).toEqual(before)
        }),
        RUNS,
      )
    },
    60_000,
  )
})

describe('the payment filters', () => {
  it('shows the list or says which filter is wrong, never a 5xx, and changes nothing', async () => {
    const name = fc.oneof(
      fc.constantFrom('status', 'link', 'from', 'to', 'cursor', 'lang'),
      nastyText,
    )
    const value = fc.oneof(
      fieldValue.map(asText),
      fc.constantFrom('paid', 'pending', '2026-06-01', '2026-13-45', linkId),
    )
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(name, value), { maxLength: 5 }), async (pairs) => {
        const before = fingerprint(p.sqlite.sqlite)
        for (const path of ['/dashboard/payments', '/dashboard/payments.csv']) {
          const res = await request(`${path}?${new URLSearchParams(pairs)}`)
          expect(res.status).toBeLessThan(500)
          await res.text()
        }
        expect(fingerprint(p.sqlite.sqlite)).toEqual(before)
      }),
      RUNS,
    )
  }, 60_000)
})
