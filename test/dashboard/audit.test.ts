/**
 * The audit log on a real SQLite file: one entry for each act the dashboard and the API perform
 * (links, webhook endpoints, CSV exports, API keys) with its actor, address and a detail free of
 * secrets and customer data; the owner's page filtered by kind, actor and Algiers days and paged;
 * the API's listing with the same filters.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { apiKeys, auditLog, deliveries, users } from '../../db/schema.js'
import { createApiKey } from '../../src/auth/api-keys.js'
import { recordAudit } from '../../src/data/audit.js'
import { type AuditAction, auditGroupOf } from '../../src/domain/audit-actions.js'
import { api } from '../api/helpers.js'
import { startPayment } from '../flows/support.js'
import { type Receiver, startReceiver } from '../outbound-webhooks/receiver.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { T0 } from '../support/manual-time.js'
import { Browser } from './helpers.js'

let now = T0
let p: Paylinks
let receiver: Receiver
let browser: Browser
beforeEach(async () => {
  now = T0
  receiver = await startReceiver()
  p = await startPaylinks({ clock: () => now })
  browser = new Browser(p, { 'accept-language': 'en', 'x-test-ip': '192.0.2.10' })
  expect((await browser.login()).status).toBe(303)
})
afterEach(async () => {
  await p.close()
  await receiver.close()
})

const entries = () => p.deps.db.select().from(auditLog).orderBy(auditLog.id)

/** A paid payment on a new link: its webhook delivery exists when this returns. */
async function paidPayment() {
  const link = await makeLink(p, { title: 'Commande', amount: 2500, language: 'fr' })
  const { tx, payment } = await startPayment(p, link.slug)
  await p.simulator.completePayment(tx.cibTransactionId, 'approved')
  await p.settle()
  return payment
}

