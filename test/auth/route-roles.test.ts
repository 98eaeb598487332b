/**
 * Every route the app registers under /dashboard and /api/v1, as Hono lists them (so routes
 * added later are picked up without touching this file), against the policy and every role:
 *
 * - each registered route has its entry in src/auth/policy.ts (or is one of the public ones),
 *   and each entry names a registered route;
 * - dashboard: for each route × owner, manager, cashier, viewer (people in a real SQLite file,
 *   each request on a session of theirs) and the admin token, the request is refused with the
 *   403 "not allowed" page exactly when the role lacks the route's permission, and that page's
 *   one button leads to the first page the role may open (which answers 200, not another 403);
 *   each role signs in to that same page (a cashier to the till);
 * - API: each route is requested with the admin token, with a write key of a person of each
 *   role, with a read key of the owner and with a write key of the store (keys made as the
 *   dashboard makes them, stored in the same file); each is refused with 403 JSON `forbidden`
 *   naming the permission exactly when `allows()` refuses that key's principal the route's
 *   permission, and otherwise gets past authentication and the policy (a handler's 400, 404 or
 *   405 for the made-up ids is fine);
 * - a key whose person was disabled or removed is refused with 401 on every API route;
 * - beyond the table, what a route shows a cashier: their own till sales and those sales' payments
 *   of today, never a 40-day-old payment (list, search, payment page, CSV, API) nor another
 *   cashier's sale (its page, status, event stream, Cancel), each answered as for nothing;
 * - `allows()` itself is checked over the API entries for each role and key scope.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ApiKeyScope, ROLES, type Role, users } from '../../db/schema.js'
import { createApiKey } from '../../src/auth/api-keys.js'
import { PUBLIC_ROUTES, ROUTE_POLICY, requirementOf } from '../../src/auth/policy.js'
import { allows, type Principal } from '../../src/auth/principal.js'
import { READ_PERMISSIONS, roleAllows } from '../../src/auth/roles.js'
import { getLinkById } from '../../src/data/links.js'
import { createSession } from '../../src/data/sessions.js'
import { createUser, removeUser } from '../../src/data/users.js'
import { hashPassword } from '../../src/security/passwords.js'
import { Browser, csrfOf, storePayment } from '../dashboard/helpers.js'
import { type Paylinks, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'
import { storeLink } from '../support/links.js'
import { passwordLogin } from './people-support.js'

const NOT_ALLOWED = 'Not allowed for your role'
const PASSWORD = 'route table password'

let paylinks: Paylinks
const userIds = new Map<Role, string>()

/** An API key and the principal it should act as, written out here rather than read back. */
type KeyHolder = { label: string; text: string; principal: Principal }
const keyHolders: KeyHolder[] = []

/** Makes a key as the dashboard and the API do; `userId` null is the store's key. */
async function makeKey(userId: string | null, scope: ApiKeyScope): Promise<string> {
  const { text } = await createApiKey(paylinks.deps, {
    name: `${userId ?? 'store'} ${scope}`,
    scope,
    userId,
    createdBy: null,
  })
  return text
}

const keyPrincipal = (scope: ApiKeyScope, userId: string | null, role: Role): Principal => ({
  kind: 'key',
  keyId: 'k',
  name: 'k',
  scope,
  userId,
  role,
})

beforeAll(async () => {
  paylinks = await startPaylinks()
  const hash = await hashPassword(PASSWORD, 1000)
  for (const role of ROLES) {
    const user = await createUser(
      paylinks.deps.db,
      { email: `${role}@shop.dz`, name: role, role, passwordHash: hash },
      paylinks.deps.clock(),
    )
    userIds.set(role, user!.id)
  }
  for (const role of ROLES) {
    const userId = userIds.get(role)!
    keyHolders.push({
      label: `${role}'s write`,
      text: await makeKey(userId, 'write'),
      principal: keyPrincipal('write', userId, role),
    })
  }
  const ownerId = userIds.get('owner')!
  keyHolders.push({
    label: "owner's read",
    text: await makeKey(ownerId, 'read'),
    principal: keyPrincipal('read', ownerId, 'owner'),
  })
  keyHolders.push({
    label: "store's write",
    text: await makeKey(null, 'write'),
    principal: keyPrincipal('write', null, 'owner'),
  })
})
afterAll(() => paylinks.close())

