/**
 * API keys on a real SQLite file: made in the dashboard and through the API, shown once, stored
 * as a hash; used in X-API-Key and as a bearer token; a read key refused on writes with 403; a
 * revoked key, and a key whose person is disabled or removed, refused on the very next request;
 * last use noted at most once a minute; wrong keys throttled like wrong admin tokens; a key never
 * in a log line nor in the audit log.
 */
import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { apiKeys, type Role, users } from '../../db/schema.js'
import { createApiKey } from '../../src/auth/api-keys.js'
import { SESSION_COOKIE, SESSION_MAX_AGE_MS } from '../../src/dashboard/session.js'
import { createSession } from '../../src/data/sessions.js'
import { Browser, manualClock, signedIn, T0 } from '../dashboard/helpers.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { api } from './helpers.js'

const MIN = 60_000
let clock: ReturnType<typeof manualClock>
let p: Paylinks
let lines: Record<string, unknown>[]
beforeEach(async () => {
  clock = manualClock(T0)
  lines = []
  p = await startPaylinks({ clock, log: (entry) => lines.push(entry) })
})
afterEach(() => p.close())

const LINK = { title: 'Atelier poterie', amount: 2500 }

/** Creates a key through the API with the admin token; answers the created object. */
async function apiKey(scope: 'read' | 'write', name = `${scope} key`) {
  const res = await api(p, 'POST', '/api/v1/api-keys', { json: { name, scope } })
  expect(res.status).toBe(201)
  return res.body as { id: string; key: string; prefix: string; scope: string }
}

/** A person in the users table (people are managed elsewhere; the key only reads the row). */
async function person(role: Role, id = `usr_${role}`) {
  await p.deps.db.insert(users).values({
    id,
    email: `${role}@shop.example.dz`,
    name: role,
    role,
    passwordHash: 'x',
    createdAt: T0,
    updatedAt: T0,
  })
  return id
}

async function personKey(userId: string, scope: 'read' | 'write') {
  const { key, text } = await createApiKey(p.deps, {
    name: `key of ${userId}`,
    scope,
    userId,
    createdBy: userId,
  })
  return { id: key.id, text }
}

const stored = async (id: string) =>
  (await p.deps.db.select().from(apiKeys).where(eq(apiKeys.id, id)))[0]!

