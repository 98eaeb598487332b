/**
 * Property tests over the merchant API's inputs: link bodies (POST, PATCH), list queries and the
 * credentials. Whatever arrives: no 5xx, errors in the documented shape, and a refused request
 * changes nothing. The clock moves a minute per run so the link-write limit stays out of the way.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Paylinks, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import {
  anyJson,
  fieldValue,
  inheritedNames,
  nastyText,
  notText,
  numericText,
  partialRecord,
} from './arbitraries.js'
import { fingerprint, formToken, postCheckout } from './support.js'

const RUNS = { numRuns: 150 }
const LINK_FIELDS = [
  'title',
  'description',
  'amount',
  'amount_min',
  'amount_max',
  'invoice_id',
  'invoice_items',
  'max_payments',
  'expires_at',
  'language',
  'memo',
  'success_message',
  'success_url',
  'active',
  'inactive_message',
] as const

let p: Paylinks
let now = Date.UTC(2026, 5, 1, 9, 0, 0)
let patchId: string
let caller = 0
const linkIds: string[] = []
let cursor = ''

beforeAll(async () => {
  p = await startPaylinks({ clock: () => now })
  for (let i = 0; i < 3; i++) {
    const link = await makeLink(p, { title: `Link ${i}`, amount: 1000 + i })
    linkIds.push(link.id)
    const csrf = await formToken(p, link.slug)
    for (let j = 0; j < 2; j++) await postCheckout(p, link.slug, csrf, i * 10 + j)
  }
  patchId = linkIds[0]!
  const page = await api('GET', '/api/v1/payments?limit=2')
  cursor = ((await page.json()) as { next_cursor: string }).next_cursor
  expect(cursor).toBeTruthy()
}, 60_000)

afterAll(async () => {
  await p.close()
})

function api(method: string, path: string, init: { body?: string; headers?: object } = {}) {
  return p.app.request(path, {
    method,
    ...(init.body !== undefined ? { body: init.body } : {}),
    headers: {
      'x-api-key': TEST_ADMIN_TOKEN,
      'x-test-ip': `api-${++caller}`,
      ...init.headers,
    } as Record<string, string>,
  })
}

/** A documented error: `{"error": {"code", "message", "fields"}}`; a bad field is named. */
async function expectErrorShape(res: Response) {
  const body = (await res.json()) as {
    error?: { code?: unknown; message?: unknown; fields?: object }
  }
  expect(typeof body.error?.code).toBe('string')
  expect(typeof body.error?.message).toBe('string')
  if (body.error?.code === 'invalid_body' || body.error?.code === 'invalid_query')
    expect(Object.keys(body.error.fields ?? {}).length).toBeGreaterThan(0)
}

const item = fc.record(
  { description: fieldValue, quantity: fc.oneof(anyJson, fc.integer()), unit_price: anyJson },
  { requiredKeys: [] },
)
const linkBody = fc.oneof(
  { weight: 3, arbitrary: partialRecord(LINK_FIELDS, fieldValue) },
  {
    // Near-valid: a title and an amount, then a few hostile fields on top.
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.oneof(fc.constant(1500), numericText, anyJson),
        fc.dictionary(fc.oneof(fc.constantFrom(...LINK_FIELDS), inheritedNames), fieldValue, {
          maxKeys: 2,
        }),
        fc.option(fc.array(item, { maxLength: 3 })),
      )
      .map(([amount, extra, items]) => ({
        title: 'Commande',
        amount,
        ...extra,
        ...(items ? { invoice_items: items } : {}),
      })),
  },
  { weight: 1, arbitrary: anyJson },
)
const encodedBody = fc.oneof(
  { weight: 6, arbitrary: linkBody.map((b) => JSON.stringify(b)) },
  { weight: 1, arbitrary: nastyText },
)
const contentType = fc.constantFrom(
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
)

describe('link bodies', () => {
  it('POST /api/v1/links: no 5xx, and a refused body creates nothing', async () => {
    await fc.assert(
      fc.asyncProperty(encodedBody, contentType, async (body, type) => {
        now += 61_000
        const before = fingerprint(p.sqlite.sqlite)
        const res = await api('POST', '/api/v1/links', { body, headers: { 'content-type': type } })
        expect(res.status).toBeLessThan(500)
        if (res.status === 201) {
          const link = (await res.json()) as { id: string }
          expect(typeof link.id).toBe('string')
          return
        }
        expect(res.status).toBeGreaterThanOrEqual(400)
        await expectErrorShape(res)
        expect(fingerprint(p.sqlite.sqlite)).toEqual(before)
      }),
      RUNS,
    )
  }, 60_000)

  it('PATCH /api/v1/links/:id: no 5xx, and a refused body changes nothing', async () => {
    const id = fc.oneof({ weight: 4, arbitrary: fc.constant(patchId) }, nastyText)
    await fc.assert(
      fc.asyncProperty(id, encodedBody, contentType, async (linkId, body, type) => {
        now += 61_000
        const before = fingerprint(p.sqlite.sqlite)
        const res = await api('PATCH', `/api/v1/links/${encodeURIComponent(linkId)}`, {
          body,
          headers: { 'content-type': type },
        })
        expect(res.status).toBeLessThan(500)
        if (res.status === 200) return
        expect(res.status).toBeGreaterThanOrEqual(400)
        await expectErrorShape(res)
        expect(fingerprint(p.sqlite.sqlite)).toEqual(before)
      }),
      RUNS,
    )
  }, 60_000)
})