/** The routes registered under a prefix, as "METHOD /path", once each (middleware aside). */
function registered(prefix: string): string[] {
  const keys = paylinks.app.routes
    .filter((r) => r.method !== 'ALL' && r.path.startsWith(prefix))
    .map((r) => `${r.method} ${r.path}`)
  return [...new Set(keys)].filter((k) => !PUBLIC_ROUTES.includes(k)).sort()
}

/** A path to request for a route: each parameter filled with an id that names nothing. */
const concrete = (path: string) => path.replace(/:eventId/g, '1').replace(/:[A-Za-z]+/g, 'zz_none')

/**
 * Requests an API route with `token`: parameters made up, an empty JSON body on writes; from
 * `address` when given (wrong tokens are counted per address, 10 then 429).
 */
async function apiRequest(
  method: string,
  path: string,
  token: string,
  address?: string,
): Promise<Response> {
  const from: Record<string, string> = address ? { 'x-test-ip': address } : {}
  const init: RequestInit = { method, headers: { 'x-api-key': token, ...from } }
  if (method !== 'GET' && method !== 'DELETE') {
    init.headers = { ...init.headers, 'content-type': 'application/json' }
    init.body = '{}'
  }
  return paylinks.app.request(concrete(path), init)
}

/** A fresh signed-in browser for `who`: a stored session, as signing in makes. */
async function browserFor(who: Role | 'admin'): Promise<Browser> {
  const browser = new Browser(paylinks, { 'accept-language': 'en' })
  if (who === 'admin') {
    await browser.login()
    return browser
  }
  const db = paylinks.deps.db
  const token = await createSession(
    db,
    { userId: userIds.get(who)! },
    paylinks.deps.clock(),
    60_000,
  )
  browser.jar.cookies.set('paylinks_session', token)
  return browser
}