describe('API keys', () => {
  it('makes a pl_test_ key with 40 base62 characters, stores only its SHA-256 and shows it once', async () => {
    const made = await apiKey('write')
    expect(made.key).toMatch(/^pl_test_[0-9A-Za-z]{40}$/)
    expect(made.prefix).toBe(made.key.slice(0, 12))
    const row = await stored(made.id)
    expect(row.keyHash).toBe(await p.deps.sha256Hex(made.key))
    expect(JSON.stringify(row)).not.toContain(made.key)
    const list = await api(p, 'GET', '/api/v1/api-keys')
    expect(list.status).toBe(200)
    expect(list.body.data).toHaveLength(1)
    expect(JSON.stringify(list.body)).not.toContain(made.key)
    expect(list.body.data[0]).toMatchObject({ id: made.id, scope: 'write', revoked_at: null })
  })

  it('accepts a key in X-API-Key and as Authorization: Bearer', async () => {
    const { key } = await apiKey('write')
    expect((await api(p, 'GET', '/api/v1/links', { token: key })).status).toBe(200)
    const bearer = await api(p, 'GET', '/api/v1/links', {
      token: null,
      headers: { authorization: `Bearer ${key}` },
    })
    expect(bearer.status).toBe(200)
    expect((await api(p, 'POST', '/api/v1/links', { token: key, json: LINK })).status).toBe(201)
  })

  it('refuses a read key on writes with 403 JSON and lets it read', async () => {
    const { key } = await apiKey('read')
    const refused = await api(p, 'POST', '/api/v1/links', { token: key, json: LINK })
    expect(refused.status).toBe(403)
    expect(refused.body.error.code).toBe('forbidden')
    expect(refused.body.error.message).toMatch(/links\.write/)
    expect((await api(p, 'GET', '/api/v1/links')).body.data).toHaveLength(0)
    expect((await api(p, 'GET', '/api/v1/links', { token: key })).status).toBe(200)
    expect((await api(p, 'GET', '/api/v1/payments', { token: key })).status).toBe(200)
    // Nor can a read key make or list keys.
    expect((await api(p, 'GET', '/api/v1/api-keys', { token: key })).status).toBe(403)
  })

  it('refuses a revoked key on the very next request', async () => {
    const { id, key } = await apiKey('write')
    expect((await api(p, 'GET', '/api/v1/links', { token: key })).status).toBe(200)
    const revoked = await api(p, 'DELETE', `/api/v1/api-keys/${id}`)
    expect(revoked.status).toBe(200)
    expect(revoked.body.revoked_at).toBe(new Date(T0).toISOString())
    const after = await api(p, 'GET', '/api/v1/links', { token: key })
    expect(after.status).toBe(401)
    expect(after.headers.get('www-authenticate')).toBe('Bearer realm="paylinks"')
    expect((await api(p, 'DELETE', '/api/v1/api-keys/key_nothere')).status).toBe(404)
  })

  it('lets a key revoke itself, and refuses it from then on', async () => {
    const { id, key } = await apiKey('write')
    expect((await api(p, 'DELETE', `/api/v1/api-keys/${id}`, { token: key })).status).toBe(200)
    expect((await api(p, 'GET', '/api/v1/api-keys', { token: key })).status).toBe(401)
  })

  it("acts with its person's role, and stops when the person is disabled or removed", async () => {
    const viewer = await person('viewer')
    const viewerKey = await personKey(viewer, 'write')
    // A write key of a viewer still only reads: the role limits it.
    expect((await api(p, 'GET', '/api/v1/links', { token: viewerKey.text })).status).toBe(200)
    expect(
      (await api(p, 'POST', '/api/v1/links', { token: viewerKey.text, json: LINK })).status,
    ).toBe(403)
    await p.deps.db.update(users).set({ disabledAt: T0 }).where(eq(users.id, viewer))
    expect((await api(p, 'GET', '/api/v1/links', { token: viewerKey.text })).status).toBe(401)

    const manager = await person('manager')
    const managerKey = await personKey(manager, 'write')
    expect(
      (await api(p, 'POST', '/api/v1/links', { token: managerKey.text, json: LINK })).status,
    ).toBe(201)
    await p.deps.db.delete(users).where(eq(users.id, manager))
    expect((await api(p, 'GET', '/api/v1/links', { token: managerKey.text })).status).toBe(401)
  })

  it('notes the last use at most once a minute', async () => {
    const { id, key } = await apiKey('read')
    expect((await stored(id)).lastUsedAt).toBeNull()
    await api(p, 'GET', '/api/v1/links', { token: key })
    expect((await stored(id)).lastUsedAt).toBe(T0)
    clock.advance(30_000)
    await api(p, 'GET', '/api/v1/links', { token: key })
    expect((await stored(id)).lastUsedAt).toBe(T0)
    clock.advance(30_000)
    await api(p, 'GET', '/api/v1/links', { token: key })
    expect((await stored(id)).lastUsedAt).toBe(T0 + MIN)
  })

  it('counts wrong keys toward the guessing throttle, the right key then waits too', async () => {
    const { key } = await apiKey('read')
    const from = { 'x-test-ip': '10.9.0.1' }
    const wrong = `pl_test_${'A'.repeat(40)}`
    const statuses: number[] = []
    for (let i = 0; i < 12; i++)
      statuses.push((await api(p, 'GET', '/api/v1/links', { token: wrong, headers: from })).status)
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429])
    const right = await api(p, 'GET', '/api/v1/links', { token: key, headers: from })
    expect(right.status).toBe(429)
    expect(right.headers.get('retry-after')).toBe('300')
    const elsewhere = { 'x-test-ip': '10.9.0.2' }
    expect((await api(p, 'GET', '/api/v1/links', { token: key, headers: elsewhere })).status).toBe(
      200,
    )
  })

  it('names bad fields of a new key and stores nothing', async () => {
    const bad = await api(p, 'POST', '/api/v1/api-keys', {
      json: { name: '', scope: 'admin', extra: 1 },
    })
    expect(bad.status).toBe(400)
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['extra', 'name', 'scope'])
    const me = await api(p, 'POST', '/api/v1/api-keys', {
      json: { name: 'Mine', scope: 'read', owner: 'me' },
    })
    expect(me.status).toBe(400)
    expect(me.body.error.fields.owner).toMatch(/person/)
    expect(await p.deps.db.select().from(apiKeys)).toHaveLength(0)
  })

  it('never writes a key to a log line nor to the audit log', async () => {
    const made = await apiKey('write')
    await api(p, 'GET', '/api/v1/links', { token: made.key })
    await api(p, 'GET', '/api/v1/links', {
      token: null,
      headers: { authorization: `Bearer ${made.key}` },
    })
    await api(p, 'DELETE', `/api/v1/api-keys/${made.id}`)
    await api(p, 'GET', '/api/v1/links', { token: made.key })
    const browser = await signedIn(p)
    const page = await createInDashboard(browser, { name: 'Till', scope: 'read' })
    expect(lines.length).toBeGreaterThan(5)
    const logged = JSON.stringify(lines)
    const audit = JSON.stringify(p.sqlite.sqlite.prepare('SELECT * FROM audit_log').all())
    for (const key of [made.key, page.key]) {
      expect(logged).not.toContain(key)
      expect(logged).not.toContain(key.slice(12))
      expect(audit).not.toContain(key.slice(12))
    }
    expect(audit).toContain('key_created')
  })
})

