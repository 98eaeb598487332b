/**
 * The warm-up a Worker runs while its isolate starts (src/runtime/worker/warm.tsx): the first checkout
 * request's code on made-up inputs. workerd refuses random values while an isolate starts, and the
 * warm-up must neither log nor reach the database; a part that breaks must show, not be skipped.
 */

import type { D1Database } from '@cloudflare/workers-types/index.ts'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { parseConfig } from '../../src/config.js'
import { linkBySlugQuery } from '../../src/data/links.js'
import { d1Db } from '../../src/runtime/worker/database.js'
import { warmFirstRequest } from '../../src/runtime/worker/warm.js'
import { altchaCaptcha } from '../../src/security/captcha.js'

const config = parseConfig(
  {
    GATEWAY_MODE: 'sandbox',
    PUBLIC_URL: 'https://pay.example.dz',
    GATEWAY_SITE_URL: 'https://gateway.invalid',
    MERCHANT_ACCOUNT: 'GCAZI7YBLIDJWIVEL7ETNAZGPP3LC24NO6KAOBWZHUERXQ7M5BC52DLV',
    ADMIN_TOKEN: 'warm-admin-token-0123456789abcdef',
  },
  { runtime: 'workers' },
)

afterEach(() => {
  vi.restoreAllMocks()
})

/** What workerd does with random values asked for while an isolate starts. */
function refuseRandomValues() {
  const refuse = () => {
    throw new Error('Disallowed operation called within global scope')
  }
  return [
    vi.spyOn(crypto, 'getRandomValues').mockImplementation(refuse),
    vi.spyOn(crypto, 'randomUUID').mockImplementation(refuse),
  ]
}

/**
 * The Worker's database over a D1 binding that takes statements (D1's `prepare` does no I/O) and
 * fails any call that would reach D1: no I/O is allowed while an isolate starts.
 */
function databaseWithoutIo() {
  const prepared: string[] = []
  const refuse = () => {
    throw new Error('D1 reached while the isolate starts')
  }
  const statement = (sql: string) => ({
    bind: () => statement(sql),
    raw: refuse,
    all: refuse,
    run: refuse,
    first: refuse,
  })
  const binding = {
    prepare: (sql: string) => {
      prepared.push(sql)
      return statement(sql)
    },
    batch: refuse,
    exec: refuse,
  } as unknown as D1Database
  return { db: d1Db(binding), prepared }
}

describe('the warm-up of a starting Worker', () => {
  it('runs the checkout page and the link query without random values or a log line', async () => {
    const random = refuseRandomValues()
    const output = [vi.spyOn(console, 'log'), vi.spyOn(console, 'warn'), vi.spyOn(console, 'error')]
    const { db } = databaseWithoutIo()
    await expect(
      warmFirstRequest({ config, captcha: altchaCaptcha(), db }),
    ).resolves.toBeUndefined()
    await expect(warmFirstRequest({ config, captcha: undefined, db })).resolves.toBeUndefined()
    for (const spy of [...random, ...output]) expect(spy).not.toHaveBeenCalled()
  })

  it("builds the real database's link query, kept for the first request, and reads nothing", async () => {
    const { db, prepared } = databaseWithoutIo()
    await warmFirstRequest({ config, captcha: altchaCaptcha(), db })
    expect(prepared).toHaveLength(1)
    expect(prepared[0]).toMatch(/from "links" where "links"\."slug" = \?/)
    const kept = linkBySlugQuery(db)
    expect(linkBySlugQuery(db)).toBe(kept)
    expect(prepared).toHaveLength(1)
  })

  it('fails when a part it runs fails, instead of skipping it', async () => {
    const captcha = {
      ...altchaCaptcha(),
      widget: () => {
        throw new Error('widget broke')
      },
    }
    await expect(warmFirstRequest({ config, captcha, db: databaseWithoutIo().db })).rejects.toThrow(
      'widget broke',
    )
  })
})