describe('the route policy', () => {
  it('lists every dashboard and API route the app registers, and only those', () => {
    const routes = [...registered('/dashboard'), ...registered('/api/v1')]
    expect(routes.length).toBeGreaterThan(40)
    const missing = routes.filter((k) => !(k in ROUTE_POLICY))
    expect(missing, 'routes without a policy entry').toEqual([])
    const stale = Object.keys(ROUTE_POLICY).filter((k) => !routes.includes(k))
    expect(stale, 'policy entries without a route').toEqual([])
  })

  it('signs each role in with a real password, landing on the first page the role may open', async () => {
    const LANDING: Record<Role, string> = {
      owner: '/dashboard',
      manager: '/dashboard',
      viewer: '/dashboard',
      // A cashier sells: the till, not the payments.
      cashier: '/dashboard/till',
    }
    for (const role of ROLES) {
      const browser = new Browser(paylinks)
      const answer = await passwordLogin(browser, `${role}@shop.dz`, PASSWORD)
      expect(answer.status, role).toBe(303)
      expect(answer.headers.get('location'), role).toBe(LANDING[role])
      expect((await browser.get(LANDING[role])).status, role).toBe(200)
      // The sign-in page, opened again while signed in, leads to the same page; so does the
      // dashboard's own address.
      const again = await browser.get('/dashboard/login')
      expect(again.headers.get('location'), role).toBe(LANDING[role])
      const root = await browser.get('/dashboard')
      expect(root.status, role).toBe(LANDING[role] === '/dashboard' ? 200 : 302)
      if (root.status === 302) expect(root.headers.get('location'), role).toBe(LANDING[role])
    }
  })

  for (const who of [...ROLES, 'admin'] as const) {
    it(`refuses the ${who} exactly the dashboard routes the role lacks`, async () => {
      const role: Role = who === 'admin' ? 'owner' : who
      const wrong: string[] = []
      // The refusal pages' ways on (their button's address).
      const ways = new Set<string | undefined>()
      for (const key of registered('/dashboard')) {
        const [method, path] = key.split(' ') as [string, string]
        const requirement = requirementOf(method, concrete(path))
        const refused = requirement !== 'signed-in' && !roleAllows(role, requirement as never)
        const browser = await browserFor(who)
        const init: RequestInit = { method }
        if (method === 'POST') {
          const _csrf = csrfOf(await (await browser.get('/dashboard/account')).text())
          init.headers = { 'content-type': 'application/x-www-form-urlencoded' }
          init.body = new URLSearchParams({ _csrf })
        }
        const response = await browser.request(concrete(path), init)
        const body = await response.text()
        // The dashboard's own address sends a role that may not read the overview to its home.
        if (refused && key === 'GET /dashboard') {
          const sent = `${response.status} ${response.headers.get('location')}`
          if (sent !== '302 /dashboard/till')
            wrong.push(`${key}: ${sent} (expected 302 to the till)`)
          continue
        }
        const wasRefused = response.status === 403 && body.includes(NOT_ALLOWED)
        if (wasRefused !== refused || (!refused && response.status === 403))
          wrong.push(`${key}: ${response.status} (expected ${refused ? '403' : 'not 403'})`)
        if (wasRefused)
          ways.add(/<div class="actions"><a class="btn" href="([^"]+)"/.exec(body)?.[1])
      }
      expect(wrong).toEqual([])
      // Every refusal offers one way on: the first page the role may open, which opens.
      expect(ways.size, who).toBe(role === 'owner' ? 0 : 1)
      for (const way of ways) {
        expect(way, who).toBe(roleAllows(role, 'payments.read') ? '/dashboard' : '/dashboard/till')
        expect((await (await browserFor(who)).get(way!)).status, `${who} → ${way}`).toBe(200)
      }
    })
  }

  it('lets the admin token through every API route (it is the owner)', async () => {
    const wrong: string[] = []
    for (const key of registered('/api/v1')) {
      const [method, path] = key.split(' ') as [string, string]
      const response = await apiRequest(method, path, TEST_ADMIN_TOKEN)
      if (response.status === 401 || response.status === 403)
        wrong.push(`${key}: ${response.status}`)
    }
    expect(wrong).toEqual([])
  })

  // One test per key, named here: the holders are made in beforeAll, after collection.
  const KEYS = [...ROLES.map((r) => `${r}'s write`), "owner's read", "store's write"]
  for (const label of KEYS) {
    it(`refuses the ${label} key exactly the API routes its principal lacks`, async () => {
      const holder = keyHolders.find((h) => h.label === label)!
      expect(holder, label).toBeDefined()
      const wrong: string[] = []
      const refusedRoutes: string[] = []
      for (const key of registered('/api/v1')) {
        const [method, path] = key.split(' ') as [string, string]
        const requirement = requirementOf(method, concrete(path))
        expect(requirement, key).not.toBe('unlisted')
        const refused =
          requirement !== 'signed-in' && !allows(holder.principal, requirement as never)
        const response = await apiRequest(method, path, holder.text)
        const type = response.headers.get('content-type') ?? ''
        const body = await response.text()
        const error = type.includes('application/json') ? JSON.parse(body).error : undefined
        const wasRefused =
          response.status === 403 &&
          error?.code === 'forbidden' &&
          String(error.message).includes(`needs ${requirement}`)
        if (refused) refusedRoutes.push(key)
        if (refused ? !wasRefused : response.status === 401 || response.status === 403)
          wrong.push(
            `${key}: ${response.status} ${body.slice(0, 80)} (expected ${refused ? '403 forbidden' : 'not 401/403'})`,
          )
      }
      expect(wrong).toEqual([])
      // What the product promises, written out (the expectation above follows the policy, so a
      // wrong entry there is caught here): an owner's or the store's write key may do anything;
      // the till has no API, so a cashier's key may do nothing; a read key and a viewer only
      // read, so every route that changes something is refused to them.
      const all = registered('/api/v1')
      const writes = all.filter((k) => !k.startsWith('GET '))
      if (label === "owner's write" || label === "store's write") expect(refusedRoutes).toEqual([])
      if (label === "cashier's write") expect(refusedRoutes).toEqual(all)
      if (label === "owner's read" || label === "viewer's write") {
        expect(writes.length).toBeGreaterThan(5)
        expect(writes.filter((k) => !refusedRoutes.includes(k))).toEqual([])
        expect(refusedRoutes).not.toContain('GET /api/v1/links')
        expect(refusedRoutes).not.toContain('GET /api/v1/payments')
      }
    })
  }

  it('refuses with 401 every API route to a key whose person was disabled or removed', async () => {
    const db = paylinks.deps.db
    const now = paylinks.deps.clock()
    const people = []
    for (const gone of ['disabled', 'removed'] as const) {
      const user = await createUser(
        db,
        { email: `${gone}@shop.dz`, name: gone, role: 'owner', passwordHash: 'x' },
        now,
      )
      people.push({ gone, id: user!.id, text: await makeKey(user!.id, 'write') })
    }
    // Usable while the person is there: the 401 below is the person's doing, not the key's.
    for (const { gone, text } of people)
      expect((await apiRequest('GET', '/api/v1/links', text)).status, gone).toBe(200)
    await db.update(users).set({ disabledAt: now }).where(eq(users.id, people[0]!.id))
    expect(await removeUser(db, people[1]!.id)).toBe('done')
    const wrong: string[] = []
    let n = 0
    for (const { gone, text } of people) {
      for (const key of registered('/api/v1')) {
        const [method, path] = key.split(' ') as [string, string]
        // Each refusal counts as a wrong token: one address per request keeps the 401 in view.
        const response = await apiRequest(method, path, text, `10.66.0.${++n}`)
        const body = await response.json()
        if (response.status !== 401 || body.error?.code !== 'unauthorized')
          wrong.push(`${gone} ${key}: ${response.status}`)
      }
    }
    expect(wrong).toEqual([])
  })

  it('allows each role and key scope exactly its permissions over every API entry', () => {
    const apiEntries = Object.entries(ROUTE_POLICY).filter(([k]) => k.includes(' /api/v1/'))
    expect(apiEntries.length).toBeGreaterThan(10)
    for (const role of ROLES) {
      for (const scope of ['read', 'write'] as const) {
        const principal: Principal = {
          kind: 'key',
          keyId: 'k',
          name: 'k',
          scope,
          userId: null,
          role,
        }
        for (const [key, need] of apiEntries) {
          if (need === 'signed-in') continue
          const expected =
            roleAllows(role, need) && (scope === 'write' || READ_PERMISSIONS.has(need))
          expect(allows(principal, need), `${role}/${scope} ${key}`).toBe(expected)
        }
      }
    }
    // What the product promises, written out.
    const key = (role: Role, scope: 'read' | 'write'): Principal => ({
      kind: 'key',
      keyId: 'k',
      name: 'k',
      scope,
      userId: null,
      role,
    })
    expect(allows(key('viewer', 'write'), ROUTE_POLICY['POST /api/v1/links'] as never)).toBe(false)
    expect(allows(key('viewer', 'read'), ROUTE_POLICY['GET /api/v1/payments'] as never)).toBe(true)
    expect(allows(key('cashier', 'write'), ROUTE_POLICY['GET /api/v1/links'] as never)).toBe(false)
    expect(
      allows(key('manager', 'read'), ROUTE_POLICY['POST /api/v1/webhook-endpoints'] as never),
    ).toBe(false)
    expect(
      allows(key('manager', 'write'), ROUTE_POLICY['POST /api/v1/webhook-endpoints'] as never),
    ).toBe(true)
    expect(allows({ kind: 'admin' }, 'people')).toBe(true)
  })
})

