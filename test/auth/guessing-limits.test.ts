/**
 * Guessing limits under bursts, over the app with a real SQLite file: every attempt takes its
 * slot before its password is hashed, its code computed or its token checked, so parallel
 * guesses get at most the limit evaluated (counted at WebCrypto, where the work is done, and at
 * the hashing seam); the account page's own checks count the same; new recovery codes need the
 * password or a current code; password checks before sign-in run a few at a time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { PASSWORD_CHECKS, passwordChecks } from '../../src/security/password-work.js'
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
  vi.restoreAllMocks()
  await paylinks?.close()
  paylinks = undefined
})

async function start() {
  const clock = manualClock()
  paylinks = await startPaylinks({ clock })
  return { p: paylinks, clock }
}

/** An owner with a password, signed in; invited by the admin token. */
async function withOwner(p: Paylinks) {
  const admin = await signedIn(p)
  const link = await invite(admin, 'owner@shop.dz', 'owner')
  const { browser } = await accept(p, link, 'Owner')
  return browser
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i)
const statuses = (answers: Response[]) => {
  const counts: Record<number, number> = {}
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1
  return counts
}

/** Counts the PBKDF2 derivations WebCrypto is asked for (each password check is one). */
function countPbkdf2() {
  const subtle = crypto.subtle
  const real = subtle.deriveBits.bind(subtle)
  const seen = { calls: 0 }
  vi.spyOn(subtle, 'deriveBits').mockImplementation((algorithm, key, length) => {
    if ((algorithm as { name?: string }).name === 'PBKDF2') seen.calls++
    return real(algorithm, key, length)
  })
  return seen
}

/** Counts the HMAC-SHA-1 keys made for TOTP codes (three per code checked: the step either side). */
function countTotpSteps() {
  const subtle = crypto.subtle
  const real = subtle.importKey.bind(subtle) as (...args: unknown[]) => Promise<CryptoKey>
  const seen = { calls: 0 }
  vi.spyOn(subtle, 'importKey').mockImplementation(((...args: unknown[]) => {
    const algorithm = args[2] as { name?: string; hash?: string }
    if (algorithm?.name === 'HMAC' && algorithm.hash === 'SHA-1') seen.calls++
    return real(...args)
  }) as typeof subtle.importKey)
  return seen
}

/** Browsers from `count` addresses, each with the sign-in page's token, ready to post at once. */
function browsers(p: Paylinks, count: number, ip: (i: number) => string) {
  return Promise.all(
    range(count).map(async (i) => {
      const b = new Browser(p, { 'accept-language': 'en', 'x-test-ip': ip(i) })
      return { b, _csrf: await b.formToken('/dashboard/login') }
    }),
  )
}

/** A code that none of the steps around `time` shows. */
function wrongCode(secret: string, time: number) {
  const shown = new Set([-30_000, 0, 30_000].map((d) => totp(secret, time + d)))
  return ['000000', '111111', '222222', '333333'].find((c) => !shown.has(c))!
}

/** Turns two-factor on from the account page; returns the secret. */
async function enableTwoFactor(owner: Browser, time: number) {
  const page = await (await owner.get('/dashboard/account/two-factor')).text()
  const secret = secretOf(page)
  const on = await owner.post('/dashboard/account/two-factor', {
    _csrf: csrfOf(page),
    code: totp(secret, time),
  })
  expect(on.status).toBe(200)
  return { secret, codes: recoveryCodesOf(await on.text()) }
}