describe('what the dashboard records', () => {
  it('records each link act with the signed-in actor and address', async () => {
    const created = await browser.submit('/dashboard/links/new', '/dashboard/links', {
      title: 'Atelier poterie',
      pricing: 'fixed',
      amount: '2500',
      language: 'fr',
      active: 'on',
    })
    const id = /\/dashboard\/links\/(lnk_\w+)\?/.exec(created.headers.get('location') ?? '')?.[1]
    expect(id).toBeTruthy()
    await browser.submit(`/dashboard/links/${id}/edit`, `/dashboard/links/${id}`, {
      title: 'Atelier poterie (été)',
      pricing: 'fixed',
      amount: '2500',
      language: 'fr',
      active: 'on',
    })
    await browser.submit(`/dashboard/links/${id}`, `/dashboard/links/${id}/deactivate`)
    await browser.submit(`/dashboard/links/${id}`, `/dashboard/links/${id}/activate`)
    await browser.submit(`/dashboard/links/${id}`, `/dashboard/links/${id}/delete`)
    // Sign-ins are recorded by the sign-in itself; this test looks at the links' acts.
    const log = (await entries()).filter((e) => auditGroupOf(e.action) !== 'access')
    expect(log.map((e) => e.action)).toEqual([
      'link_created',
      'link_updated',
      'link_deactivated',
      'link_activated',
      'link_deleted',
    ])
    for (const e of log.filter((e) => e.action.startsWith('link_'))) {
      expect(e).toMatchObject({
        actorKind: 'admin',
        actorLabel: 'admin token',
        targetKind: 'link',
        targetId: id,
        address: '192.0.2.10',
      })
    }
    expect(log.find((e) => e.action === 'link_updated')?.detail).toEqual({
      title: 'Atelier poterie (été)',
      fields: ['title'],
    })
  })

  it('records webhook endpoint acts, never the secret nor the address query', async () => {
    const form = new URLSearchParams({ url: `${receiver.url}?token=hunter2`, description: 'x' })
    form.append('event_types[]', 'payment.paid')
    form.set('enabled', 'on')
    form.set('_csrf', await browser.formToken('/dashboard/webhooks/new'))
    const res = await browser.post('/dashboard/webhooks', form)
    expect(res.status).toBe(201)
    const html = await res.text()
    const id = /data-endpoint-id="(we_\w+)"/.exec(html)?.[1] ?? ''
    const secret = /value="(whsec_[^"]+)"/.exec(html)?.[1] ?? ''
    expect(secret).not.toBe('')
    // A paid payment queues a delivery to it; sending that again is an act too.
    await paidPayment()
    await p.deps.outbound.run()
    const [delivery] = await p.deps.db.select().from(deliveries).limit(1)
    const eventId = delivery?.eventId ?? ''
    expect(eventId).not.toBe('')
    const again = await browser.submit(
      `/dashboard/webhooks/${id}`,
      `/dashboard/webhooks/${id}/deliveries/${eventId}/redeliver`,
    )
    expect(again.status).toBe(303)
    await browser.submit(`/dashboard/webhooks/${id}`, `/dashboard/webhooks/${id}/disable`)
    await browser.submit(`/dashboard/webhooks/${id}`, `/dashboard/webhooks/${id}/enable`)
    const rotated = await browser.submit(
      `/dashboard/webhooks/${id}`,
      `/dashboard/webhooks/${id}/rotate`,
    )
    const newSecret = /value="(whsec_[^"]+)"/.exec(await rotated.text())?.[1] ?? ''
    await browser.submit(`/dashboard/webhooks/${id}`, `/dashboard/webhooks/${id}/delete`)
    const log = (await entries()).filter((e) => e.targetKind === 'webhook_endpoint')
    expect(log.map((e) => e.action)).toEqual([
      'webhook_endpoint_created',
      'delivery_redelivered',
      'webhook_endpoint_updated',
      'webhook_endpoint_updated',
      'webhook_secret_rotated',
      'webhook_endpoint_deleted',
    ])
    expect(log[1]?.detail).toEqual({ url: receiver.url, event_id: eventId })
    expect(log[2]?.detail).toEqual({ url: receiver.url, fields: ['enabled'], enabled: false })
    const all = JSON.stringify(await entries())
    for (const hidden of [secret, newSecret, 'hunter2']) expect(all).not.toContain(hidden)
  })

  it('records a CSV export with its filters but not the search text', async () => {
    const res = await browser.get('/dashboard/payments.csv?status=paid&q=Amina')
    expect(res.status).toBe(200)
    await res.text()
    const log = await entries()
    const exported = log.find((e) => e.action === 'export_downloaded')
    expect(exported?.detail).toEqual({
      export: 'payments.csv',
      filters: { status: 'paid' },
      search: true,
    })
    expect(JSON.stringify(log)).not.toContain('Amina')
  })

  it('records keys created and revoked, with the name and prefix only', async () => {
    const made = await browser.submit('/dashboard/keys', '/dashboard/keys', {
      name: 'Shop site',
      scope: 'read',
    })
    const key = /value="(pl_test_\w+)"/.exec(await made.text())?.[1] ?? ''
    const [apiKey] = await p.deps.db.select().from(apiKeys).limit(1)
    const id = apiKey!.id
    await browser.submit('/dashboard/keys', `/dashboard/keys/${id}/revoke`)
    // Revoking again records nothing more.
    await browser.submit('/dashboard/keys', `/dashboard/keys/${id}/revoke`)
    const log = (await entries()).filter((e) => e.targetKind === 'api_key')
    expect(log.map((e) => e.action)).toEqual(['key_created', 'key_revoked'])
    expect(log[0]?.detail).toEqual({
      name: 'Shop site',
      prefix: key.slice(0, 12),
      scope: 'read',
      user_id: null,
    })
    expect(JSON.stringify(log)).not.toContain(key.slice(12))
  })
})