describe("what a cashier's routes show", () => {
  const DAY = 86_400_000
  const OTHER_CASHIER = 'other-cashier@shop.dz'
  let otherCashierId = ''
  type Sale = { linkId: string; paymentId: string }
  let mine: Sale
  let mineOld: Sale
  let theirs: Sale
  let linkPaymentOld = ''
  let linkPaymentToday = ''

  /** A browser on a session of the person with this id. */
  async function sessionOf(userId: string): Promise<Browser> {
    const browser = new Browser(paylinks, { 'accept-language': 'en' })
    const token = await createSession(paylinks.deps.db, { userId }, paylinks.deps.clock(), 60_000)
    browser.jar.cookies.set('paylinks_session', token)
    return browser
  }

  /** Charges at the till as `browser`'s person, then stores its payment by `name` at `at`. */
  async function sale(browser: Browser, name: string, at: number): Promise<Sale> {
    const res = await browser.submit('/dashboard/till?new', '/dashboard/till/sales', {
      amount: '1500',
    })
    expect(res.status).toBe(303)
    const linkId = new URL(res.headers.get('location')!, 'http://x').searchParams.get('sale')!
    const link = (await getLinkById(paylinks.deps.db, linkId))!
    const payment = await storePayment(paylinks, link, { name, at })
    return { linkId, paymentId: payment.id }
  }

  beforeAll(async () => {
    const db = paylinks.deps.db
    const now = paylinks.deps.clock()
    const other = await createUser(
      db,
      { email: OTHER_CASHIER, name: 'other', role: 'cashier', passwordHash: 'x' },
      now,
    )
    otherCashierId = other!.id
    const cashier = await browserFor('cashier')
    mine = await sale(cashier, 'Today Mine', now)
    mineOld = await sale(cashier, 'Forty Days Mine', now - 40 * DAY)
    theirs = await sale(await sessionOf(otherCashierId), 'Today Theirs', now)
    const link = await storeLink(paylinks, { title: 'Private Link Title' }, now - 41 * DAY)
    linkPaymentOld = (
      await storePayment(paylinks, link, { name: 'Forty Days Link', at: now - 40 * DAY })
    ).id
    const counter = await storeLink(paylinks, { title: 'Counter Link' }, now)
    linkPaymentToday = (await storePayment(paylinks, counter, { name: 'Today Link', at: now })).id
  })

  const listed = async (browser: Browser, query = '') => {
    const res = await browser.get(`/dashboard/payments${query}`)
    expect(res.status, query).toBe(200)
    return res.text()
  }

  it("lists and finds today's payments, their own sales' and links', without another cashier's sales", async () => {
    const cashier = await browserFor('cashier')
    const page = await listed(cashier)
    expect(page).toContain('Today Mine')
    expect(page).toContain('Today Link')
    // Nor the store's links in the filter: a cashier does not read links.
    for (const hidden of ['Forty Days Mine', 'Forty Days Link', 'Today Theirs', 'Private Link'])
      expect(page, hidden).not.toContain(hidden)
    // Search: by name, and by a payment's exact id, which the search also matches.
    expect(await listed(cashier, '?q=Forty')).not.toContain('Forty Days')
    for (const id of [mineOld.paymentId, linkPaymentOld, theirs.paymentId])
      expect(await listed(cashier, `?q=${id}`), id).not.toContain(`/dashboard/payments/${id}`)
    for (const id of [mine.paymentId, linkPaymentToday])
      expect(await listed(cashier, `?q=${id}`), id).toContain(`/dashboard/payments/${id}`)
    // Dates asked for do not widen the day.
    const wide = await listed(cashier, '?from=2000-01-01&to=2100-01-01')
    expect(wide).not.toContain('Forty Days')
    // A manager sees every payment.
    const manager = await listed(await browserFor('manager'), '?q=Forty')
    expect(manager).toContain('Forty Days Mine')
    expect(manager).toContain('Forty Days Link')
  })

  it("answers a 40-day-old payment's page, and another cashier's, as a payment that does not exist", async () => {
    const cashier = await browserFor('cashier')
    const none = await cashier.get('/dashboard/payments/pay_0000000000000000')
    expect(none.status).toBe(404)
    // The page's main part (the header carries the address, a nonce and the form token).
    const main = (html: string) => /<main[\s\S]*<\/main>/.exec(html)?.[0]
    const nothing = main(await none.text())
    expect(nothing).toContain('There is no such payment.')
    for (const id of [mineOld.paymentId, linkPaymentOld, theirs.paymentId]) {
      const res = await cashier.get(`/dashboard/payments/${id}`)
      expect(res.status, id).toBe(404)
      expect(main(await res.text()), id).toBe(nothing)
    }
    const own = await cashier.get(`/dashboard/payments/${mine.paymentId}`)
    expect(own.status).toBe(200)
    expect(await own.text()).toContain('Today Mine')
    const today = await cashier.get(`/dashboard/payments/${linkPaymentToday}`)
    expect(today.status).toBe(200)
    expect(await today.text()).toContain('Today Link')
    const manager = await browserFor('manager')
    expect((await manager.get(`/dashboard/payments/${mineOld.paymentId}`)).status).toBe(200)
  })

  it('gives a cashier no CSV and no API payments, old or new', async () => {
    const cashier = await browserFor('cashier')
    const csv = await cashier.get('/dashboard/payments.csv?q=Forty')
    expect(csv.status).toBe(403)
    expect(await csv.text()).not.toContain('Forty Days')
    const key = keyHolders.find((h) => h.label === "cashier's write")!
    for (const path of [
      '/api/v1/payments',
      '/api/v1/payments?q=Forty',
      `/api/v1/payments/${mineOld.paymentId}`,
      `/api/v1/payments/${linkPaymentOld}`,
    ]) {
      const res = await apiRequest('GET', path, key.text)
      expect(res.status, path).toBe(403)
      expect(await res.text(), path).not.toContain('Forty Days')
    }
    // The manager's export has them.
    const all = await (await browserFor('manager')).get('/dashboard/payments.csv?q=Forty')
    expect(all.status).toBe(200)
    expect(await all.text()).toContain('Forty Days Link')
  })

  it("answers another cashier's sale as a sale that does not exist: page, status, stream, Cancel", async () => {
    const cashier = await browserFor('cashier')
    const nothing = (path: string) => cashier.get(path.replace(theirs.linkId, 'lnk_none'))
    for (const path of [
      `/dashboard/till/sales/${theirs.linkId}/status`,
      `/dashboard/till/sales/${theirs.linkId}/events`,
    ]) {
      const res = await cashier.get(path)
      const none = await nothing(path)
      expect(res.status, path).toBe(404)
      expect(await res.text(), path).toBe(await none.text())
    }
    const page = await (await cashier.get(`/dashboard/till?sale=${theirs.linkId}`)).text()
    expect(page).not.toContain(theirs.linkId)
    const cancel = await cashier.submit(
      '/dashboard/till?new',
      `/dashboard/till/sales/${theirs.linkId}/cancel`,
    )
    const cancelNone = await cashier.submit(
      '/dashboard/till?new',
      '/dashboard/till/sales/lnk_none/cancel',
    )
    expect([cancel.status, cancel.headers.get('location')]).toEqual([
      cancelNone.status,
      cancelNone.headers.get('location'),
    ])
    expect((await getLinkById(paylinks.deps.db, theirs.linkId))!.active).toBe(true)
    // Its own cashier, a manager and the owner see it.
    for (const browser of [
      await sessionOf(otherCashierId),
      await browserFor('manager'),
      await browserFor('owner'),
    ]) {
      const status = await browser.get(`/dashboard/till/sales/${theirs.linkId}/status`)
      expect(status.status).toBe(200)
      expect((await status.json()).id).toBe(theirs.linkId)
    }
    // The cashier's own sale stays theirs to see.
    expect((await cashier.get(`/dashboard/till/sales/${mine.linkId}/status`)).status).toBe(200)
  })
})
