/**
 * The Worker's zod (src/worker-zod.js, wrangler.toml's [alias]) against classic zod: every schema
 * the Worker's modules export, built once with each, gives the same answer to the same inputs —
 * the same success, the same output, the same issues (code, path, message, parameters) — and so
 * does the configuration parser. The inputs are values of every kind, and objects made from each
 * schema's own fields with those values.
 */
import { describe, expect, it, vi } from 'vitest'

/** The modules of the upload (and of the dev Worker's simulator) that import zod. */
const MODULES = [
  '../../src/api/query.js',
  '../../src/api/query-fields.js',
  '../../src/api/links/objects.js',
  '../../src/api/payments/objects.js',
  '../../src/api/webhook-endpoints/objects.js',
  '../../src/api/webhook-endpoints/schemas.js',
  '../../src/api/links/schemas.js',
  '../../src/api/payments/schemas.js',
  '../../src/api/errors.js',
  '../../src/client/direct/operation-schemas.js',
  '../../src/client/direct/operations.js',
  '../../src/client/direct/products.js',
  '../../src/client/direct/invoices.js',
  '../../src/client/card/params.js',
  '../../src/client/card/check.js',
  '../../src/client/api-key/bills.js',
  '../../src/client/api-key/recharge.js',
  '../../src/client/api-key/operations.js',
  '../../src/client/api-key/cib.js',
  '../../src/client/api-key/products.js',
  '../../src/client/api-key/invoices.js',
  '../../src/client/webhook.js',
  '../../src/dashboard/webhook-form.js',
  '../../src/dashboard/payment-detail.js',
  '../../src/simulator/faults.js',
  '../../src/simulator/validation.js',
  '../../src/simulator/card/transaction.js',
  '../../src/simulator/invoices.js',
]

type Schema = {
  safeParse(input: unknown): { success: boolean; data?: unknown; error?: { issues: unknown[] } }
  _zod: { def: { type: string; shape?: Record<string, Schema> }; traits: Set<string> }
}
type Loaded = Record<string, Record<string, unknown>>

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' &&
  value !== null &&
  '_zod' in value &&
  typeof (value as Schema).safeParse === 'function'

async function loadAll(): Promise<{
  modules: Loaded
  config: typeof import('../../src/config.js')
}> {
  const modules: Loaded = {}
  for (const path of MODULES) modules[path] = await import(path)
  return { modules, config: await import('../../src/config.js') }
}

async function loadBoth() {
  vi.resetModules()
  const classic = await loadAll()
  vi.resetModules()
  // @ts-expect-error: plain JavaScript without types, like the Worker's other stand-ins
  vi.doMock('zod', () => import('../../src/worker-zod.js'))
  const worker = await loadAll()
  vi.doUnmock('zod')
  vi.resetModules()
  return { classic, worker }
}

/** Values of every kind a field may be sent. */
const VALUES: unknown[] = [
  undefined,
  null,
  '',
  '  ',
  'abc',
  ' Abc DEF ',
  'x'.repeat(300),
  'line\nbreak',
  '\u0000',
  'https://pay.example.dz/l/abc',
  'http://127.0.0.1:8080/x',
  'ftp://example.dz',
  'not a url',
  '2026-06-30T23:59:00+01:00',
  '2026-06-30T22:59:00Z',
  '2026-06-30',
  'a@b.dz',
  '12',
  '1299.5',
  '-1',
  'true',
  'false',
  'fr',
  'ar',
  'en',
  'pending',
  'paid',
  'fixed',
  'open',
  'CIB',
  'GCAZI7YBLIDJWIVEL7ETNAZGPP3LC24NO6KAOBWZHUERXQ7M5BC52DLV',
  0,
  1,
  -1,
  50,
  1500,
  1299.5,
  1.234,
  5000,
  1e15,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  false,
  [],
  ['a'],
  [1, 2],
  {},
  { a: 1 },
]

/** A small deterministic generator, so a failure repeats. */
function random(seed: number) {
  let state = seed
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff
    return state / 0x80000000
  }
}

