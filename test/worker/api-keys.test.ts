/**
 * API keys and the audit log on Workers, over a local D1 migrated by wrangler: a key made with the
 * admin token opens the API, its use is noted, revoking it refuses it on the next request, and the
 * audit log lists both acts.
 */
import { describe, expect, it } from 'vitest'
import { useWorker, WORKER_ADMIN_TOKEN } from './support.js'

const worker = useWorker()

const call = (path: string, key: string, init: RequestInit = {}) =>
  fetch(`${worker().url}${path}`, {
    ...init,
    headers: { 'x-api-key': key, 'content-type': 'application/json', ...init.headers },
  })

describe('API keys on Workers', () => {
  it('makes, uses and revokes a key; the audit log shows each step', async () => {
    const made = await call('/api/v1/api-keys', WORKER_ADMIN_TOKEN, {
      method: 'POST',
      body: JSON.stringify({ name: 'Shop site', scope: 'write' }),
    })
    expect(made.status).toBe(201)
    const { id, key } = (await made.json()) as { id: string; key: string }
    expect(key).toMatch(/^pl_test_[0-9A-Za-z]{40}$/)
    const used = await fetch(`${worker().url}/api/v1/links`, {
      headers: { authorization: `Bearer ${key}` },
    })
    expect(used.status).toBe(200)
    const list = (await (await call('/api/v1/api-keys', WORKER_ADMIN_TOKEN)).json()) as {
      data: { id: string; last_used_at: string | null }[]
    }
    expect(list.data.find((k) => k.id === id)?.last_used_at).not.toBeNull()
    expect((await call(`/api/v1/api-keys/${id}`, key, { method: 'DELETE' })).status).toBe(200)
    expect((await call('/api/v1/links', key)).status).toBe(401)
    const audit = (await (await call('/api/v1/audit?group=keys', WORKER_ADMIN_TOKEN)).json()) as {
      data: { action: string; actor: { kind: string } }[]
    }
    expect(audit.data.map((e) => [e.action, e.actor.kind])).toEqual([
      ['key_revoked', 'key'],
      ['key_created', 'admin'],
    ])
    expect(worker().logs.join('\n')).not.toContain(key)
  })
})
