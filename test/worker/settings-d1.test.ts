/**
 * The Worker's start keeps its generated settings (session secret, admin token hash) in D1: the
 * first value stored wins, every start reads the stored ones, in one read when they are all there
 * and one batch more when one is missing or a decided one changed. On a real local D1 (miniflare,
 * migrated by wrangler), its calls counted.
 */
import type { D1Database } from '@cloudflare/workers-types/index.ts'
import { describe, expect, it } from 'vitest'
import { resolveSecrets } from '../../src/app/assemble.js'
import { parseConfig } from '../../src/config.js'
import { sha256Hex } from '../../src/lib/hash.js'
import { keepSettingsInD1 } from '../../src/runtime/worker/settings.js'
import { useLocalD1 } from './support.js'

const local = useLocalD1('settings')

interface Count {
  /** Calls that reach the database: statement runs, batches and execs. */
  calls: number
  /** Of which batches (the only way the start writes). */
  batches: number
}

/** What reaches D1 (I/O): a statement run, a batch or an exec. Preparing and binding do not. */
const RUNS = new Set(['all', 'raw', 'run', 'first', 'batch', 'exec'])

/** `target` with its calls that reach D1 counted; statements it makes are counted too. */
function counting<T extends object>(target: T, count: Count): T {
  return new Proxy(target, {
    get(object, key) {
      const value = Reflect.get(object, key)
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => {
        if (RUNS.has(String(key))) count.calls++
        if (key === 'batch') count.batches++
        const result = value.apply(object, args)
        return key === 'prepare' || key === 'bind' ? counting(result, count) : result
      }
    },
  })
}

/** The local D1, counting its calls that reach the database. */
function countingD1(count: Count): D1Database {
  return counting(local.d1(), count)
}

const config = (adminToken: string) =>
  parseConfig(
    {
      GATEWAY_MODE: 'live',
      PUBLIC_URL: 'https://pay.example.dz',
      GATEWAY_SITE_URL: 'https://gateway.invalid',
      MERCHANT_ACCOUNT: 'GCAZI7YBLIDJWIVEL7ETNAZGPP3LC24NO6KAOBWZHUERXQ7M5BC52DLV',
      ...(adminToken ? { ADMIN_TOKEN: adminToken } : {}),
    },
    { runtime: 'node' },
  )

describe('settings kept in D1 at the start', () => {
  it('stores each value unless its key has one, and returns the stored ones in order', async () => {
    const count = { calls: 0, batches: 0 }
    const keep = keepSettingsInD1(countingD1(count))
    expect(
      await keep(
        [
          ['kept_a', 'first a'],
          ['kept_b', 'first b'],
        ],
        1,
      ),
    ).toEqual(['first a', 'first b'])
    expect(
      await keep(
        [
          ['kept_b', 'second b'],
          ['kept_a', 'second a'],
        ],
        2,
      ),
    ).toEqual(['first b', 'first a'])
    expect(await keep([['kept_c', 'only c']], 3)).toEqual(['only c'])
    // Stored, then found (one read, no write), then one missing again: a read and a batch.
    expect(count).toEqual({ calls: 5, batches: 2 })
    const row = await local
      .d1()
      .prepare("SELECT created_at FROM settings WHERE key = 'kept_a'")
      .first()
    expect(row).toEqual({ created_at: 1 })
  })

  it('gives every start the same secrets, read in one D1 call', async () => {
    const count = { calls: 0, batches: 0 }
    const keep = keepSettingsInD1(countingD1(count))
    const db = undefined as never // keepSettings replaces drizzle for this read
    const first = await resolveSecrets(db, config(''), 10, keep)
    expect(first.newAdminToken).toMatch(/^plk_/)
    expect(first.secrets.adminTokenHash).toBe(await sha256Hex(first.newAdminToken!))
    const again = await resolveSecrets(db, config(''), 11, keep)
    expect(again.newAdminToken).toBeUndefined()
    expect(again.secrets).toEqual(first.secrets)
    const configured = await resolveSecrets(
      db,
      config('configured-admin-token-0123456789'),
      12,
      keep,
    )
    expect(configured.secrets).toEqual({
      adminTokenHash: await sha256Hex('configured-admin-token-0123456789'),
      sessionSecret: first.secrets.sessionSecret,
    })
    // The first start: a read finding nothing, then the batch storing the secrets; the two after:
    // one read each, no write.
    expect(count).toEqual({ calls: 4, batches: 1 })
  })

  it('writes a decided setting only when it differs from what an earlier start stored', async () => {
    const count = { calls: 0, batches: 0 }
    const d1 = countingD1(count)
    const entries = [['kept_d', 'first d']] as const
    expect(await keepSettingsInD1(d1, [['decided_x', 'on']])(entries, 1)).toEqual(['first d'])
    expect(count).toEqual({ calls: 2, batches: 1 })
    // The same decision: found by the read, nothing written.
    expect(await keepSettingsInD1(d1, [['decided_x', 'on']])(entries, 2)).toEqual(['first d'])
    expect(count).toEqual({ calls: 3, batches: 1 })
    // Another decision: written over the earlier one, the kept value untouched.
    expect(await keepSettingsInD1(d1, [['decided_x', 'off']])(entries, 3)).toEqual(['first d'])
    expect(count).toEqual({ calls: 5, batches: 2 })
    const rows = await local
      .d1()
      .prepare("SELECT key, value, created_at FROM settings WHERE key IN ('decided_x', 'kept_d')")
      .all()
    expect(rows.results).toEqual(
      expect.arrayContaining([
        { key: 'decided_x', value: 'off', created_at: 1 },
        { key: 'kept_d', value: 'first d', created_at: 1 },
      ]),
    )
  })
})
