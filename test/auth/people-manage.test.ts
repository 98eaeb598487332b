/**
 * The people page and the account page beyond the main story: roles, removal, the last owner,
 * revoked and expired invitations, the two-factor requirement (set up before anything else),
 * changing the password, turning two-factor off, new recovery codes, and hostile forms.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { Browser, csrfOf, manualClock, signedIn } from '../dashboard/helpers.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
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

async function start(clock = manualClock()) {
  paylinks = await startPaylinks({ clock })
  return { p: paylinks, clock }
}

const userId = (p: Paylinks, email: string) =>
  (p.sqlite.sqlite.prepare('SELECT id FROM users WHERE email = ?').get(email) as { id: string }).id

/** An owner signed in, invited by the admin token. */
async function withOwner(p: Paylinks) {
  const admin = await signedIn(p)
  const { browser } = await accept(p, await invite(admin, 'owner@shop.dz', 'owner'), 'Owner')
  return { admin, owner: browser }
}

describe('managing people', () => {
  it('changes a role at once, removes a person (ending their sessions) and keeps the last owner', async () => {
    const { p } = await start()
    const { owner } = await withOwner(p)
    const { browser: viewer } = await accept(p, await invite(owner, 'v@shop.dz', 'viewer'), 'V')
    expect((await viewer.get('/dashboard/links/new')).status).toBe(403)
    const id = userId(p, 'v@shop.dz')
    const changed = await owner.submit('/dashboard/people', `/dashboard/people/${id}/role`, {
      role: 'manager',
    })
    expect(changed.status).toBe(303)
    expect((await viewer.get('/dashboard/links/new')).status).toBe(200)

    // The only owner cannot demote or remove themselves.
    const me = userId(p, 'owner@shop.dz')
    const demote = await owner.submit('/dashboard/people', `/dashboard/people/${me}/role`, {
      role: 'viewer',
    })
    expect(demote.status).toBe(409)
    expect(await demote.text()).toContain('only owner')
    expect((await owner.submit('/dashboard/people', `/dashboard/people/${me}/remove`)).status).toBe(
      409,
    )
    const bad = await owner.submit('/dashboard/people', `/dashboard/people/${id}/role`, {
      role: 'god',
    })
    expect(bad.status).toBe(400)

    const removed = await owner.submit('/dashboard/people', `/dashboard/people/${id}/remove`)
    expect(removed.status).toBe(303)
    expect((await viewer.get('/dashboard/account')).status).toBe(303)
    expect((await passwordLogin(new Browser(p), 'v@shop.dz')).status).toBe(401)
    const actions = auditRows(p).map((r) => r.action)
    expect(actions).toContain('role_changed')
    expect(actions).toContain('user_removed')
  })

  it('keeps an owner when the two owners demote, or remove, each other at once', async () => {
    const { p } = await start()
    for (const act of ['role', 'remove'] as const) {
      const admin = await signedIn(p)
      const a = await accept(p, await invite(admin, `a-${act}@shop.dz`, 'owner'), 'A')
      const b = await accept(p, await invite(admin, `b-${act}@shop.dz`, 'owner'), 'B')
      // The first owner of the store (the earlier round's survivor) steps aside: two are left.
      p.sqlite.sqlite
        .prepare("UPDATE users SET role = 'viewer' WHERE role = 'owner' AND email NOT LIKE ?")
        .run(`%-${act}@shop.dz`)
      const ids = [userId(p, `a-${act}@shop.dz`), userId(p, `b-${act}@shop.dz`)]
      const forms = await Promise.all(
        [a.browser, b.browser].map((browser) => browser.formToken('/dashboard/people')),
      )
      const form = (i: number) => ({
        _csrf: forms[i]!,
        ...(act === 'role' ? { role: 'cashier' } : {}),
      })
      // Both requests are under way together on the one database: each passed its role check.
      const answers = await Promise.all([
        a.browser.post(`/dashboard/people/${ids[1]}/${act}`, form(0)),
        b.browser.post(`/dashboard/people/${ids[0]}/${act}`, form(1)),
      ])
      expect(answers.map((r) => r.status).sort(), act).toEqual([303, 409])
      const owners = p.sqlite.sqlite
        .prepare("SELECT count(*) AS n FROM users WHERE role = 'owner'")
        .get() as { n: number }
      expect(owners.n, act).toBe(1)
    }
  })

  it('signs one person out everywhere from the people page', async () => {
    const { p } = await start()
    const { owner } = await withOwner(p)
    const { browser: cashier } = await accept(p, await invite(owner, 'c@shop.dz', 'cashier'), 'C')
    const id = userId(p, 'c@shop.dz')
    expect((await owner.submit('/dashboard/people', `/dashboard/people/${id}/logout`)).status).toBe(
      303,
    )
    expect((await cashier.get('/dashboard/payments')).status).toBe(303)
    expect((await owner.get('/dashboard/people')).status).toBe(200)
  })

  it('refuses revoked and expired invitations, and a bad e-mail, in the page language', async () => {
    const { p, clock } = await start()
    const admin = await signedIn(p)
    const revokedLink = await invite(admin, 'r@shop.dz', 'viewer')
    const html = await (await admin.get('/dashboard/people')).text()
    const inviteId = /\/dashboard\/people\/invites\/(inv_[0-9A-Za-z]+)\/revoke/.exec(html)![1]!
    const revoked = await admin.submit(
      '/dashboard/people',
      `/dashboard/people/invites/${inviteId}/revoke`,
    )
    expect(revoked.status).toBe(303)
    expect((await new Browser(p).get(revokedLink)).status).toBe(404)
    const expiring = await invite(admin, 'e@shop.dz', 'viewer')
    clock.advance(7 * 86_400_000 + 1)
    const admin2 = await signedIn(p)
    expect((await new Browser(p).get(expiring)).status).toBe(404)
    const french = new Browser(p, { 'accept-language': 'fr' })
    await french.login()
    const badEmail = await french.submit('/dashboard/people', '/dashboard/people/invites', {
      email: 'not an e-mail',
      role: 'viewer',
    })
    expect(badEmail.status).toBe(400)
    expect(await badEmail.text()).toContain('Saisissez une adresse e-mail valide.')
    expect((await admin2.get('/dashboard/people')).status).toBe(200)
  })

  it('refuses a weak password when accepting, and creates nobody', async () => {
    const { p } = await start()
    const admin = await signedIn(p)
    const link = await invite(admin, 'w@shop.dz', 'viewer')
    const { response } = await accept(p, link, 'W', 'short')
    expect(response.status).toBe(400)
    expect(await response.text()).toContain('at least 12 characters')
    const { response: common } = await accept(p, link, 'W', 'password1234')
    expect(common.status).toBe(400)
    const n = p.sqlite.sqlite.prepare('SELECT count(*) AS n FROM users').get() as { n: number }
    expect(n.n).toBe(0)
    expect((await accept(p, link, 'W')).response.status).toBe(303)
  })
})