describe('text that is not text', () => {
  it('in any text field of a link body: 400 naming that field, and nothing created', async () => {
    const field = fc.constantFrom(
      'title',
      'description',
      'invoice_id',
      'memo',
      'success_message',
      'success_url',
      'inactive_message',
    )
    await fc.assert(
      fc.asyncProperty(field, notText, async (name, bad) => {
        const before = fingerprint(p.sqlite.sqlite)
        const body = { title: 'Commande', amount: 1500, [name]: bad }
        const res = await api('POST', '/api/v1/links', {
          body: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        })
        expect(res.status).toBe(400)
        const answer = (await res.json()) as { error: { fields: Record<string, string> } }
        expect(Object.keys(answer.error.fields)).toContain(name)
        expect(fingerprint(p.sqlite.sqlite)).toEqual(before)
      }),
      RUNS,
    )
  }, 60_000)
})

describe('names every object already has', () => {
  it.each(['constructor', '__proto__', 'toString'])(
    'names a stray %s key of a body or a query in the 400, like any other unknown name',
    async (name) => {
      now += 61_000
      const body = `{"title":"Commande","amount":1500,${JSON.stringify(name)}:1}`
      const created = await api('POST', '/api/v1/links', {
        body,
        headers: { 'content-type': 'application/json' },
      })
      expect(created.status).toBe(400)
      expect(((await created.json()) as { error: { fields: object } }).error.fields).toEqual({
        [name]: `${name} is not a field of a link`,
      })
      const listed = await api('GET', `/api/v1/payments?${name}=1`)
      expect(listed.status).toBe(400)
      expect(
        Object.keys(((await listed.json()) as { error: { fields: object } }).error.fields),
      ).toEqual([name])
    },
  )
})

describe('list queries', () => {
  const value = () =>
    fc.oneof(
      fieldValue.map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))),
      fc.constantFrom(
        'paid',
        'pending',
        'pending,paid',
        'refunded',
        '2026-06-01',
        '2026-06-01T10:00:00Z',
        '2026-02-30',
        '50',
        '0',
        '101',
        'true',
      ),
      fc.constantFrom(...linkIds, cursor),
    )

  it.each([
    ['/api/v1/payments', ['status', 'link', 'link_id', 'from', 'to', 'limit', 'cursor']],
    ['/api/v1/links', ['limit', 'cursor', 'active']],
  ])(
    'GET %s: 200 or a 400 naming the parameter, never a 5xx, nothing changed',
    async (path, names) => {
      const name = fc.oneof(fc.constantFrom(...names), nastyText, inheritedNames)
      const query = fc.array(fc.tuple(name, value()), {
        maxLength: 5,
      })
      await fc.assert(
        fc.asyncProperty(query, async (pairs) => {
          const before = fingerprint(p.sqlite.sqlite)
          const res = await api('GET', `${path}?${new URLSearchParams(pairs)}`)
          expect([200, 400]).toContain(res.status)
          if (res.status === 400) {
            const body = (await res.json()) as { error: { fields?: Record<string, string> } }
            expect(Object.keys(body.error.fields ?? {}).length).toBeGreaterThan(0)
          } else {
            expect(Array.isArray(((await res.json()) as { data: unknown }).data)).toBe(true)
          }
          expect(fingerprint(p.sqlite.sqlite)).toEqual(before)
        }),
        RUNS,
      )
    },
    60_000,
  )
})

describe('credentials', () => {
  it('any other X-API-Key or Authorization gets 401 (429 once guessing is throttled), never a 5xx, and changes nothing', async () => {
    const header = fc.oneof(
      fc.tuple(fc.constant('x-api-key'), nastyText),
      fc.tuple(
        fc.constant('authorization'),
        nastyText.map((t) => `Bearer ${t}`),
      ),
      fc.tuple(fc.constant('authorization'), nastyText),
    )
    let caller = 0
    await fc.assert(
      fc.asyncProperty(header, fc.constantFrom('GET', 'POST'), async ([name, raw], method) => {
        // Header values cannot carry control characters or non-Latin-1 text on the wire.
        const value = raw.replace(/[^\x20-\x7e]/g, '').trim()
        fc.pre(value !== TEST_ADMIN_TOKEN && value !== `Bearer ${TEST_ADMIN_TOKEN}`)
        const before = fingerprint(p.sqlite.sqlite)
        const res = await p.app.request('/api/v1/links', {
          method,
          // Each from its own address; past 100 wrong tokens in all, every token gets 429 a while.
          headers: {
            [name]: value,
            'content-type': 'application/json',
            'x-test-ip': `10.9.${caller >> 8}.${++caller & 255}`,
          },
          ...(method === 'POST' ? { body: JSON.stringify({ title: 'X', amount: 1500 }) } : {}),
        })
        expect([401, 429]).toContain(res.status)
        if (res.status === 429) expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/)
        await expectErrorShape(res)
        expect(fingerprint(p.sqlite.sqlite)).toEqual(before)
      }),
      RUNS,
    )
  }, 60_000)
})