/** Creates a key with the dashboard's form; answers the page and the key it showed. */
async function createInDashboard(browser: Browser, form: Record<string, string>) {
  const res = await browser.submit('/dashboard/keys', '/dashboard/keys', form)
  const html = await res.text()
  const key = /id="new-key" class="ltr" value="(pl_test_\w+)"/.exec(html)?.[1] ?? ''
  return { status: res.status, html, key }
}

describe('the API keys page', () => {
  it('makes a store key shown once with a copy button, lists it and revokes it', async () => {
    const browser = await signedIn(p)
    const made = await createInDashboard(browser, { name: 'Shop site', scope: 'write' })
    expect(made.status).toBe(201)
    expect(made.key).toMatch(/^pl_test_[0-9A-Za-z]{40}$/)
    expect(made.html).toContain('data-copy="new-key"')
    // The field holding the key is named by its heading (a screen reader reads a bare field).
    expect(made.html).toMatch(/<h2 id="new-key-title">[^<]+<\/h2>/)
    expect(made.html).toMatch(/<input [^>]*id="new-key"[^>]*aria-labelledby="new-key-title"/)
    const row = (await p.deps.db.select().from(apiKeys))[0]!
    expect(row).toMatchObject({ name: 'Shop site', scope: 'write', userId: null })
    // Shown once: the list shows the prefix only.
    const list = await (await browser.get('/dashboard/keys')).text()
    expect(list).not.toContain(made.key)
    expect(list).toContain(`${row.prefix}…`)
    // Every column has a heading, the revoke buttons' too (a screen reader reads it in each row).
    const headings = [...list.matchAll(/<th scope="col"[^>]*>([^<]*)<\/th>/g)].map((m) => m[1])
    expect(headings).toHaveLength(7)
    expect(headings).not.toContain('')
    expect((await api(p, 'POST', '/api/v1/links', { token: made.key, json: LINK })).status).toBe(
      201,
    )
    const listed = await (await browser.get('/dashboard/keys')).text()
    expect(listed).toMatch(/data-revoked="false"/)
    const revoke = await browser.submit('/dashboard/keys', `/dashboard/keys/${row.id}/revoke`)
    expect(revoke.status).toBe(303)
    expect(revoke.headers.get('location')).toBe('/dashboard/keys?done=revoked')
    expect((await api(p, 'GET', '/api/v1/links', { token: made.key })).status).toBe(401)
    expect(await (await browser.get('/dashboard/keys')).text()).toMatch(/data-revoked="true"/)
  })

  it('names a bad field in the page language and stores nothing', async () => {
    const browser = new Browser(p, { 'accept-language': 'fr' })
    await browser.login()
    const bad = await createInDashboard(browser, { name: '', scope: 'all' })
    expect(bad.status).toBe(400)
    expect(bad.html).toContain('Donnez un nom à la clé')
    expect(bad.html).toContain('Choisissez lecture ou écriture.')
    // The admin token has no person: "for me" is refused.
    const me = await createInDashboard(browser, { name: 'Moi', scope: 'read', owner: 'me' })
    expect(me.status).toBe(400)
    expect(me.html).toContain('ne crée que des clés de la boutique')
    expect(await p.deps.db.select().from(apiKeys)).toHaveLength(0)
  })

  it('refuses a form without its token', async () => {
    const browser = await signedIn(p)
    const res = await browser.post('/dashboard/keys', { name: 'x', scope: 'read' })
    expect(res.status).toBe(403)
    expect(await p.deps.db.select().from(apiKeys)).toHaveLength(0)
  })
})

/** A browser signed in as a person (people's own sign-in pages are another feature's). */
async function signedInAs(userId: string) {
  const token = await createSession(p.deps.db, { userId }, T0, SESSION_MAX_AGE_MS)
  const browser = new Browser(p, { 'accept-language': 'en' })
  browser.jar.cookies.set(SESSION_COOKIE, token)
  return browser
}