describe('what the API records', () => {
  it('records link, webhook and key acts with the key that acted', async () => {
    const made = await api(p, 'POST', '/api/v1/api-keys', {
      json: { name: 'Integration', scope: 'write' },
      headers: { 'x-test-ip': '198.51.100.7' },
    })
    const key = made.body.key as string
    const as = { token: key, headers: { 'x-test-ip': '198.51.100.7' } }
    const link = await api(p, 'POST', '/api/v1/links', { ...as, json: { title: 'T', amount: 900 } })
    const linkId = link.body.id as string
    await api(p, 'PATCH', `/api/v1/links/${linkId}`, { ...as, json: { active: false } })
    await api(p, 'PATCH', `/api/v1/links/${linkId}`, { ...as, json: { active: true } })
    await api(p, 'PATCH', `/api/v1/links/${linkId}`, { ...as, json: { title: 'T2' } })
    await api(p, 'DELETE', `/api/v1/links/${linkId}`, as)
    const payment = await paidPayment()
    const endpoint = await api(p, 'POST', '/api/v1/webhook-endpoints', {
      ...as,
      json: { url: receiver.url },
    })
    const endpointId = endpoint.body.id as string
    await api(p, 'PATCH', `/api/v1/webhook-endpoints/${endpointId}`, {
      ...as,
      json: { description: 'Orders' },
    })
    await api(p, 'POST', `/api/v1/webhook-endpoints/${endpointId}/rotate-secret`, as)
    // A delivery made for the endpoint by a later payment, then sent again.
    const second = await paidPayment()
    await p.deps.outbound.run()
    const deliveries = await api(p, 'GET', `/api/v1/webhook-endpoints/${endpointId}/deliveries`, as)
    const eventId = deliveries.body.data[0]?.id as string
    expect(eventId).toBeTruthy()
    expect(
      (
        await api(
          p,
          'POST',
          `/api/v1/webhook-endpoints/${endpointId}/deliveries/${eventId}/redeliver`,
          as,
        )
      ).status,
    ).toBe(202)
    await api(p, 'DELETE', `/api/v1/webhook-endpoints/${endpointId}`, as)
    const keyId = made.body.id as string
    await api(p, 'DELETE', `/api/v1/api-keys/${keyId}`, as)
    const log = await entries()
    const byKey = log.filter((e) => e.actorKind === 'key')
    expect(byKey.map((e) => e.action)).toEqual([
      'link_created',
      'link_deactivated',
      'link_activated',
      'link_updated',
      'link_deleted',
      'webhook_endpoint_created',
      'webhook_endpoint_updated',
      'webhook_secret_rotated',
      'delivery_redelivered',
      'webhook_endpoint_deleted',
      'key_revoked',
    ])
    for (const e of byKey)
      expect(e).toMatchObject({
        actorId: keyId,
        actorLabel: 'Integration',
        address: '198.51.100.7',
      })
    // The key was made with the admin token (after its own sign-in, recorded as such).
    expect(log.find((e) => e.action === 'key_created')).toMatchObject({ actorKind: 'admin' })
    expect(log.filter((e) => e.actorKind === 'admin').map((e) => e.action)).toEqual([
      'login',
      'key_created',
    ])
    // No customer data: the payments' customers never reach the log.
    const all = JSON.stringify(log)
    for (const pay of [payment, second])
      for (const value of [pay.customerName, pay.customerPhone, pay.customerEmail])
        expect(all).not.toContain(value)
    expect(all).not.toContain(key.slice(12))
  })
})

/** Entries written straight to the log at chosen times, for the filters and paging. */
async function seed(list: [AuditAction, number, string | null][]) {
  for (const [action, at, keyId] of list)
    await recordAudit(p.deps.db, {
      at,
      action,
      actor: keyId
        ? { kind: 'key', keyId, name: `key ${keyId}`, scope: 'write', userId: null, role: 'owner' }
        : { kind: 'admin' },
      address: '203.0.113.5',
    })
}

const DAY = 86_400_000
// 2026-03-10 00:30 in Algiers (UTC+1) is 2026-03-09 23:30 UTC.
const MARCH_10 = Date.UTC(2026, 2, 9, 23, 30)

