import { execFileSync } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { PAYMENT_STATUSES } from '../../db/schema.js'
import { checkoutObject } from '../../src/api/checkouts/objects.js'
import { createCheckoutBody, listCheckoutsQuery } from '../../src/api/checkouts/schemas.js'
import { linkObject } from '../../src/api/links/objects.js'
import { createLinkBody, listLinksQuery, updateLinkBody } from '../../src/api/links/schemas.js'
import {
  createCheckoutExamples,
  createLinkExamples,
  linkExample,
  updateLinkExamples,
} from '../../src/api/openapi-examples.js'
import type {
  JsonSchema,
  OpenApiDocument,
  OpenApiMediaType,
  OpenApiResponse,
} from '../../src/api/openapi-types.js'
import { paymentObject } from '../../src/api/payments/objects.js'
import { listPaymentsQuery } from '../../src/api/payments/schemas.js'
import { curlExample } from '../../src/api/schema-text.js'
import { requirementOf } from '../../src/auth/policy.js'
import { type Paylinks, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'
import { postLink } from '../support/links.js'
import { api, payThroughCheckout } from './helpers.js'

let p: Paylinks
let doc: OpenApiDocument
beforeAll(async () => {
  p = await startPaylinks()
  const res = await p.app.request('/api/v1/openapi.json')
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toMatch(/^application\/json/)
  doc = await res.json()
})
afterAll(() => p.close())

/** A validator built from the document's own JSON Schema (not from the zod source). */
function validator(schema: JsonSchema): z.ZodType {
  const local = <T>(v: T): T =>
    JSON.parse(JSON.stringify(v).replaceAll('#/components/schemas/', '#/$defs/'))
  return z.fromJSONSchema({ ...local(schema), $defs: local(doc.components.schemas) } as never)
}

const component = (name: string) => validator({ $ref: `#/components/schemas/${name}` })

function* operations() {
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) if (op) yield { path, method, op }
  }
}