describe('API keys of a signed-in person', () => {
  it('makes a key "for me" that acts with the person and is named by the audit log', async () => {
    const owner = await person('owner')
    const browser = await signedInAs(owner)
    const page = await (await browser.get('/dashboard/keys')).text()
    expect(page).toContain('value="me"')
    const made = await createInDashboard(browser, {
      name: 'My laptop',
      scope: 'write',
      owner: 'me',
    })
    expect(made.status).toBe(201)
    const row = (await p.deps.db.select().from(apiKeys))[0]!
    expect(row).toMatchObject({ userId: owner, createdBy: owner })
    expect(await (await browser.get('/dashboard/keys')).text()).toContain('owner@shop.example.dz')
    expect((await api(p, 'POST', '/api/v1/links', { token: made.key, json: LINK })).status).toBe(
      201,
    )
    const audit = p.sqlite.sqlite
      .prepare('SELECT action, actor_kind, actor_id, actor_label FROM audit_log ORDER BY id')
      .all()
    expect(audit).toEqual([
      {
        action: 'key_created',
        actor_kind: 'user',
        actor_id: owner,
        actor_label: 'owner@shop.example.dz',
      },
      { action: 'link_created', actor_kind: 'key', actor_id: row.id, actor_label: 'My laptop' },
    ])
    // Through the API, a person's key makes "me" keys for the same person.
    const mine = await api(p, 'POST', '/api/v1/api-keys', {
      token: made.key,
      json: { name: 'Second', scope: 'read', owner: 'me' },
    })
    expect(mine.status).toBe(201)
    expect(mine.body.user_id).toBe(owner)
  })

  it('ends the store keys a person made, and the keys made with them, when the person is removed', async () => {
    const maker = await person('owner', 'usr_maker')
    const other = await person('manager', 'usr_other')
    await p.deps.db.update(users).set({ role: 'owner' }).where(eq(users.id, other))
    const browser = await signedInAs(maker)
    // The page says so, in each language.
    for (const [lang, words] of [
      ['en', 'A store key ends with the person who made it'],
      ['fr', 'Une clé de la boutique prend fin avec la personne qui l’a créée'],
      ['ar', 'ينتهي مفتاح المتجر مع الشخص الذي أنشأه'],
    ] as const) {
      const page = await browser.get('/dashboard/keys', { 'accept-language': lang })
      expect(await page.text(), lang).toContain(words)
    }
    const store = await createInDashboard(browser, { name: 'Shop site', scope: 'write' })
    expect(store.status).toBe(201)
    // A key made with that store key, through the API: it must not outlive its maker either.
    const second = await api(p, 'POST', '/api/v1/api-keys', {
      token: store.key,
      json: { name: 'Made by a key', scope: 'read' },
    })
    expect(second.status).toBe(201)
    const admins = await apiKey('write', 'Made by the admin token')
    for (const token of [store.key, second.body.key, admins.key])
      expect((await api(p, 'GET', '/api/v1/links', { token })).status).toBe(200)

    const owner = await signedInAs(other)
    const removed = await owner.submit('/dashboard/people', `/dashboard/people/${maker}/remove`)
    expect(removed.status).toBe(303)
    for (const token of [store.key, second.body.key])
      expect((await api(p, 'GET', '/api/v1/links', { token })).status).toBe(401)
    expect((await api(p, 'GET', '/api/v1/links', { token: admins.key })).status).toBe(200)
    const rows = await p.deps.db.select().from(apiKeys)
    const revoked = rows.filter((k) => k.revokedAt !== null).map((k) => k.name)
    expect(revoked.sort()).toEqual(['Made by a key', 'Shop site'])
    const audit = p.sqlite.sqlite
      .prepare("SELECT detail FROM audit_log WHERE action = 'key_revoked' ORDER BY id")
      .all() as { detail: string }[]
    expect(audit.map((r) => JSON.parse(r.detail).reason)).toEqual([
      'person_removed',
      'person_removed',
    ])
  })

  it('keeps the keys and audit pages, and their links, from a manager', async () => {
    const manager = await person('manager')
    const browser = await signedInAs(manager)
    const overview = await (await browser.get('/dashboard')).text()
    expect(overview).not.toContain('href="/dashboard/keys"')
    expect(overview).not.toContain('href="/dashboard/audit"')
    expect((await browser.get('/dashboard/keys')).status).toBe(403)
    expect((await browser.get('/dashboard/audit')).status).toBe(403)
    const owner = await signedInAs(await person('owner'))
    const nav = await (await owner.get('/dashboard')).text()
    expect(nav).toContain('href="/dashboard/keys"')
    expect(nav).toContain('href="/dashboard/audit"')
  })
})
