/**
 * The sign-in forms against login CSRF: a POST from another site (by `Origin`, else
 * `Sec-Fetch-Site`) is refused with a 403 page in the page's language, and a form token is good
 * only with the pre-session cookie of the browser it was given to. And the two-factor set-up
 * key stays the same until it is confirmed: across reloads, a language switch, a new sign-in.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { Browser, csrfOf, manualClock, signedIn } from '../dashboard/helpers.js'
import { type Paylinks, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'
import {
  accept,
  invite,
  PASSWORD,
  passwordLogin,
  pendingOf,
  recoveryCodesOf,
  secretOf,
  totp,
} from './people-support.js'

let paylinks: Paylinks | undefined
afterEach(async () => {
  await paylinks?.close()
  paylinks = undefined
})

async function start(env?: Record<string, string>) {
  const clock = manualClock()
  paylinks = await startPaylinks({ clock, ...(env ? { env } : {}) })
  return { p: paylinks, clock }
}

async function withOwner(p: Paylinks) {
  const admin = await signedIn(p)
  const { browser } = await accept(p, await invite(admin, 'owner@shop.dz', 'owner'), 'Owner')
  return { admin, owner: browser }
}

const users = (p: Paylinks) =>
  (p.sqlite.sqlite.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n

/** Posts a form with the browser's cookies and exactly the headers given (no Origin added). */
function rawPost(b: Browser, path: string, form: Record<string, string>, headers = {}) {
  return b.paylinks.app.request(path, {
    method: 'POST',
    headers: {
      ...b.headers,
      ...headers,
      cookie: b.jar.header(),
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(form),
  })
}

describe('login CSRF', () => {
  it('refuses a sign-in posted from another site with 403 in the page language, and signs nobody in', async () => {
    const { p } = await start()
    await withOwner(p)
    const b = new Browser(p, { 'accept-language': 'fr' })
    const _csrf = await b.formToken('/dashboard/login')
    const form = { email: 'owner@shop.dz', password: PASSWORD, _csrf }
    const foreign = await b.request('/dashboard/login/password', {
      method: 'POST',
      headers: {
        origin: 'https://attacker.example',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(form),
    })
    expect(foreign.status).toBe(403)
    expect(await foreign.text()).toContain('envoyé depuis un autre site')
    expect(b.jar.cookies.has('paylinks_session')).toBe(false)
    // Without Origin, the browser's Sec-Fetch-Site tells.
    const crossSite = await rawPost(b, '/dashboard/login/password', form, {
      'sec-fetch-site': 'cross-site',
    })
    expect(crossSite.status).toBe(403)
    const sibling = await rawPost(
      b,
      '/dashboard/login',
      { token: TEST_ADMIN_TOKEN, _csrf },
      {
        'sec-fetch-site': 'same-site',
      },
    )
    expect(sibling.status).toBe(403)
    expect(b.jar.cookies.has('paylinks_session')).toBe(false)
    // From the dashboard's own page it signs in: its no-referrer policy makes browsers send
    // `Origin: null` there, and Sec-Fetch-Site tells; or the Origin itself.
    const own = await rawPost(b, '/dashboard/login/password', form, {
      origin: 'null',
      'sec-fetch-site': 'same-origin',
    })
    expect(own.status).toBe(303)
    expect((await b.post('/dashboard/login/password', form)).status).toBe(303)
  })

  it('refuses a form token obtained by another browser, with or without a cookie of its own', async () => {
    const { p } = await start()
    await withOwner(p)
    const attacker = new Browser(p, { 'accept-language': 'en' })
    const token = await attacker.formToken('/dashboard/login')
    const victim = new Browser(p, { 'accept-language': 'en' })
    const noCookie = await victim.post('/dashboard/login/password', {
      email: 'owner@shop.dz',
      password: PASSWORD,
      _csrf: token,
    })
    expect(noCookie.status).toBe(403)
    await victim.get('/dashboard/login')
    expect(victim.jar.cookies.has('paylinks_presession')).toBe(true)
    for (const [path, form] of [
      ['/dashboard/login/password', { email: 'owner@shop.dz', password: PASSWORD }],
      ['/dashboard/login', { token: TEST_ADMIN_TOKEN }],
    ] as const) {
      const refused = await victim.post(path, { ...form, _csrf: token })
      expect(refused.status, path).toBe(403)
    }
    expect(victim.jar.cookies.has('paylinks_session')).toBe(false)
    // The attacker's own browser may use it.
    const own = await attacker.post('/dashboard/login/password', {
      email: 'owner@shop.dz',
      password: PASSWORD,
      _csrf: token,
    })
    expect(own.status).toBe(303)
  })

  it('guards the second step and accepting an invitation the same way', async () => {
    const { p, clock } = await start()
    const { admin, owner } = await withOwner(p)
    // The second step: two-factor on, a pending sign-in, a code posted from elsewhere.
    const page = await (await owner.get('/dashboard/account/two-factor')).text()
    const secret = secretOf(page)
    await owner.post('/dashboard/account/two-factor', {
      _csrf: csrfOf(page),
      code: totp(secret, clock()),
    })
    clock.advance(30_000)
    const b = new Browser(p, { 'accept-language': 'en' })
    const step = await (await passwordLogin(b, 'owner@shop.dz')).text()
    const form = { _csrf: csrfOf(step), pending: pendingOf(step), code: totp(secret, clock()) }
    const other = new Browser(p, { 'accept-language': 'en' })
    await other.get('/dashboard/login')
    expect((await other.post('/dashboard/login/code', form)).status).toBe(403)
    const foreign = await rawPost(b, '/dashboard/login/code', form, {
      origin: 'https://attacker.example',
    })
    expect(foreign.status).toBe(403)
    expect((await b.post('/dashboard/login/code', form)).status).toBe(303)
    // An invitation accepted from another site creates nobody.
    const link = await invite(admin, 'new@shop.dz', 'viewer')
    const guest = new Browser(p, { 'accept-language': 'en' })
    const _csrf = csrfOf(await (await guest.get(link)).text())
    const before = users(p)
    const refused = await rawPost(
      guest,
      link,
      { name: 'N', password: PASSWORD, _csrf },
      // (a sandboxed frame on another site sends `Origin: null`, and says it is cross-site)
      { origin: 'null', 'sec-fetch-site': 'cross-site' },
    )
    expect(refused.status).toBe(403)
    expect(users(p)).toBe(before)
  })

  it('keeps the pre-session cookie HttpOnly, SameSite=Lax on /dashboard, and Secure over https', async () => {
    const { p } = await start({ PUBLIC_URL: 'https://pay.example.dz' })
    const login = await new Browser(p).get('/dashboard/login')
    const cookie = login.headers.getSetCookie().find((c) => c.startsWith('paylinks_presession='))
    expect(cookie).toMatch(/; HttpOnly/)
    expect(cookie).toMatch(/; SameSite=Lax/)
    expect(cookie).toMatch(/; Path=\/dashboard/)
    expect(cookie).toMatch(/; Secure/)
    // Behind a proxy that ends TLS, the request's own host is the dashboard's too.
    const b = new Browser(p)
    const _csrf = await b.formToken('/dashboard/login')
    const proxied = await rawPost(
      b,
      '/dashboard/login',
      { token: TEST_ADMIN_TOKEN, _csrf },
      {
        origin: 'https://localhost',
      },
    )
    expect(proxied.status).toBe(303)
  })
})

describe('the two-factor set-up key', () => {
  it('stays the same on the account page across reloads and a language switch, and its code confirms', async () => {
    const { p, clock } = await start()
    const { owner } = await withOwner(p)
    const first = secretOf(await (await owner.get('/dashboard/account/two-factor')).text())
    const again = secretOf(await (await owner.get('/dashboard/account/two-factor')).text())
    const french = await (await owner.get('/dashboard/account/two-factor?lang=fr')).text()
    expect(again).toBe(first)
    expect(secretOf(french)).toBe(first)
    const on = await owner.post('/dashboard/account/two-factor', {
      _csrf: csrfOf(french),
      code: totp(first, clock()),
    })
    expect(on.status).toBe(200)
    expect(recoveryCodesOf(await on.text())).toHaveLength(10)
  })

  it('stays the same when the store requires it at sign-in, signing in again in another language', async () => {
    const { p, clock } = await start()
    const { owner } = await withOwner(p)
    await accept(p, await invite(owner, 'c@shop.dz', 'cashier'), 'C')
    const on = await owner.submit('/dashboard/people', '/dashboard/people/require-two-factor', {
      require: 'on',
    })
    expect(on.status).toBe(303)
    const b = new Browser(p, { 'accept-language': 'en' })
    const shown = await (await passwordLogin(b, 'c@shop.dz')).text()
    const secret = secretOf(shown)
    // The language switcher leads to the sign-in page; signing in again shows the same key.
    await b.get('/dashboard/login?lang=ar')
    const arabic = await (await passwordLogin(b, 'c@shop.dz')).text()
    expect(arabic).toContain('lang="ar"')
    expect(secretOf(arabic)).toBe(secret)
    const done = await b.post('/dashboard/login/enrol', {
      _csrf: csrfOf(arabic),
      pending: pendingOf(arabic),
      code: totp(secret, clock()),
    })
    expect(done.status).toBe(200)
    expect((await b.get('/dashboard/payments')).status).toBe(200)
  })
})