function* mediaTypes(): Generator<[string, OpenApiMediaType]> {
  for (const { path, method, op } of operations()) {
    for (const [type, media] of Object.entries(op.requestBody?.content ?? {}))
      yield [`${method} ${path} body ${type}`, media]
    for (const [status, r] of Object.entries(op.responses))
      if ('content' in r)
        for (const media of Object.values(r.content ?? {}))
          yield [`${method} ${path} ${status}`, media]
  }
  for (const [name, r] of Object.entries(doc.components.responses))
    for (const media of Object.values(r.content ?? {})) yield [`response ${name}`, media]
}

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with this Paylinks as server and both ways to send the token', () => {
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema')
    expect(doc.info.title).toBeTruthy()
    expect(doc.servers).toEqual([{ url: p.url, description: expect.any(String) }])
    expect(doc.components.securitySchemes).toEqual({
      apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: expect.any(String) },
      bearer: { type: 'http', scheme: 'bearer', description: expect.any(String) },
    })
    expect(doc.security).toEqual([{ apiKey: [] }, { bearer: [] }])
  })

  it('documents every route the app serves under /api/v1, and serves every documented one', () => {
    const served = p.app.routes
      .filter((r) => r.path.startsWith('/api/v1/') && r.method !== 'ALL')
      .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`)
    const documented = [...operations()].map(
      ({ path, method }) => `${method.toUpperCase()} ${path}`,
    )
    expect(new Set(served).size).toBeGreaterThanOrEqual(8)
    expect([...new Set(served)].sort()).toEqual([...documented].sort())
  })

  it('gives every operation a unique id, a success answer, and the error answers it can give', () => {
    const ids = new Set<string>()
    for (const { path, method, op } of operations()) {
      const where = `${method} ${path}`
      expect(ids.has(op.operationId), where).toBe(false)
      ids.add(op.operationId)
      expect(
        Object.keys(op.responses).some((s) => s.startsWith('2')),
        where,
      ).toBe(true)
      const isPublic = op.security?.length === 0
      if (!isPublic) expect(op.responses, where).toHaveProperty('401')
      if (!isPublic) expect(op.responses, where).toHaveProperty('429')
      if (op.requestBody)
        for (const s of ['400', '413', '415', '429']) expect(op.responses, where).toHaveProperty(s)
      if (path.includes('{id}')) {
        expect(
          op.parameters?.find((x) => x.name === 'id'),
          where,
        ).toMatchObject({ in: 'path', required: true })
        expect(op.responses, where).toHaveProperty('404')
      }
    }
  })

  it('takes an Idempotency-Key on every write, with its 409, 422 and Idempotent-Replayed', () => {
    const writes: string[] = []
    for (const { path, method, op } of operations()) {
      const where = `${method} ${path}`
      const header = op.parameters?.find((x) => x.name === 'Idempotency-Key')
      if (!['post', 'patch', 'delete'].includes(method)) {
        expect(header, where).toBeUndefined()
        continue
      }
      writes.push(where)
      expect(header, where).toMatchObject({
        in: 'header',
        required: false,
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      })
      const codesOf = (status: string) => {
        const response = op.responses[status]!
        const answer =
          '$ref' in response
            ? doc.components.responses[(response.$ref as string).split('/').pop()!]!
            : response
        const media = answer.content?.['application/json']
        return [media?.example, ...Object.values(media?.examples ?? {}).map((e) => e.value)]
          .filter(Boolean)
          .map((e) => (e as { error: { code: string } }).error.code)
      }
      expect(codesOf('422'), where).toContain('idempotency_key_reused')
      expect(codesOf('409'), where).toContain('idempotency_key_in_use')
      expect(op.responses, where).toHaveProperty('400')
      for (const [status, r] of Object.entries(op.responses))
        if (status.startsWith('2') && !('$ref' in r))
          expect(r.headers, `${where} ${status}`).toHaveProperty('Idempotent-Replayed')
    }
    expect(writes).toEqual(
      expect.arrayContaining([
        'post /api/v1/links',
        'patch /api/v1/links/{id}',
        'delete /api/v1/links/{id}',
      ]),
    )
    // The DELETE's own 409 is kept beside the key's.
    const del = doc.paths['/api/v1/links/{id}']?.delete?.responses['409'] as OpenApiResponse
    expect(Object.keys(del.content?.['application/json']?.examples ?? {}).sort()).toEqual([
      'idempotency_key_in_use',
      'link_has_payments',
    ])
    expect(doc.paths['/api/v1/links']?.post?.responses['422']).toEqual({
      $ref: '#/components/responses/IdempotencyKeyReused',
    })
    // An operation's own 409 and 422 are kept beside the key's, with their headers.
    const examples = (r: unknown) =>
      Object.keys((r as OpenApiResponse).content?.['application/json']?.examples ?? {}).sort()
    const expire = doc.paths['/api/v1/checkouts/{id}/expire']?.post?.responses['409']
    expect(examples(expire)).toEqual([
      'checkout_not_open',
      'checkout_payment_in_progress',
      'idempotency_key_in_use',
    ])
    expect((expire as OpenApiResponse).headers).toHaveProperty('Retry-After')
    const create = doc.paths['/api/v1/checkouts']?.post?.responses['422']
    expect(examples(create)).toEqual(['idempotency_key_reused', 'unprocessable_body'])
  })

  it('documents 403 on every operation whose route needs a permission a key can lack', () => {
    const operationsWithScope: string[] = []
    for (const { path, method, op } of operations()) {
      const where = `${method} ${path}`
      // The route policy decides; a path's parameters stand for any value there.
      const requirement = requirementOf(method.toUpperCase(), path.replace(/\{\w+\}/g, 'x'))
      if (requirement === 'unlisted' || requirement === 'signed-in') {
        expect(op.responses, where).not.toHaveProperty('403')
        continue
      }
      operationsWithScope.push(where)
      expect(op.responses, where).toHaveProperty('403')
      const forbidden = op.responses['403']!
      const answer =
        '$ref' in forbidden
          ? doc.components.responses[(forbidden.$ref as string).split('/').pop()!]
          : forbidden
      expect(answer?.content?.['application/json']?.schema, where).toEqual({
        $ref: '#/components/schemas/Error',
      })
    }
    expect(operationsWithScope).toEqual(
      expect.arrayContaining([
        'post /api/v1/links',
        'patch /api/v1/links/{id}',
        'delete /api/v1/links/{id}',
        'get /api/v1/payments',
        'post /api/v1/webhook-endpoints',
        'post /api/v1/webhook-endpoints/{id}/rotate-secret',
      ]),
    )
    // Every operation but this document's own.
    expect(operationsWithScope).toHaveLength([...operations()].length - 1)
  })

  it('has every $ref point at something in the document', () => {
    const refs: string[] = []
    const walk = (v: unknown) => {
      if (Array.isArray(v)) v.forEach(walk)
      else if (v && typeof v === 'object')
        for (const [k, x] of Object.entries(v)) k === '$ref' ? refs.push(x as string) : walk(x)
    }
    walk(doc)
    expect(refs.length).toBeGreaterThan(20)
    for (const ref of refs) {
      const target = ref
        .slice(2)
        .split('/')
        .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc)
      expect(target, ref).toBeTypeOf('object')
    }
  })

  it('generates bodies, objects and query parameters from the zod schemas the handlers use', () => {
    const keys = (name: string) => Object.keys(doc.components.schemas[name]?.properties as object)
    expect(keys('CreateLinkBody')).toEqual(Object.keys(createLinkBody.shape))
    expect(keys('UpdateLinkBody')).toEqual(Object.keys(updateLinkBody.shape))
    expect(keys('Link')).toEqual(Object.keys(linkObject.shape))
    expect(keys('Payment')).toEqual(Object.keys(paymentObject.shape))
    expect(keys('CreateCheckoutBody')).toEqual(Object.keys(createCheckoutBody.shape))
    expect(keys('Checkout')).toEqual(Object.keys(checkoutObject.shape))
    expect(doc.components.schemas.CreateCheckoutBody?.required).toEqual(['success_url'])
    expect(doc.components.schemas.CreateLinkBody?.required).toEqual(['title'])
    const params = (path: string) => doc.paths[path]?.get?.parameters?.map((x) => x.name)
    expect(params('/api/v1/links')).toEqual(Object.keys(listLinksQuery.shape))
    expect(params('/api/v1/payments')).toEqual(Object.keys(listPaymentsQuery.shape))
    expect(params('/api/v1/checkouts')).toEqual(Object.keys(listCheckoutsQuery.shape))
    const status = doc.paths['/api/v1/payments']?.get?.parameters?.find((x) => x.name === 'status')
    expect(status).toMatchObject({
      required: false,
      style: 'form',
      explode: false,
      schema: { type: 'array', items: { enum: [...PAYMENT_STATUSES] } },
    })
    const limit = doc.paths['/api/v1/links']?.get?.parameters?.find((x) => x.name === 'limit')
    expect(limit?.schema).toEqual({ type: 'integer', minimum: 1, maximum: 200 })
  })

  it('says that max_payments defaults to 1 on a new invoice link', () => {
    const field = (schema: string) =>
      (
        doc.components.schemas[schema]?.properties as
          | Record<string, { description?: string }>
          | undefined
      )?.max_payments?.description
    expect(field('CreateLinkBody')).toContain('Default: 1 for an invoice link')
    expect(field('UpdateLinkBody')).not.toContain('Default')
  })
})

describe('examples and real answers against the document', () => {
  it('has every example in the document validate against its schema', () => {
    let checked = 0
    for (const [where, media] of mediaTypes()) {
      const check = validator(media.schema)
      const values = [
        ...(media.example !== undefined ? [media.example] : []),
        ...Object.values(media.examples ?? {}).map((e) => e.value),
      ]
      for (const value of values) {
        const result = check.safeParse(value)
        expect(result.success, `${where}: ${result.error?.message}`).toBe(true)
        checked++
      }
    }
    expect(checked).toBeGreaterThanOrEqual(20)
  })

  it('builds validators that do refuse what breaks the schema', () => {
    const link = { ...linkExample }
    expect(component('Link').safeParse(link).success).toBe(true)
    expect(component('Link').safeParse({ ...link, amount: '1299.5' }).success).toBe(false)
    expect(component('Link').safeParse({ ...link, status: 'archived' }).success).toBe(false)
    expect(component('CreateLinkBody').safeParse({ title: 'x', colour: 'blue' }).success).toBe(
      false,
    )
    expect(component('CreateLinkBody').safeParse({ amount: 1500 }).success).toBe(false)
    expect(component('Error').safeParse({ error: { code: 'teapot', message: 'x' } }).success).toBe(
      false,
    )
  })

  it('accepts each documented create and update example on the real API', async () => {
    for (const [name, example] of Object.entries(createLinkExamples)) {
      const res = await api(p, 'POST', '/api/v1/links', { json: example.value })
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(201)
      expect(component('Link').safeParse(res.body).success).toBe(true)
      for (const [patchName, patch] of Object.entries(updateLinkExamples)) {
        const changed = await api(p, 'PATCH', `/api/v1/links/${res.body.id}`, { json: patch.value })
        expect(changed.status, `${name} then ${patchName}: ${JSON.stringify(changed.body)}`).toBe(
          200,
        )
      }
    }
  })

  it('accepts each documented checkout example on the real API, answering the documented shapes', async () => {
    for (const [name, example] of Object.entries(createCheckoutExamples)) {
      const res = await api(p, 'POST', '/api/v1/checkouts', { json: example.value })
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(201)
      expect(component('Checkout').safeParse(res.body).success).toBe(true)
      const expired = await api(p, 'POST', `/api/v1/checkouts/${res.body.id}/expire`)
      expect(component('Checkout').safeParse(expired.body).success).toBe(true)
      const again = await api(p, 'POST', `/api/v1/checkouts/${res.body.id}/expire`)
      expect(again.status).toBe(409)
      expect(component('Error').safeParse(again.body).success).toBe(true)
    }
    const list = await api(p, 'GET', '/api/v1/checkouts?limit=1')
    expect(component('CheckoutList').safeParse(list.body).success).toBe(true)
    const refused = await api(p, 'POST', '/api/v1/checkouts', {
      json: {
        ...createCheckoutExamples.amount.value,
        amount: undefined,
        line_items: [{ product_id: 'prod_8Kx2', quantity: 1 }],
      },
    })
    expect(refused.status).toBe(422)
    expect(component('Error').safeParse(refused.body).success).toBe(true)
    // The body's schema refuses what the API refuses with 400.
    const body = component('CreateCheckoutBody')
    expect(body.safeParse({ amount: 1500 }).success).toBe(false)
    expect(body.safeParse({ ...createCheckoutExamples.amount.value, expires_in: 60 }).success).toBe(
      false,
    )
  })

  it('answers links, payments, pages and errors exactly in the documented shapes', async () => {
    const created = await api(p, 'POST', '/api/v1/api-keys', {
      json: { name: 'Lecture', scope: 'read' },
    })
    const readKey = created.body.key as string
    const link = await postLink(p, { title: 'Conforme', amount: 1500 })
    const { payment } = await payThroughCheckout(p, link.slug)
    const check = async (path: string, schema: string) => {
      const res = await api(p, 'GET', path)
      const result = component(schema).safeParse(res.body)
      expect(result.success, `${path}: ${result.error?.message}`).toBe(true)
    }
    await check(`/api/v1/links/${link.id}`, 'Link')
    await check('/api/v1/links', 'LinkList')
    await check(`/api/v1/payments/${payment.id}`, 'Payment')
    await check('/api/v1/payments?limit=1', 'PaymentList')
    const errors = [
      await api(p, 'GET', '/api/v1/links', { token: null }),
      await api(p, 'GET', '/api/v1/links/lnk_none'),
      await api(p, 'GET', '/api/v1/payments?limit=0'),
      await api(p, 'POST', '/api/v1/links', { json: { title: '' } }),
      await api(p, 'POST', '/api/v1/links', {
        raw: '{',
        headers: { 'content-type': 'application/json' },
      }),
      await api(p, 'POST', '/api/v1/links', {
        raw: 'x',
        headers: { 'content-type': 'text/plain' },
      }),
      // A read key on a write: the documented 403.
      await api(p, 'POST', '/api/v1/links', { json: { title: 'x', amount: 1500 }, token: readKey }),
    ]
    expect(errors.at(-1)?.status).toBe(403)
    for (const res of errors) {
      const result = component('Error').safeParse(res.body)
      expect(res.status).toBeGreaterThanOrEqual(400)
      expect(result.success, JSON.stringify(res.body)).toBe(true)
    }
  })
})

describe('the docs page', () => {
  it('renders every operation and object on one self-contained page under the CSP', async () => {
    const res = await p.app.request('/api/docs')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    const csp = res.headers.get('content-security-policy') ?? ''
    const nonce = /style-src 'self' 'nonce-([^']+)'/.exec(csp)?.[1]
    const html = await res.text()
    expect(nonce).toBeTruthy()
    expect(html).toContain(`<style nonce="${nonce}">`)
    expect(html).not.toMatch(/<script|\sstyle="|\son[a-z]+="/i)
    expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//)
    for (const { path, method, op } of operations()) {
      expect(html).toContain(`id="${op.operationId}"`)
      expect(html).toContain(`${method.toUpperCase()} ${path}`)
    }
    for (const name of Object.keys(doc.components.schemas))
      expect(html).toContain(`id="schema-${name}"`)
    for (const field of [
      'amount_min',
      'invoice_items[].unit_price',
      'customer.email',
      'next_cursor',
    ])
      expect(html).toContain(`<code>${field}</code>`)
    expect(html).toContain('curl -X POST')
    expect(html).toContain('-H &quot;X-API-Key: $ADMIN_TOKEN&quot;')
  })

  it('gives curl commands that a shell turns into exactly the documented request', () => {
    const op = doc.paths['/api/v1/links']?.post
    if (!op) throw new Error('no createLink')
    // A body with a single quote, which shell quoting must survive.
    const withQuote = structuredClone(op)
    const media = withQuote.requestBody?.content['application/json']
    if (!media) throw new Error('no body')
    media.examples = {
      q: { summary: 'quote', value: { title: 'L\'atelier "du" $HOME', amount: 1500 } },
    }
    const command = curlExample(doc, '/api/v1/links', 'post', withQuote)
    const args = execFileSync(
      'sh',
      ['-c', `curl() { for a in "$@"; do printf '%s\\n' "$a"; done; }\n${command}`],
      {
        env: { ADMIN_TOKEN: TEST_ADMIN_TOKEN, PATH: '/usr/bin:/bin' },
        encoding: 'utf8',
      },
    )
      .trimEnd()
      .split('\n')
    expect(args).toEqual([
      '-X',
      'POST',
      `${p.url}/api/v1/links`,
      '-H',
      `X-API-Key: ${TEST_ADMIN_TOKEN}`,
      '-H',
      'Content-Type: application/json',
      '-d',
      JSON.stringify({ title: 'L\'atelier "du" $HOME', amount: 1500 }),
    ])
    const list = curlExample(doc, '/api/v1/payments', 'get', doc.paths['/api/v1/payments']!.get!)
    expect(list).toContain(`'${p.url}/api/v1/payments?status=paid&from=2030-03-01'`)
    const one = curlExample(doc, '/api/v1/links/{id}', 'get', doc.paths['/api/v1/links/{id}']!.get!)
    expect(one).toMatch(/\/api\/v1\/links\/lnk_\w+'/)
    const pub = curlExample(
      doc,
      '/api/v1/openapi.json',
      'get',
      doc.paths['/api/v1/openapi.json']!.get!,
    )
    expect(pub).not.toContain('X-API-Key')
  })
})
