/**
 * The Worker's start keeps its generated settings (session secret, admin token hash) in D1 with one
 * batch: the first value stored wins, every start reads the stored ones. On a real local D1
 * (miniflare, migrated by wrangler), its calls counted.
 */
import type { D1Database } from '@cloudflare/workers-types/index.ts'
import { describe, expect, it } from 'vitest'
import { resolveSecrets } from '../../src/bootstrap.js'
import { parseConfig } from '../../src/config.js'
import { sha256Hex } from '../../src/lib/hash.js'
import { keepSettingsInD1 } from '../../src/worker-settings.js'
import { useLocalD1 } from './support.js'

const local = useLocalD1('settings')

/** The local D1, counting its calls that reach the database (a batch counts once). */
function countingD1(count: { calls: number }): D1Database {
  return new Proxy(local.d1(), {
    get(target, key) {
      const value = Reflect.get(target, key)
      if (typeof value !== 'function') return value
      if (key === 'batch' || key === 'exec') {
        return (...args: unknown[]) => {
          count.calls++
          return value.apply(target, args)
        }
      }
      return value.bind(target)
    },
  })
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
    const count = { calls: 0 }
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
    expect(count.calls).toBe(3)
    const row = await local
      .d1()
      .prepare("SELECT created_at FROM settings WHERE key = 'kept_a'")
      .first()
    expect(row).toEqual({ created_at: 1 })
  })

  it('gives every start the same secrets, read in one D1 call', async () => {
    const count = { calls: 0 }
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
    expect(count.calls).toBe(3)
  })
})