describe('the two-factor requirement', () => {
  it('makes a person without two-factor set it up before any page', async () => {
    const { p, clock } = await start()
    const { owner } = await withOwner(p)
    const link = await invite(owner, 'c@shop.dz', 'cashier')
    const on = await owner.submit('/dashboard/people', '/dashboard/people/require-two-factor', {
      require: 'on',
    })
    expect(on.status).toBe(303)
    // Accepting leads to the set-up page, with no session yet.
    const { browser, response } = await accept(p, link, 'C')
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(browser.jar.cookies.has('paylinks_session')).toBe(false)
    expect(html).toContain('requires two-factor sign-in')
    const secret = secretOf(html)
    const done = await browser.post('/dashboard/login/enrol', {
      _csrf: csrfOf(html),
      pending: pendingOf(html),
      code: totp(secret, clock()),
    })
    expect(done.status).toBe(200)
    expect(recoveryCodesOf(await done.text())).toHaveLength(10)
    expect((await browser.get('/dashboard/payments')).status).toBe(200)
    // Once required, it cannot be turned off.
    clock.advance(30_000)
    const off = await browser.submit(
      '/dashboard/account',
      '/dashboard/account/two-factor/disable',
      {
        code: totp(secret, clock()),
      },
    )
    expect(off.status).toBe(409)
    // The owner, signing in again without two-factor, must set it up too.
    const again = await passwordLogin(new Browser(p), 'owner@shop.dz')
    expect(again.status).toBe(200)
    expect(await again.text()).toContain('data-secret="totp"')
    expect(auditRows(p).some((r) => r.action === 'settings_changed')).toBe(true)
  })
})