describe('parallel guesses meet the limit before any is evaluated', () => {
  it('hashes 5 of 40 parallel wrong passwords for one account (from 40 addresses); the others get 429', async () => {
    const { p } = await start()
    await withOwner(p)
    const ready = await browsers(p, 40, (i) => `10.1.0.${i}`)
    const pbkdf2 = countPbkdf2()
    const answers = await Promise.all(
      ready.map(({ b, _csrf }, i) =>
        b.post('/dashboard/login/password', {
          email: 'owner@shop.dz',
          password: `wrong guess number ${i}`,
          _csrf,
        }),
      ),
    )
    expect(statuses(answers)).toEqual({ 401: 5, 429: 35 })
    expect(pbkdf2.calls).toBe(5)
    const refused = answers.find((a) => a.status === 429)!
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await refused.text()).toContain('Too many wrong passwords or codes for this account')
    // The right password waits too, unhashed.
    expect(
      (await passwordLogin(new Browser(p, { 'x-test-ip': '10.1.1.1' }), 'owner@shop.dz')).status,
    ).toBe(429)
    expect(pbkdf2.calls).toBe(5)
  })

  it('hashes 10 of 40 parallel wrong passwords from one address (for 40 e-mails); the others get 429', async () => {
    const { p } = await start()
    // The decoy hash for unknown e-mails is made once; made now, it is not counted below.
    await passwordLogin(new Browser(p, { 'x-test-ip': '10.2.9.9' }), 'warm@shop.dz', 'a guess')
    const ready = await browsers(p, 40, () => '10.2.0.1')
    const pbkdf2 = countPbkdf2()
    const answers = await Promise.all(
      ready.map(({ b, _csrf }, i) =>
        b.post('/dashboard/login/password', {
          email: `nobody${i}@shop.dz`,
          password: 'guess guess guess',
          _csrf,
        }),
      ),
    )
    expect(statuses(answers)).toEqual({ 401: 10, 429: 30 })
    expect(pbkdf2.calls).toBe(10)
  })

  it('checks 5 of 40 parallel wrong two-factor codes for one sign-in; the others get 429', async () => {
    const { p, clock } = await start()
    const owner = await withOwner(p)
    const { secret } = await enableTwoFactor(owner, clock())
    clock.advance(30_000)
    const step = await passwordLogin(new Browser(p, { 'x-test-ip': '10.3.9.9' }), 'owner@shop.dz')
    const pending = pendingOf(await step.text())
    const ready = await browsers(p, 40, (i) => `10.3.0.${i}`)
    const steps = countTotpSteps()
    const code = wrongCode(secret, clock())
    const answers = await Promise.all(
      ready.map(({ b, _csrf }) => b.post('/dashboard/login/code', { _csrf, pending, code })),
    )
    expect(statuses(answers)).toEqual({ 401: 5, 429: 35 })
    expect(steps.calls / 3).toBe(5)
    // The right code is refused too while the account is locked.
    const late = ready[0]!
    const right = await late.b.post('/dashboard/login/code', {
      _csrf: late._csrf,
      pending,
      code: totp(secret, clock()),
    })
    expect(right.status).toBe(429)
    expect(late.b.jar.cookies.has('paylinks_session')).toBe(false)
  })

  it('answers 10 of 40 parallel wrong API keys and bearer tokens from one address 401, the others 429', async () => {
    const { p } = await start()
    const key = `pl_test_${'A'.repeat(40)}`
    const call = (i: number, ip = '10.4.0.1') =>
      p.app.request('/api/v1/links', {
        headers: {
          'x-test-ip': ip,
          ...(i % 2 ? { 'x-api-key': key } : { authorization: `Bearer ${key}` }),
        },
      })
    const answers = await Promise.all(range(40).map((i) => call(i)))
    expect(statuses(answers)).toEqual({ 401: 10, 429: 30 })
    // Then the address is refused before anything is checked, the right token too.
    const real = p.deps.sha256Hex
    let hashed = 0
    p.deps.sha256Hex = (text) => {
      hashed++
      return real(text)
    }
    expect((await call(0)).status).toBe(429)
    const right = await p.app.request('/api/v1/links', {
      headers: { 'x-test-ip': '10.4.0.1', 'x-api-key': TEST_ADMIN_TOKEN },
    })
    expect(right.status).toBe(429)
    expect(hashed).toBe(0)
    // Another address is not.
    expect((await call(0, '10.4.0.2')).status).toBe(401)
  })

  it("lets a shop's many parallel calls through, none waiting on another's slot", async () => {
    const { p } = await start()
    const call = () =>
      p.app.request('/api/v1/links', {
        headers: { 'x-test-ip': '10.4.1.1', 'x-api-key': TEST_ADMIN_TOKEN },
      })
    const answers = await Promise.all(range(30).map(call))
    expect(statuses(answers)).toEqual({ 200: 30 })
  })
})

