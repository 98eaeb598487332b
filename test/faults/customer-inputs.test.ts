/**
 * Property tests over everything a customer's browser or the gateway sends: the checkout form,
 * the prefill query, the return query and the webhook body. Whatever arrives: no 5xx, and an
 * input that is turned down changes nothing (see `fingerprint` for what "nothing" covers).
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PaymentStatus } from '../../db/schema.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import {
  fieldValue,
  nastyText,
  notText,
  numericText,
  partialRecord,
  rawFormPiece,
} from './arbitraries.js'
import { CUSTOMER, fingerprint, formToken, postCheckout, receiptIdOf } from './support.js'

const RUNS = { numRuns: 150 }

let p: Paylinks
let fixedSlug: string
let openSlug: string
const tokens: Record<string, string> = {}
/** Receipt id → the status the gateway's truth gives it. */
const truth = new Map<string, PaymentStatus>()
const signedPayloads: Record<string, unknown>[] = []
let customer = 0

beforeAll(async () => {
  p = await startPaylinks()
  fixedSlug = (await makeLink(p, { title: 'Fixed', amount: 1500 })).slug
  openSlug = (await makeLink(p, { title: 'Open', amount_min: 100, amount_max: 20_000 })).slug
  tokens[fixedSlug] = await formToken(p, fixedSlug)
  tokens[openSlug] = await formToken(p, openSlug)
  const outcomes = ['approved', 'declined', null] as const
  for (let i = 0; i < outcomes.length; i++) {
    expect((await postCheckout(p, fixedSlug, tokens[fixedSlug]!, ++customer)).status).toBe(303)
  }
  for (const [i, tx] of [...p.simulator.state.transactions.values()].entries()) {
    const outcome = outcomes[i]
    if (outcome) await p.simulator.completePayment(tx.orderId, outcome)
    truth.set(
      receiptIdOf(tx.returnUrl),
      outcome === 'approved' ? 'paid' : outcome ? 'failed' : 'pending',
    )
  }
  await p.settle()
  for (const d of p.simulator.state.deliveries.values()) signedPayloads.push(d.payload)
  expect(statuses()).toEqual(truth)
}, 60_000)

afterAll(async () => {
  await p.close()
})

function statuses(): Map<string, PaymentStatus> {
  const rows = p.sqlite.sqlite
    .prepare('SELECT receipt_id AS receiptId, status FROM payments')
    .all() as { receiptId: string; status: PaymentStatus }[]
  return new Map(rows.filter((r) => truth.has(r.receiptId)).map((r) => [r.receiptId, r.status]))
}

const asText = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))

/** A form field: the valid value most of the time, else something hostile. */
const formField = (valid: string) =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constant(valid) },
    { weight: 1, arbitrary: nastyText },
    { weight: 1, arbitrary: notText },
    { weight: 1, arbitrary: numericText },
    { weight: 1, arbitrary: fieldValue.map(asText) },
  )

const checkoutForm = fc.record(
  {
    name: formField(CUSTOMER.name),
    phone: formField(CUSTOMER.phone),
    email: formField(CUSTOMER.email),
    amount: formField('1500'),
    terms: fc.oneof(fc.constantFrom('yes', 'on', 'true'), nastyText),
    ref: nastyText,
    lang: fc.oneof(fc.constantFrom('ar', 'fr', 'en'), nastyText),
  },
  { requiredKeys: [] },
)

function encode(
  form: Record<string, string>,
  as: 'urlencoded' | 'multipart' | 'json' | 'none',
): { body: string | FormData; headers: Record<string, string> } {
  if (as === 'multipart') {
    const data = new FormData()
    for (const [k, v] of Object.entries(form)) data.append(k, v)
    return { body: data, headers: {} }
  }
  if (as === 'json')
    return { body: JSON.stringify(form), headers: { 'content-type': 'application/json' } }
  const body = new URLSearchParams(form).toString()
  return {
    body,
    headers: as === 'urlencoded' ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
  }
}

describe('the checkout form, whatever is posted', () => {
  it('answers a page (never a 5xx) and changes nothing unless it starts a payment', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(fixedSlug, openSlug),
        checkoutForm,
        fc.constantFrom('valid', 'valid', 'valid', 'valid', 'forged', 'missing'),
        fc.constantFrom('urlencoded', 'urlencoded', 'urlencoded', 'multipart', 'json', 'none'),
        fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
        async (slug, fields, csrf, as, duplicateKeys) => {
          const form: Record<string, string> = { ...fields }
          if (csrf === 'valid') form.csrf = tokens[slug]!
          if (csrf === 'forged') form.csrf = `${Date.now().toString(36)}.forged`
          const { body, headers } = encode(form, as)
          const sent =
            duplicateKeys && typeof body === 'string' ? `${body}&name=&phone=x&terms=no` : body
          const before = fingerprint(p.sqlite.sqlite)
          const transactions = p.simulator.state.transactions.size
          const res = await p.app.request(`/l/${slug}`, {
            method: 'POST',
            body: sent,
            headers: { ...headers, 'x-test-ip': `form-${++customer}` },
          })
          expect(res.status).toBeLessThan(500)
          if (res.status === 303) {
            expect(p.simulator.state.transactions.size).toBe(transactions + 1)
            return
          }
          expect(res.headers.get('content-type')).toContain('text/html')
          expect(fingerprint(p.sqlite.sqlite)).toEqual(before)
          expect(p.simulator.state.transactions.size).toBe(transactions)
        },
      ),
      RUNS,
    )
  }, 60_000)
})