describe('the audit log page', () => {
  it('lists newest first and filters by kind, actor and Algiers days', async () => {
    await seed([
      ['link_created', MARCH_10 - 2 * 3_600_000, 'key_a'],
      ['link_updated', MARCH_10, 'key_a'],
      ['webhook_endpoint_created', MARCH_10 + 60_000, null],
      ['export_downloaded', MARCH_10 + DAY, 'key_b'],
    ])
    const ids = (html: string) =>
      [...html.matchAll(/data-action="(\w+)"/g)]
        .map((m) => m[1]!)
        .filter((a) => auditGroupOf(a) !== 'access')
    const all = await (await browser.get('/dashboard/audit')).text()
    expect(ids(all)).toEqual([
      'export_downloaded',
      'webhook_endpoint_created',
      'link_updated',
      'link_created',
    ])
    expect(all).toContain('Changed a link')
    expect(all).toContain('203.0.113.5')
    const links = await (await browser.get('/dashboard/audit?group=links')).text()
    expect(ids(links)).toEqual(['link_updated', 'link_created'])
    const byB = await (await browser.get('/dashboard/audit?actor=key_b')).text()
    expect(ids(byB)).toEqual(['export_downloaded'])
    const admin = await (await browser.get('/dashboard/audit?actor=admin&group=webhooks')).text()
    expect(ids(admin)).toEqual(['webhook_endpoint_created'])
    // March 10 in Algiers: from 00:00 (23:00 UTC the day before) to midnight.
    const day = await (await browser.get('/dashboard/audit?from=2026-03-10&to=2026-03-10')).text()
    expect(ids(day)).toEqual(['webhook_endpoint_created', 'link_updated'])
  })

  it('pages with a cursor, 50 entries a page', async () => {
    await seed(
      Array.from(
        { length: 120 },
        (_, i) => ['link_updated', MARCH_10 + i * 1000, 'key_a'] as const,
      ),
    )
    const rows = (html: string) => [...html.matchAll(/data-audit-id="(\d+)"/g)].map((m) => m[1])
    const next = (html: string) =>
      /<a href="([^"]+)" rel="next"/.exec(html)?.[1]?.replaceAll('&amp;', '&')
    const first = await (await browser.get('/dashboard/audit?group=links')).text()
    expect(rows(first)).toHaveLength(50)
    const second = await (await browser.get(next(first)!)).text()
    const third = await (await browser.get(next(second)!)).text()
    expect(rows(third)).toHaveLength(20)
    expect(next(third)).toBeUndefined()
    const seen = [...rows(first), ...rows(second), ...rows(third)]
    expect(new Set(seen).size).toBe(120)
  })

  it('names a bad filter in the page language with 400', async () => {
    const fr = new Browser(p, { 'accept-language': 'fr' })
    await fr.login()
    const res = await fr.get('/dashboard/audit?group=everything&from=2026-02-30')
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('Ce filtre n’est pas valide : group, from.')
  })
})

describe('GET /api/v1/audit', () => {
  it('lists with the same filters and a cursor', async () => {
    await seed([
      ['link_created', MARCH_10, 'key_a'],
      ['link_updated', MARCH_10 + 1000, 'key_a'],
      ['key_created', MARCH_10 + 2000, null],
    ])
    const links = await api(p, 'GET', '/api/v1/audit?group=links&limit=1')
    expect(links.status).toBe(200)
    expect(links.body.data).toHaveLength(1)
    expect(links.body.data[0]).toMatchObject({
      action: 'link_updated',
      group: 'links',
      actor: { kind: 'key', id: 'key_a', label: 'key key_a' },
      address: '203.0.113.5',
    })
    expect(links.body.has_more).toBe(true)
    const more = await api(
      p,
      'GET',
      `/api/v1/audit?group=links&limit=1&cursor=${links.body.next_cursor}`,
    )
    expect(more.body.data.map((e: { action: string }) => e.action)).toEqual(['link_created'])
    expect(more.body.has_more).toBe(false)
    const day = await api(p, 'GET', '/api/v1/audit?from=2026-03-10&to=2026-03-10&actor=admin')
    expect(day.body.data.map((e: { action: string }) => e.action)).toEqual(['key_created'])
    const bad = await api(p, 'GET', '/api/v1/audit?group=nope&from=yesterday')
    expect(bad.status).toBe(400)
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['from', 'group'])
  })

  it("is read by a store read key (the owner's), refused to a viewer's key", async () => {
    const made = await api(p, 'POST', '/api/v1/api-keys', {
      json: { name: 'Reader', scope: 'read' },
    })
    expect((await api(p, 'GET', '/api/v1/audit', { token: made.body.key })).status).toBe(200)
    await p.deps.db.insert(users).values({
      id: 'usr_viewer',
      email: 'viewer@shop.example.dz',
      name: 'Viewer',
      role: 'viewer',
      passwordHash: 'x',
      createdAt: T0,
      updatedAt: T0,
    })
    const viewer = await createApiKey(p.deps, {
      name: 'Viewer key',
      scope: 'read',
      userId: 'usr_viewer',
      createdBy: 'usr_viewer',
    })
    const refused = await api(p, 'GET', '/api/v1/audit', { token: viewer.text })
    expect(refused.status).toBe(403)
    expect(refused.body.error.message).toMatch(/needs audit/)
  })
})