describe('the account page counts its checks as guesses', () => {
  it('hashes 5 of 20 parallel wrong current passwords, then refuses even the right one with 429', async () => {
    const { p } = await start()
    const owner = await withOwner(p)
    const _csrf = await owner.formToken('/dashboard/account')
    const pbkdf2 = countPbkdf2()
    const answers = await Promise.all(
      range(20).map((i) =>
        owner.post('/dashboard/account/password', {
          _csrf,
          current: `not my password ${i}`,
          password: 'a brand new passphrase',
        }),
      ),
    )
    expect(statuses(answers)).toEqual({ 401: 5, 429: 15 })
    expect(pbkdf2.calls).toBe(5)
    const right = await owner.post('/dashboard/account/password', {
      _csrf,
      current: PASSWORD,
      password: 'a brand new passphrase',
    })
    expect(right.status).toBe(429)
    expect(await right.text()).toContain('Too many wrong passwords or codes for this account')
    expect(pbkdf2.calls).toBe(5)
  })

  it('meets 429 after 5 wrong codes to turn two-factor off, and two-factor stays on', async () => {
    const { p, clock } = await start()
    const owner = await withOwner(p)
    const { secret } = await enableTwoFactor(owner, clock())
    clock.advance(30_000)
    const code = wrongCode(secret, clock())
    const seen: number[] = []
    for (let i = 0; i < 7; i++) {
      const off = await owner.submit(
        '/dashboard/account',
        '/dashboard/account/two-factor/disable',
        {
          code,
        },
      )
      seen.push(off.status)
    }
    expect(seen).toEqual([400, 400, 400, 400, 400, 429, 429])
    const right = await owner.submit(
      '/dashboard/account',
      '/dashboard/account/two-factor/disable',
      {
        code: totp(secret, clock()),
      },
    )
    expect(right.status).toBe(429)
    expect(await (await owner.get('/dashboard/account')).text()).toContain('data-two-factor="on"')
  })

  it('renews recovery codes only after the password or a current code', async () => {
    const { p, clock } = await start()
    const owner = await withOwner(p)
    const { secret, codes } = await enableTwoFactor(owner, clock())
    const stored = () =>
      (
        p.sqlite.sqlite.prepare('SELECT recovery_codes AS c FROM users').get() as {
          c: string
        }
      ).c
    const before = stored()
    const renew = (form: Record<string, string>) =>
      owner.submit('/dashboard/account', '/dashboard/account/recovery-codes', form)
    const bare = await renew({})
    expect(bare.status).toBe(401)
    expect(await bare.text()).toContain('This is neither your password nor a current code.')
    expect((await renew({ confirm: 'not my password at all' })).status).toBe(401)
    expect((await renew({ confirm: codes[0]! })).status).toBe(401)
    expect(stored()).toBe(before)
    const byPassword = await renew({ confirm: PASSWORD })
    expect(byPassword.status).toBe(200)
    expect(recoveryCodesOf(await byPassword.text())).toHaveLength(10)
    clock.advance(30_000)
    const code = totp(secret, clock())
    expect((await renew({ confirm: code })).status).toBe(200)
    // A code is good once.
    expect((await renew({ confirm: code })).status).toBe(401)
  })
})

describe('password checks before sign-in run a few at a time', () => {
  it('runs at most 2 PBKDF2 at once, queues 16 and answers the rest of a burst 429 with Retry-After', async () => {
    const { p } = await start()
    await passwordLogin(new Browser(p, { 'x-test-ip': '10.5.9.9' }), 'warm@shop.dz', 'a guess')
    const burst = 40
    const ready = await browsers(p, burst, (i) => `10.5.${i}.1`)
    // PBKDF2 is held until the whole burst has been answered or has reached the check.
    const subtle = crypto.subtle
    const real = subtle.deriveBits.bind(subtle)
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    let running = 0
    let most = 0
    vi.spyOn(subtle, 'deriveBits').mockImplementation(async (algorithm, key, length) => {
      running++
      most = Math.max(most, running)
      await gate
      try {
        return await real(algorithm, key, length)
      } finally {
        running--
      }
    })
    let answered = 0
    const answers = ready.map(({ b, _csrf }, i) =>
      b
        .post('/dashboard/login/password', {
          email: `someone${i}@shop.dz`,
          password: 'guess guess guess',
          _csrf,
        })
        .then((r) => {
          answered++
          return r
        }),
    )
    // Yields to the event loop (no timer) until every request is answered, hashing or waiting.
    while (answered + running + passwordChecks.queued < burst) {
      await new Promise((resolve) => setImmediate(resolve))
    }
    release()
    const done = await Promise.all(answers)
    const { running: places, waiting } = PASSWORD_CHECKS
    expect(most).toBeLessThanOrEqual(places)
    expect(statuses(done)).toEqual({ 401: places + waiting, 429: burst - places - waiting })
    const busy = done.find((r) => r.status === 429)!
    expect(busy.headers.get('retry-after')).toBe('1')
    expect(await busy.text()).toContain('Too many sign-ins at once')
    // The refused were not checked: their slots went back, so they may try again at once.
    expect(
      (await passwordLogin(ready[39]!.b, 'someone39@shop.dz', 'guess guess guess')).status,
    ).toBe(401)
  })
})