describe('text that is not text in the checkout form', () => {
  it('is refused by the field that holds it, with 400, and changes nothing', async () => {
    const field = fc.constantFrom('name', 'phone', 'email', 'amount', 'ref')
    await fc.assert(
      fc.asyncProperty(field, notText, async (name, bad) => {
        const form = { ...CUSTOMER, amount: '1500', csrf: tokens[openSlug]!, [name]: bad }
        const before = fingerprint(p.sqlite.sqlite)
        const res = await p.app.request(`/l/${openSlug}`, {
          method: 'POST',
          body: new URLSearchParams(form),
          headers: { 'x-test-ip': `text-${++customer}` },
        })
        expect(res.status).toBe(400)
        expect(await res.text()).toContain(`id="${name}-err"`)
        expect(fingerprint(p.sqlite.sqlite)).toEqual(before)
      }),
      RUNS,
    )
  }, 60_000)

  it('a raw body with broken escapes never gives a 5xx, and a refused one changes nothing', async () => {
    const pairs = fc.array(
      fc.tuple(
        fc.constantFrom('name', 'phone', 'email', 'amount', 'ref', 'terms', 'x'),
        fc.array(fc.oneof(rawFormPiece, fc.constantFrom('Amina', '0550', '@b.dz')), {
          maxLength: 4,
        }),
      ),
      { maxLength: 4 },
    )
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(fixedSlug, openSlug), pairs, async (slug, broken) => {
        const valid = new URLSearchParams({ ...CUSTOMER, amount: '1500', csrf: tokens[slug]! })
        const body = [valid.toString(), ...broken.map(([k, v]) => `${k}=${v.join('')}`)].join('&')
        const before = fingerprint(p.sqlite.sqlite)
        const res = await p.app.request(`/l/${slug}`, {
          method: 'POST',
          body,
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            'x-test-ip': `raw-${++customer}`,
          },
        })
        expect(res.status).toBeLessThan(500)
        await res.text()
        if (res.status !== 303) expect(fingerprint(p.sqlite.sqlite)).toEqual(before)
      }),
      RUNS,
    )
  }, 60_000)
})

describe('the prefill query of the checkout page', () => {
  it('always shows the page and changes nothing', async () => {
    const query = fc.oneof(
      partialRecord(['name', 'phone', 'email', 'amount', 'ref', 'lang'], fieldValue).map(
        (q) => `?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, asText(v)]))}`,
      ),
      nastyText.map((raw) => `?${raw}`),
    )
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(fixedSlug, openSlug), query, async (slug, q) => {
        const before = fingerprint(p.sqlite.sqlite)
        const res = await p.app.request(`/l/${slug}${q}`)
        expect(res.status).toBe(200)
        await res.text()
        expect(fingerprint(p.sqlite.sqlite)).toEqual(before)
      }),
      RUNS,
    )
  }, 60_000)
})

describe('the return query', () => {
  it('never decides an outcome: a page every time, and each payment stays as the gateway says', async () => {
    const receipts = [...truth.keys()]
    const replayed = signedPayloads.flatMap((d) => [String(d.message), String(d.signature)])
    const value = fc.oneof(fieldValue.map(asText), fc.constantFrom(...replayed, 'success'))
    const query = partialRecord(
      ['payment_status', 'transaction_id', 'cib_transaction_id', 'signature', 'message', 'lang'],
      value,
    )
    await fc.assert(
      fc.asyncProperty(
        fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...receipts) }, nastyText),
        query,
        async (receipt, q) => {
          const before = fingerprint(p.sqlite.sqlite, ['links', 'webhook_events', 'settings'])
          const params = new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))
          const res = await p.app.request(`/r/${encodeURIComponent(receipt)}?${params}`)
          expect(res.status).toBeLessThan(500)
          expect(res.headers.get('content-type')).toContain('text/html')
          await res.text()
          await p.settle()
          expect(statuses()).toEqual(truth)
          expect(fingerprint(p.sqlite.sqlite, ['links', 'webhook_events', 'settings'])).toEqual(
            before,
          )
        },
      ),
      RUNS,
    )
  }, 60_000)
})

describe('the webhook body', () => {
  it('never answers 5xx, a refused body changes nothing, and no payment leaves its true state', async () => {
    const fields = [
      'event',
      'payment_status',
      'transaction_id',
      'cib_transaction_id',
      'order_id',
      'order_number',
      'amount',
      'currency',
      'resp_code',
      'message',
      'signature',
    ]
    const mutated = fc
      .tuple(
        fc.constantFrom(...signedPayloads),
        fc.dictionary(fc.constantFrom(...fields), fieldValue, { maxKeys: 2 }),
        fc.subarray(fields, { maxLength: 1 }),
      )
      .map(([base, changes, dropped]) => {
        const event: Record<string, unknown> = { ...base, ...changes }
        for (const key of dropped) delete event[key]
        return JSON.stringify(event)
      })
    const body = fc.oneof(nastyText, fc.json({ maxDepth: 3 }), { weight: 4, arbitrary: mutated })
    await fc.assert(
      fc.asyncProperty(body, async (raw) => {
        await p.settle()
        const before = fingerprint(p.sqlite.sqlite)
        const res = await p.app.request('/webhooks/gateway', {
          method: 'POST',
          body: raw,
          headers: { 'content-type': 'application/json' },
        })
        expect(res.status).toBeLessThan(500)
        await p.settle()
        if (res.status >= 400) expect(fingerprint(p.sqlite.sqlite)).toEqual(before)
        expect(statuses()).toEqual(truth)
      }),
      RUNS,
    )
  }, 60_000)
})
