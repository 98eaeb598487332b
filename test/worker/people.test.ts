/**
 * People on the Worker, with local D1 migrated by wrangler (0018 included): the admin token
 * invites an owner, who accepts (the password hashed at the Workers' 100,000 iterations), signs
 * in with the password, sets up two-factor (the code computed with node:crypto) and signs in
 * with a code; the audit log in D1 shows each step.
 */
import { expect, it } from 'vitest'
import { auditLog, users } from '../../db/schema.js'
import { PASSWORD, pendingOf, recoveryCodesOf, secretOf, totp } from '../auth/people-support.js'
import { dashboardVisitor, inputValue, useWorker, WORKER_ADMIN_TOKEN } from './support.js'

const worker = useWorker()

/** A browser for /dashboard (its session cookie kept from each answer). */
const visitor = () => dashboardVisitor(() => worker().url, 'en', '198.51.100.77')

it('invites an owner who signs in with a password, then with two-factor, all recorded', async () => {
  const admin = visitor()
  const login = await (await admin.get('/dashboard/login')).text()
  const signedIn = await admin.post('/dashboard/login', {
    token: WORKER_ADMIN_TOKEN,
    _csrf: inputValue(login, '_csrf'),
  })
  expect(signedIn.status).toBe(303)
  const people = await (await admin.get('/dashboard/people')).text()
  const invited = await admin.post('/dashboard/people/invites', {
    email: 'owner@shop.dz',
    role: 'owner',
    _csrf: inputValue(people, '_csrf'),
  })
  expect(invited.status).toBe(200)
  const link = new URL(
    /id="invite-url" class="ltr" value="([^"]+)"/.exec(await invited.text())![1]!,
  ).pathname

  const owner = visitor()
  const acceptPage = await (await owner.get(link)).text()
  const accepted = await owner.post(link, {
    name: 'Nadia',
    password: PASSWORD,
    _csrf: inputValue(acceptPage, '_csrf'),
  })
  expect(accepted.status).toBe(303)
  const [row] = await worker().db.select({ hash: users.passwordHash }).from(users)
  expect(row!.hash).toMatch(/^pbkdf2-sha256\$100000\$/)

  const setUp = await (await owner.get('/dashboard/account/two-factor')).text()
  const secret = secretOf(setUp)
  const enrolled = await owner.post('/dashboard/account/two-factor', {
    code: totp(secret, Date.now()),
    _csrf: inputValue(setUp, '_csrf'),
  })
  expect(enrolled.status).toBe(200)
  const codes = recoveryCodesOf(await enrolled.text())

  const again = visitor()
  const form = await (await again.get('/dashboard/login')).text()
  const step = await again.post('/dashboard/login/password', {
    email: 'owner@shop.dz',
    password: PASSWORD,
    _csrf: inputValue(form, '_csrf'),
  })
  expect(step.status).toBe(200)
  expect(again.has()).toBe(false)
  const html = await step.text()
  const done = await again.post('/dashboard/login/code', {
    _csrf: inputValue(html, '_csrf'),
    pending: pendingOf(html),
    code: codes[0]!,
  })
  expect(done.status).toBe(303)
  expect((await again.get('/dashboard/people')).status).toBe(200)

  const actions = (await worker().db.select({ action: auditLog.action }).from(auditLog)).map(
    (r) => r.action,
  )
  for (const action of [
    'login',
    'invite_created',
    'invite_accepted',
    'twofactor_enabled',
    'recovery_code_used',
  ]) {
    expect(actions, action).toContain(action)
  }
}, 60_000)