describe('my account', () => {
  it('changes the password (the current one needed), ending the other sessions', async () => {
    const { p } = await start()
    const { owner } = await withOwner(p)
    const other = new Browser(p)
    expect((await passwordLogin(other, 'owner@shop.dz')).status).toBe(303)
    const wrong = await owner.submit('/dashboard/account', '/dashboard/account/password', {
      current: 'not my password at all',
      password: 'a brand new passphrase',
    })
    expect(wrong.status).toBe(401)
    const weak = await owner.submit('/dashboard/account', '/dashboard/account/password', {
      current: PASSWORD,
      password: 'short',
    })
    expect(weak.status).toBe(400)
    const changed = await owner.submit('/dashboard/account', '/dashboard/account/password', {
      current: PASSWORD,
      password: 'a brand new passphrase',
    })
    expect(changed.status).toBe(303)
    expect((await owner.get('/dashboard/account')).status).toBe(200)
    expect((await other.get('/dashboard/account')).status).toBe(303)
    expect((await passwordLogin(new Browser(p), 'owner@shop.dz')).status).toBe(401)
    expect(
      (await passwordLogin(new Browser(p), 'owner@shop.dz', 'a brand new passphrase')).status,
    ).toBe(303)
    expect(auditRows(p).map((r) => r.action)).toContain('password_changed')
  })

  it('turns two-factor off with a code, and renews recovery codes (the old ones stop working)', async () => {
    const { p, clock } = await start()
    const { owner } = await withOwner(p)
    const setUp = await (await owner.get('/dashboard/account/two-factor')).text()
    const secret = secretOf(setUp)
    const first = await owner.post('/dashboard/account/two-factor', {
      _csrf: csrfOf(setUp),
      code: totp(secret, clock()),
    })
    const oldCodes = recoveryCodesOf(await first.text())
    const renewed = await owner.submit('/dashboard/account', '/dashboard/account/recovery-codes', {
      confirm: PASSWORD,
    })
    const newCodes = recoveryCodesOf(await renewed.text())
    expect(newCodes).not.toEqual(oldCodes)
    const signIn = async (code: string) => {
      const b = new Browser(p)
      const html = await (await passwordLogin(b, 'owner@shop.dz')).text()
      return b.post('/dashboard/login/code', {
        _csrf: csrfOf(html),
        pending: pendingOf(html),
        code,
      })
    }
    expect((await signIn(oldCodes[0]!)).status).toBe(401)
    expect((await signIn(newCodes[0]!)).status).toBe(303)
    clock.advance(30_000)
    const wrongOff = await owner.submit(
      '/dashboard/account',
      '/dashboard/account/two-factor/disable',
      {
        code: '12',
      },
    )
    expect(wrongOff.status).toBe(400)
    const off = await owner.submit('/dashboard/account', '/dashboard/account/two-factor/disable', {
      code: totp(secret, clock()),
    })
    expect(off.status).toBe(303)
    expect((await passwordLogin(new Browser(p), 'owner@shop.dz')).status).toBe(303)
    const actions = auditRows(p).map((r) => r.action)
    expect(actions).toContain('twofactor_disabled')
    expect(actions).toContain('recovery_codes_renewed')
  })

  it('answers hostile sign-in forms with a 4xx and no session', async () => {
    const { p } = await start()
    await withOwner(p)
    const b = new Browser(p)
    const _csrf = await b.formToken('/dashboard/login')
    const forms: Record<string, string>[] = [
      { _csrf },
      { _csrf, email: 'owner@shop.dz' },
      { _csrf, email: 'x'.repeat(300), password: 'y' },
      { _csrf, email: 'owner@shop.dz', password: 'z'.repeat(5000) },
    ]
    for (const form of forms) {
      const answer = await b.post('/dashboard/login/password', form)
      expect(answer.status).toBeGreaterThanOrEqual(400)
      expect(answer.status).toBeLessThan(500)
    }
    const codes: Record<string, string>[] = [
      { _csrf },
      { _csrf, pending: 'usr_x~1.abc', code: '123456' },
    ]
    for (const form of codes) {
      expect((await b.post('/dashboard/login/code', form)).status).toBe(400)
    }
    expect((await b.post('/dashboard/login/enrol', { _csrf, pending: 'junk' })).status).toBe(400)
    expect(b.jar.cookies.has('paylinks_session')).toBe(false)
  })
})
