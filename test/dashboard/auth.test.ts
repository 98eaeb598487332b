/** Signing in and out of the dashboard, the session cookie, form tokens, language and banner. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { SIMULATOR_MERCHANT_ACCOUNT } from '../../src/simulator/index.js'
import { type Paylinks, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'
import { Browser, csrfOf, manualClock, signedIn } from './helpers.js'

let paylinks: Paylinks | undefined
afterEach(async () => {
  await paylinks?.close()
  paylinks = undefined
})

async function start(options: Parameters<typeof startPaylinks>[0] = {}) {
  paylinks = await startPaylinks(options)
  return paylinks
}

const linkCount = (p: Paylinks) =>
  (p.sqlite.sqlite.prepare('SELECT count(*) AS n FROM links').get() as { n: number }).n

describe('signing in', () => {
  it('sends a signed-out browser to the login page from every dashboard page', async () => {
    const browser = new Browser(await start())
    for (const path of [
      '/dashboard',
      '/dashboard/links/new',
      '/dashboard/links/lnk_x',
      '/dashboard/payments',
      '/dashboard/payments.csv',
    ]) {
      const response = await browser.get(path)
      expect(response.status, path).toBe(303)
      expect(response.headers.get('location'), path).toBe('/dashboard/login')
    }
  })

  it('shows a login form with a password field and no secret on it', async () => {
    const p = await start()
    const response = await new Browser(p).get('/dashboard/login')
    const html = await response.text()
    expect(response.status).toBe(200)
    expect(html).toContain('type="password"')
    expect(html).toContain('name="token"')
    expect(csrfOf(html)).toMatch(/^[0-9a-z]+\.[\w-]+$/)
    expect(html).not.toContain(TEST_ADMIN_TOKEN)
    expect(html).not.toContain(p.deps.secrets.adminTokenHash)
    expect(html).not.toContain(p.deps.secrets.sessionSecret)
    expect(response.headers.get('cache-control')).toBe('no-store')
  })

  it('refuses a wrong token with 401 and sets no session', async () => {
    const browser = new Browser(await start(), { 'accept-language': 'en' })
    const response = await browser.login('not-the-admin-token-at-all')
    expect(response.status).toBe(401)
    expect(await response.text()).toContain('This token is not right.')
    expect(browser.jar.cookies.has('paylinks_session')).toBe(false)
    expect((await browser.get('/dashboard')).status).toBe(303)
  })

  it('refuses a login form without its token, even with the right admin token', async () => {
    const browser = new Browser(await start())
    const response = await browser.post('/dashboard/login', { token: TEST_ADMIN_TOKEN })
    expect(response.status).toBe(403)
    expect(browser.jar.cookies.has('paylinks_session')).toBe(false)
  })

  it('signs in with the right token: an HttpOnly, SameSite=Lax cookie on /dashboard for 12 hours', async () => {
    const browser = new Browser(await start())
    const response = await browser.login()
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe('/dashboard')
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('paylinks_session='))
    expect(cookie).toBeDefined()
    expect(cookie).toMatch(/; HttpOnly/)
    expect(cookie).toMatch(/; SameSite=Lax/)
    expect(cookie).toMatch(/; Path=\/dashboard/)
    expect(cookie).toMatch(/; Max-Age=43200/)
    // PUBLIC_URL is plain http in this test, where a Secure cookie would never come back.
    expect(cookie).not.toMatch(/; Secure/)
    expect(cookie).not.toContain(TEST_ADMIN_TOKEN)
    const home = await browser.get('/dashboard')
    expect(home.status).toBe(200)
  })

  it('marks the cookie Secure when PUBLIC_URL is https, and shows no test banner in live mode', async () => {
    const p = await start({
      http: true,
      env: {
        GATEWAY_MODE: 'live',
        PUBLIC_URL: 'https://pay.example.dz',
        MERCHANT_ACCOUNT: SIMULATOR_MERCHANT_ACCOUNT,
      },
    })
    const browser = new Browser(p, { 'accept-language': 'en' })
    const login = await browser.get('/dashboard/login')
    expect(await login.text()).not.toContain('Test mode')
    const response = await browser.login()
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('paylinks_session='))
    expect(cookie).toMatch(/; Secure/)
  })

  it('ends the session after 12 hours', async () => {
    const clock = manualClock()
    const browser = await signedIn(await start({ clock }))
    clock.advance(12 * 60 * 60_000 - 1000)
    expect((await browser.get('/dashboard')).status).toBe(200)
    clock.advance(2000)
    const response = await browser.get('/dashboard')
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe('/dashboard/login')
  })

  it('keeps sessions across a restart, and signs everyone out when the admin token changes', async () => {
    const databasePath = join(mkdtempSync(join(tmpdir(), 'paylinks-rotate-')), 'paylinks.db')
    const first = await startPaylinks({ databasePath })
    const cookie = (await signedIn(first)).jar.cookies.get('paylinks_session')!
    await first.close()
    const visit = async (p: Paylinks) => {
      const browser = new Browser(p)
      browser.jar.cookies.set('paylinks_session', cookie)
      return (await browser.get('/dashboard')).status
    }
    const restarted = await startPaylinks({ databasePath })
    expect(await visit(restarted)).toBe(200)
    await restarted.close()
    // A leaked token is replaced: every session signed in with the old one ends with it.
    paylinks = await start({
      databasePath,
      env: { ADMIN_TOKEN: 'a-brand-new-admin-token-9876543210' },
    })
    expect(await visit(paylinks)).toBe(303)
    rmSync(dirname(databasePath), { recursive: true, force: true })
  })

  it('does not accept a forged, altered or signed-out session cookie', async () => {
    const p = await start()
    const real = await signedIn(p)
    const token = real.jar.cookies.get('paylinks_session')!
    // Altered in its first character, so it never equals the real one.
    const altered = `${token.startsWith('A') ? 'B' : 'A'}${token.slice(1)}`
    for (const forged of [altered, `${token}x`, token.slice(1), 'anything']) {
      const browser = new Browser(p)
      browser.jar.cookies.set('paylinks_session', forged)
      expect((await browser.get('/dashboard')).status).toBe(303)
    }
    // A session that signed out stays ended, though its cookie is presented again.
    const copy = new Browser(p)
    copy.jar.cookies.set('paylinks_session', token)
    expect((await copy.get('/dashboard')).status).toBe(200)
    await real.submit('/dashboard', '/dashboard/logout')
    expect((await copy.get('/dashboard')).status).toBe(303)
  })
})

describe('guessing the admin token at the login', () => {
  const MIN = 60_000
  const wrong = 'wrong-token-wrong-token'

  it('refuses every sign-in from an address after 10 wrong tokens in five minutes, with 429 and Retry-After', async () => {
    const clock = manualClock()
    const p = await start({ clock })
    const browser = new Browser(p, { 'x-test-ip': '198.51.100.7', 'accept-language': 'en' })
    for (let i = 0; i < 10; i++) expect((await browser.login(wrong)).status).toBe(401)
    clock.advance(MIN)
    // The right token too: a guesser must not go on guessing until one guess is right.
    const limited = await browser.login()
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('240')
    expect(await limited.text()).toContain(
      'Too many wrong tokens. Sign-in is refused for now: try again in 4 minutes.',
    )
    expect(browser.jar.cookies.has('paylinks_session')).toBe(false)
    const french = new Browser(p, { 'x-test-ip': '198.51.100.7', 'accept-language': 'fr' })
    expect(await (await french.login()).text()).toContain('Trop de jetons erronés')
    // Another address is not affected, and the address may sign in once the window is over.
    expect((await new Browser(p, { 'x-test-ip': '198.51.100.8' }).login()).status).toBe(303)
    clock.advance(4 * MIN)
    expect((await browser.login()).status).toBe(303)
  })

  it('counts only wrong tokens: right ones and forms without their form token are not counted', async () => {
    const browser = new Browser(await start(), { 'x-test-ip': '198.51.100.9' })
    for (let i = 0; i < 15; i++) {
      expect((await browser.login()).status).toBe(303)
      browser.jar.cookies.delete('paylinks_session')
      expect((await browser.post('/dashboard/login', { token: wrong })).status).toBe(403)
    }
    for (let i = 0; i < 9; i++) expect((await browser.login(wrong)).status).toBe(401)
    expect((await browser.login()).status).toBe(303)
  })

  it('refuses a throttled sign-in before reading the form', async () => {
    const p = await start()
    const browser = new Browser(p, { 'x-test-ip': '198.51.100.10' })
    for (let i = 0; i < 10; i++) await browser.login(wrong)
    let read = false
    // Pulled only when something reads the body (no chunk is asked for in advance).
    const body = new ReadableStream(
      {
        pull(controller) {
          read = true
          controller.enqueue(new TextEncoder().encode(`token=${TEST_ADMIN_TOKEN}`))
          controller.close()
        },
      },
      { highWaterMark: 0 },
    )
    const res = await p.app.request('/dashboard/login', {
      method: 'POST',
      body,
      duplex: 'half',
      headers: {
        'x-test-ip': '198.51.100.10',
        'content-type': 'application/x-www-form-urlencoded',
      },
    } as RequestInit)
    expect(res.status).toBe(429)
    expect(read).toBe(false)
  })

  it('after 100 wrong tokens from many addresses, refuses every sign-in for 5 minutes, then 10 when it recurs', async () => {
    const clock = manualClock()
    const p = await start({ clock })
    const guessFrom = async (block: number) => {
      for (let a = 0; a < 10; a++) {
        const bot = new Browser(p, { 'x-test-ip': `203.0.${block}.${a}` })
        for (let i = 0; i < 10; i++) expect((await bot.login(wrong)).status).toBe(401)
      }
    }
    await guessFrom(113)
    const merchant = new Browser(p, { 'x-test-ip': '192.0.2.1', 'accept-language': 'en' })
    const refused = await merchant.login()
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('300')
    expect(await refused.text()).toContain('try again in 5 minutes')
    clock.advance(5 * MIN)
    expect((await merchant.login()).status).toBe(303)
    await guessFrom(114)
    const again = await new Browser(p, { 'x-test-ip': '192.0.2.2' }).login()
    expect(again.status).toBe(429)
    expect(again.headers.get('retry-after')).toBe('600')
  })
})

describe('signing out', () => {
  it('clears the cookie and the dashboard asks to sign in again', async () => {
    const browser = await signedIn(await start())
    const response = await browser.submit('/dashboard', '/dashboard/logout')
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe('/dashboard/login?out')
    expect(response.headers.getSetCookie().join('\n')).toMatch(/paylinks_session=; Max-Age=0/)
    expect(browser.jar.cookies.has('paylinks_session')).toBe(false)
    expect((await browser.get('/dashboard')).status).toBe(303)
    expect(await (await browser.get('/dashboard/login?out')).text()).toContain(
      'You are logged out.',
    )
  })

  it('refuses to sign out without the form token', async () => {
    const browser = await signedIn(await start())
    expect((await browser.post('/dashboard/logout', {})).status).toBe(403)
    expect((await browser.get('/dashboard')).status).toBe(200)
  })
})

describe('form tokens', () => {
  const form = { title: 'Should not exist', pricing: 'fixed', amount: '1500', language: 'fr' }

  it('answers 403 and changes nothing when a form has no token', async () => {
    const p = await start()
    const browser = await signedIn(p)
    const response = await browser.post('/dashboard/links', form)
    expect(response.status).toBe(403)
    expect(await response.text()).toContain('This form has expired')
    expect(linkCount(p)).toBe(0)
  })

  it('answers 403 for a forged token or one from another session', async () => {
    const p = await start()
    const browser = await signedIn(p)
    const other = await signedIn(p)
    const good = await browser.formToken('/dashboard/links/new')
    const theirs = await other.formToken('/dashboard/links/new')
    for (const _csrf of [
      `${good.slice(0, -3)}${good.endsWith('xyz') ? 'abc' : 'xyz'}`,
      theirs,
      '',
    ]) {
      expect((await browser.post('/dashboard/links', { ...form, _csrf })).status).toBe(403)
    }
    expect(linkCount(p)).toBe(0)
    expect((await browser.post('/dashboard/links', { ...form, _csrf: good })).status).toBe(303)
    expect(linkCount(p)).toBe(1)
  })

  it('refuses a token once its session has been replaced by a new login', async () => {
    const clock = manualClock()
    const p = await start({ clock })
    const browser = await signedIn(p)
    const old = await browser.formToken('/dashboard/links/new')
    clock.advance(1000)
    browser.jar.cookies.delete('paylinks_session')
    expect((await browser.login()).status).toBe(303)
    expect((await browser.post('/dashboard/links', { ...form, _csrf: old })).status).toBe(403)
    expect(linkCount(p)).toBe(0)
  })
})

describe('languages and the test banner', () => {
  it('renders Arabic right to left with ?lang=ar and keeps the choice on the next page', async () => {
    const browser = await signedIn(await start())
    const html = await (await browser.get('/dashboard/links?lang=ar')).text()
    expect(html).toContain('<html lang="ar" dir="rtl">')
    expect(html).toContain('روابط الدفع')
    const next = await (await browser.get('/dashboard/payments')).text()
    expect(next).toContain('<html lang="ar" dir="rtl">')
  })

  it('follows Accept-Language, then DEFAULT_LANGUAGE', async () => {
    const p = await start({ env: { DEFAULT_LANGUAGE: 'fr' } })
    const french = await new Browser(p).get('/dashboard/login')
    expect(await french.text()).toContain('<html lang="fr" dir="ltr">')
    const english = await new Browser(p, { 'accept-language': 'en-GB,en;q=0.9' }).get(
      '/dashboard/login',
    )
    expect(await english.text()).toContain('Sign in to the dashboard')
  })

  it('offers a language switcher that keeps the page', async () => {
    const browser = await signedIn(await start())
    const html = await (await browser.get('/dashboard/payments?status=paid')).text()
    expect(html).toContain('href="/dashboard/payments?status=paid&amp;lang=ar"')
    expect(html).toContain('href="/dashboard/payments?status=paid&amp;lang=fr"')
  })

  it('carries the test-mode banner on every page in simulator mode', async () => {
    const p = await start()
    expect(
      await (await new Browser(p, { 'accept-language': 'en' }).get('/dashboard/login')).text(),
    ).toContain('Test mode — no real money is moved')
    const browser = await signedIn(p)
    for (const path of ['/dashboard', '/dashboard/links/new', '/dashboard/payments']) {
      expect(await (await browser.get(path)).text(), path).toContain('role="note"')
    }
  })

  it('keeps to the content security policy: nonce on style and script, no style attributes', async () => {
    const p = await start()
    const browser = await signedIn(p)
    await browser.submit('/dashboard/links/new', '/dashboard/links', {
      title: 'Café',
      pricing: 'fixed',
      amount: '1500',
      language: 'fr',
    })
    const id = p.sqlite.sqlite.prepare('SELECT id FROM links').get() as { id: string }
    for (const path of ['/dashboard', `/dashboard/links/${id.id}`, '/dashboard/links/new']) {
      const response = await browser.get(path)
      const html = await response.text()
      const nonce = /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')
      expect(nonce, path).not.toBeNull()
      expect(html).not.toMatch(/\sstyle="/)
      expect(html).not.toMatch(/\son[a-z]+="/)
      for (const tag of html.match(/<(style|script)[^>]*>/g) ?? []) {
        expect(tag).toContain(`nonce="${nonce![1]}"`)
      }
    }
  })
})