/** Inputs for `schema`: every value, and for an object, objects of its fields. */
function inputsFor(schema: Schema): unknown[] {
  const inputs = [...VALUES]
  const shape = schema._zod.def.shape
  if (!shape) return inputs
  const keys = Object.keys(shape)
  // A value each field takes, where one of VALUES does.
  const good: Record<string, unknown> = {}
  for (const key of keys) {
    const fits = VALUES.find((value) => shape[key]!.safeParse(value).success)
    if (fits !== undefined) good[key] = fits
  }
  inputs.push(good, { ...good, extra: 'x' })
  for (const key of keys) for (const value of VALUES) inputs.push({ ...good, [key]: value })
  const next = random(keys.length + 1)
  for (let i = 0; i < 100; i++) {
    const object: Record<string, unknown> = {}
    for (const key of keys)
      if (next() < 0.8) object[key] = VALUES[Math.floor(next() * VALUES.length)]
    inputs.push(object)
  }
  return inputs
}

const answer = (schema: Schema, input: unknown) => {
  const result = schema.safeParse(input)
  return result.success
    ? { success: true, data: result.data }
    : { success: false, issues: result.error!.issues }
}

describe("the Worker's zod", () => {
  it('answers as classic zod for every schema the Worker modules export', async () => {
    const { classic, worker } = await loadBoth()
    let schemas = 0
    let inputs = 0
    let successes = 0
    for (const path of MODULES) {
      for (const [name, value] of Object.entries(classic.modules[path]!)) {
        if (!isSchema(value)) continue
        const twin = worker.modules[path]![name]
        expect(isSchema(twin), `${path} ${name}`).toBe(true)
        // Built by zod's mini schemas there, by its classic ones here.
        expect((twin as Schema)._zod.traits.has('ZodMiniType'), `${path} ${name}`).toBe(true)
        expect(value._zod.traits.has('ZodMiniType')).toBe(false)
        schemas++
        for (const input of inputsFor(value)) {
          const expected = answer(value, input)
          expect(answer(twin as Schema, input), `${path} ${name} ${JSON.stringify(input)}`).toEqual(
            expected,
          )
          inputs++
          if (expected.success) successes++
        }
      }
    }
    // The comparison covered many schemas, with inputs they accept and inputs they refuse.
    console.log(`${schemas} schemas, ${inputs} inputs, ${successes} accepted`)
    expect(schemas).toBeGreaterThan(20)
    expect(successes).toBeGreaterThan(100)
    expect(inputs - successes).toBeGreaterThan(1000)
  }, 120_000)

  it('parses the configuration as classic zod does', async () => {
    const { classic, worker } = await loadBoth()
    const base = {
      GATEWAY_MODE: 'sandbox',
      PUBLIC_URL: 'https://pay.example.dz',
      GATEWAY_SITE_URL: 'https://gateway.invalid',
      MERCHANT_ACCOUNT: 'GCAZI7YBLIDJWIVEL7ETNAZGPP3LC24NO6KAOBWZHUERXQ7M5BC52DLV',
      ADMIN_TOKEN: 'worker-admin-token-0123456789abcdef',
    }
    const variants: Record<string, string>[] = [base, {}]
    for (const key of Object.keys(base)) variants.push({ ...base, [key]: '' })
    for (const [key, value] of [
      ['GATEWAY_MODE', 'live'],
      ['GATEWAY_MODE', 'nope'],
      ['PUBLIC_URL', 'http://pay.example.dz'],
      ['DEFAULT_LANGUAGE', 'xx'],
      ['DEFAULT_LANGUAGE', 'fr'],
      ['CAPTCHA', 'none'],
      ['CAPTCHA', 'other'],
      ['GATEWAY_CHECK_AMOUNT_UNIT', 'dzd'],
      ['ADMIN_TOKEN', 'short'],
      ['MERCHANT_ACCOUNT', 'G123'],
    ] as const)
      variants.push({ ...base, [key]: value })
    const run = (parse: (typeof classic)['config']['parseConfig'], raw: Record<string, string>) => {
      try {
        return { config: parse(raw, { runtime: 'workers' }) }
      } catch (error) {
        return { error: String(error), reasons: (error as { reasons?: unknown }).reasons }
      }
    }
    let refused = 0
    for (const raw of variants) {
      const expected = run(classic.config.parseConfig, raw)
      expect(run(worker.config.parseConfig, raw), JSON.stringify(raw)).toEqual(expected)
      if ('error' in expected) refused++
    }
    expect(refused).toBeGreaterThan(3)
    expect(refused).toBeLessThan(variants.length)
  })
})
