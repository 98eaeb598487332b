/**
 * The link fixture of every test: one set of link values, and the three ways a test makes a link —
 * stored as it is (`storeLink`), through the service the API and dashboard share (`makeLink`,
 * validated like a merchant's body), or through the merchant API itself (`postLink`).
 */
import { expect } from 'vitest'
import type { Link } from '../../db/schema.js'
import { createLink } from '../../src/data/links.js'
import type { LinkValues } from '../../src/domain/link-rules.js'
import { createLinkFromBody } from '../../src/links/service.js'
import { type Paylinks, TEST_ADMIN_TOKEN } from './harness.js'
import { T0 } from './manual-time.js'

/** A fixed-amount link's values (1500 DZD, French), with overrides. */
export function linkValues(overrides: Partial<LinkValues> = {}): LinkValues {
  return {
    title: 'Consultation',
    description: null,
    amount: 150000,
    amountMin: null,
    amountMax: null,
    invoiceId: null,
    invoiceItems: null,
    maxPayments: null,
    expiresAt: null,
    language: 'fr',
    memo: null,
    successMessage: null,
    successUrl: null,
    active: true,
    inactiveMessage: null,
    ...overrides,
  }
}

type Db = Paylinks['deps']['db']

/**
 * Stores a link as given, without the checks a merchant's input meets: in Paylinks' database at
 * its clock's time, or in `db` at `now` (T0 unless given).
 */
export function storeLink(
  where: Paylinks | Db,
  overrides: Partial<LinkValues> = {},
  now?: number,
): Promise<Link> {
  if ('deps' in where)
    return createLink(where.deps.db, linkValues(overrides), now ?? where.deps.clock())
  return createLink(where, linkValues(overrides), now ?? T0)
}

/** Creates a link from a merchant API body through the service the API and dashboard use. */
export async function makeLink(p: Paylinks, body: Record<string, unknown>) {
  const result = await createLinkFromBody(p.deps, body)
  if (!result.ok) throw new Error(`link not created: ${JSON.stringify(result)}`)
  return result.link
}

/** Creates a link through POST /api/v1/links and returns its API object (fails the test otherwise). */
export async function postLink(p: Paylinks, body: Record<string, unknown>) {
  const res = await p.app.request('/api/v1/links', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': TEST_ADMIN_TOKEN },
    body: JSON.stringify(body),
  })
  const text = await res.text()
  expect(res.status, text).toBe(201)
  // biome-ignore lint/suspicious/noExplicitAny: tests read the object by path and assert every value they use.
  return JSON.parse(text) as any
}
