/**
 * The whole people story over the app with a real SQLite file: the admin token invites the first
 * owner, who invites a cashier and a viewer; each accepts and signs in and is refused what their
 * role excludes; the viewer sets up two-factor sign-in with codes computed here; replayed codes
 * and spent recovery codes are refused; wrong passwords are throttled per account and per
 * address; signing out everywhere ends sessions; the audit log shows each step.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { Browser, manualClock, signedIn } from '../dashboard/helpers.js'
import { type Paylinks, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'
import {
  accept,
  auditRows,
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

async function start(options: Parameters<typeof startPaylinks>[0]) {
  paylinks = await startPaylinks(options)
  return paylinks
}

const NOT_ALLOWED = 'Not allowed for your role'
const linkCount = (p: Paylinks) =>
  (p.sqlite.sqlite.prepare('SELECT count(*) AS n FROM links').get() as { n: number }).n

describe('people, roles and two-factor sign-in', () => {
  it('goes from the admin token to an owner, a cashier and a viewer, each held to their role', async () => {
    const clock = manualClock()
    const p = await start({ clock })
    const admin = await signedIn(p)

    // The admin token invites the first owner; the link is shown once.
    const ownerLink = await invite(admin, 'Owner@Shop.dz', 'owner')
    expect(ownerLink).toMatch(/^\/dashboard\/invite\/[0-9A-Za-z]{32}$/)
    expect(await (await admin.get('/dashboard/people')).text()).not.toContain(ownerLink)
    const { browser: owner, response: joined } = await accept(p, ownerLink, 'Nadia Owner')
    expect(joined.status).toBe(303)
    expect(joined.headers.get('location')).toBe('/dashboard')
    expect((await owner.get('/dashboard/people')).status).toBe(200)
    // An invitation works once.
    expect((await new Browser(p).get(ownerLink)).status).toBe(404)

    // The owner invites a cashier and a viewer; each accepts and lands on a page their role shows.
    const cashierLink = await invite(owner, 'cashier@shop.dz', 'cashier')
    const viewerLink = await invite(owner, 'viewer@shop.dz', 'viewer')
    const { browser: cashier, response: c1 } = await accept(p, cashierLink, 'Karim Cashier')
    expect(c1.headers.get('location')).toBe('/dashboard/till')
    const { browser: viewer, response: v1 } = await accept(p, viewerLink, 'Lina Viewer')
    expect(v1.headers.get('location')).toBe('/dashboard')

    // Pages: each is refused what the role excludes, and nothing changes; the dashboard's own
    // address sends the cashier on to the till.
    const root = await cashier.get('/dashboard')
    expect([root.status, root.headers.get('location')]).toEqual([302, '/dashboard/till'])
    for (const path of [
      '/dashboard/links',
      '/dashboard/links/new',
      '/dashboard/people',
      '/dashboard/webhooks',
      '/dashboard/payments.csv',
    ]) {
      const refused = await cashier.get(path)
      expect(refused.status, path).toBe(403)
      expect(await refused.text(), path).toContain(NOT_ALLOWED)
    }
    expect((await cashier.get('/dashboard/payments')).status).toBe(200)
    expect((await cashier.get('/dashboard/account')).status).toBe(200)
    for (const path of ['/dashboard/links/new', '/dashboard/people', '/dashboard/webhooks']) {
      expect((await viewer.get(path)).status, path).toBe(403)
    }
    for (const path of [
      '/dashboard',
      '/dashboard/links',
      '/dashboard/payments',
      '/dashboard/payments.csv',
    ]) {
      expect((await viewer.get(path)).status, path).toBe(200)
    }
    const before = linkCount(p)
    const create = await viewer.submit('/dashboard/account', '/dashboard/links', {
      kind: 'fixed',
      title: 'Not allowed',
      amount: '1500',
    })
    expect(create.status).toBe(403)
    expect(await create.text()).toContain(NOT_ALLOWED)
    const invited = await viewer.submit('/dashboard/account', '/dashboard/people/invites', {
      email: 'sneaky@shop.dz',
      role: 'owner',
    })
    expect(invited.status).toBe(403)
    expect(linkCount(p)).toBe(before)
    // The navigation shows only what the role allows.
    const nav = await (await cashier.get('/dashboard/payments')).text()
    expect(nav).not.toContain('href="/dashboard/links"')
    expect(nav).toContain('href="/dashboard/account"')

    // The API: a person's session or password is no API key; the admin token still is.
    expect((await cashier.get('/api/v1/links')).status).toBe(401)
    const api = await p.app.request('/api/v1/links', { headers: { 'x-api-key': PASSWORD } })
    expect(api.status).toBe(401)
    const byToken = await p.app.request('/api/v1/links', {
      headers: { 'x-api-key': TEST_ADMIN_TOKEN },
    })
    expect(byToken.status).toBe(200)

    // Signing out and in again with the password.
    expect((await cashier.submit('/dashboard/payments', '/dashboard/logout')).status).toBe(303)
    expect((await cashier.get('/dashboard/payments')).status).toBe(303)
    const again = await passwordLogin(cashier, 'CASHIER@shop.dz')
    expect(again.status).toBe(303)
    expect(again.headers.get('location')).toBe('/dashboard/till')

    // TOTP: the viewer scans the secret; the code is computed here, not by the app's code.
    const setUp = await viewer.get('/dashboard/account/two-factor')
    const setUpHtml = await setUp.text()
    expect(setUpHtml).toContain('<svg')
    const secret = secretOf(setUpHtml)
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    const wrong = await viewer.submit(
      '/dashboard/account/two-factor',
      '/dashboard/account/two-factor',
      { code: '000000' === totp(secret, clock()) ? '111111' : '000000' },
    )
    expect(wrong.status).toBe(400)
    // Reloading the set-up page shows the same key until it is confirmed.
    const fresh = await viewer.get('/dashboard/account/two-factor')
    const freshHtml = await fresh.text()
    const secret2 = secretOf(freshHtml)
    expect(secret2).toBe(secret)
    const enrolled = await viewer.post('/dashboard/account/two-factor', {
      code: totp(secret2, clock()),
      _csrf: /name="_csrf" value="([^"]+)"/.exec(freshHtml)![1]!,
    })
    expect(enrolled.status).toBe(200)
    const codes = recoveryCodesOf(await enrolled.text())
    expect(codes).toHaveLength(10)
    expect(await (await viewer.get('/dashboard/account')).text()).toContain('data-two-factor="on"')

    // Signing in now asks for a code; the step used at enrolment is refused (replay).
    const login2 = await new Browser(p, { 'accept-language': 'en' })
    const step1 = await passwordLogin(login2, 'viewer@shop.dz')
    expect(step1.status).toBe(200)
    expect(login2.jar.cookies.has('paylinks_session')).toBe(false)
    const step1Html = await step1.text()
    const pending = pendingOf(step1Html)
    const csrf = /name="_csrf" value="([^"]+)"/.exec(step1Html)![1]!
    const replay = await login2.post('/dashboard/login/code', {
      _csrf: csrf,
      pending,
      code: totp(secret2, clock()),
    })
    expect(replay.status).toBe(401)
    expect(login2.jar.cookies.has('paylinks_session')).toBe(false)
    clock.advance(30_000)
    const code = totp(secret2, clock())
    const passed = await login2.post('/dashboard/login/code', { _csrf: csrf, pending, code })
    expect(passed.status).toBe(303)
    expect((await login2.get('/dashboard/links')).status).toBe(200)
    // The same code again, on a fresh password step: refused.
    const login3 = new Browser(p, { 'accept-language': 'en' })
    const s3 = await (await passwordLogin(login3, 'viewer@shop.dz')).text()
    const r3 = await login3.post('/dashboard/login/code', {
      _csrf: /name="_csrf" value="([^"]+)"/.exec(s3)![1]!,
      pending: pendingOf(s3),
      code,
    })
    expect(r3.status).toBe(401)

    // A recovery code works once.
    const useRecovery = async () => {
      const b = new Browser(p, { 'accept-language': 'en', 'x-test-ip': '10.9.9.9' })
      const html = await (await passwordLogin(b, 'viewer@shop.dz')).text()
      return b.post('/dashboard/login/code', {
        _csrf: /name="_csrf" value="([^"]+)"/.exec(html)![1]!,
        pending: pendingOf(html),
        code: codes[3]!.toUpperCase(),
      })
    }
    expect((await useRecovery()).status).toBe(303)
    expect((await useRecovery()).status).toBe(401)
    // A pending token is no session, and it expires.
    clock.advance(5 * 60_000 + 1000)
    const late = await login2.post('/dashboard/login/code', {
      _csrf: csrf,
      pending,
      code: totp(secret2, clock()),
    })
    expect(late.status).toBe(400)

    // Log out everywhere (mine): the owner's other browser is signed out too.
    const ownerPhone = new Browser(p, { 'accept-language': 'en' })
    expect((await passwordLogin(ownerPhone, 'owner@shop.dz')).status).toBe(303)
    expect(
      (await owner.submit('/dashboard/account', '/dashboard/account/logout-everywhere')).status,
    ).toBe(303)
    expect((await ownerPhone.get('/dashboard/people')).status).toBe(303)
    expect((await owner.get('/dashboard/people')).status).toBe(303)
    expect((await viewer.get('/dashboard/links')).status).toBe(200)

    // The whole store: every session ends, admin-token ones included.
    const owner2 = new Browser(p, { 'accept-language': 'en' })
    await passwordLogin(owner2, 'owner@shop.dz')
    const adminAgain = await signedIn(p)
    expect(
      (await owner2.submit('/dashboard/people', '/dashboard/people/logout-everywhere')).status,
    ).toBe(303)
    for (const b of [owner2, adminAgain, viewer, login2, cashier]) {
      expect((await b.get('/dashboard/account')).status).toBe(303)
    }

    // The audit log shows each step; no password anywhere in it.
    const rows = auditRows(p)
    const actions = rows.map((r) => r.action)
    expect(actions.filter((a) => a === 'invite_created')).toHaveLength(3)
    expect(actions.filter((a) => a === 'invite_accepted')).toHaveLength(3)
    for (const action of [
      'login',
      'login_failed',
      'logout',
      'twofactor_enabled',
      'recovery_code_used',
      'logout_everywhere',
      'store_logout_everywhere',
    ]) {
      expect(actions, action).toContain(action)
    }
    const failed = rows.filter((r) => r.action === 'login_failed')
    expect(failed.every((r) => r.actor_kind === 'anonymous')).toBe(true)
    expect(failed.map((r) => r.actor_label)).toContain('viewer@shop.dz')
    const first = rows.find((r) => r.action === 'invite_created')!
    expect(first.actor_kind).toBe('admin')
    const text = JSON.stringify(rows)
    expect(text).not.toContain(PASSWORD)
    expect(text).not.toContain(secret2)
    for (const c of codes) expect(text).not.toContain(c)
  })

  it('locks an account after 5 wrong passwords from anywhere, and an address after 10 for any e-mails', async () => {
    const clock = manualClock()
    const p = await start({ clock })
    const admin = await signedIn(p)
    const { response } = await accept(p, await invite(admin, 'owner@shop.dz', 'owner'), 'Owner')
    expect(response.status).toBe(303)

    // Per account: five wrong passwords, each from its own address.
    for (let i = 0; i < 5; i++) {
      const b = new Browser(p, { 'accept-language': 'fr', 'x-test-ip': `10.0.0.${i + 1}` })
      const wrong = await passwordLogin(b, 'owner@shop.dz', `wrong password ${i}`)
      expect(wrong.status).toBe(401)
    }
    const locked = new Browser(p, { 'accept-language': 'fr', 'x-test-ip': '10.0.1.1' })
    const refused = await passwordLogin(locked, 'owner@shop.dz')
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await refused.text()).toContain(
      'Trop de mots de passe ou de codes erronés pour ce compte',
    )
    expect(locked.jar.cookies.has('paylinks_session')).toBe(false)
    // Another account from the same address is not affected; the admin token still opens.
    expect((await signedIn(p)).jar.cookies.has('paylinks_session')).toBe(true)
    clock.advance(15 * 60_000)
    expect((await passwordLogin(locked, 'owner@shop.dz')).status).toBe(303)

    // Per address: ten wrong passwords for ten e-mails (unknown ones count the same).
    const guesser = new Browser(p, { 'accept-language': 'en', 'x-test-ip': '192.0.2.7' })
    for (let i = 0; i < 10; i++) {
      expect((await passwordLogin(guesser, `nobody${i}@shop.dz`, 'guess guess guess')).status).toBe(
        401,
      )
    }
    const blocked = await passwordLogin(guesser, 'owner@shop.dz')
    expect(blocked.status).toBe(429)
    expect(await blocked.text()).toContain('try again in')
    const elsewhere = new Browser(p, { 'accept-language': 'en', 'x-test-ip': '192.0.2.8' })
    expect((await passwordLogin(elsewhere, 'owner@shop.dz')).status).toBe(303)
    const labels = auditRows(p)
      .filter((r) => r.action === 'login_failed')
      .map((r) => r.actor_label)
    expect(labels).toContain('nobody3@shop.dz')
    expect(JSON.stringify(labels)).not.toContain('guess guess')
  })
})
