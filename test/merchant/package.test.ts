/**
 * `paylinks/merchant` as a shop gets it: scripts/build.mjs (`npm run build`, `prepare`) compiles
 * src/merchant/ into JavaScript and .d.ts; a package holding the repository's package.json and
 * that build, linked into an empty project's node_modules as `npm install file:…` links it, is
 * imported by plain `node` (no TypeScript loader) through package.json's `exports`, and a
 * TypeScript consumer type-checks against the .d.ts alone (no Node types, no zod).
 */
import { spawnSync } from 'node:child_process'
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
let dir = ''
let pkg = ''
let shop = ''

function run(command: string, args: string[], cwd: string) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  })
  return { status: result.status, out: `${result.stdout}${result.stderr}` }
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'paylinks-merchant-'))
  pkg = join(dir, 'paylinks')
  shop = join(dir, 'shop')
  mkdirSync(pkg)
  mkdirSync(join(shop, 'node_modules'), { recursive: true })
  copyFileSync(join(ROOT, 'package.json'), join(pkg, 'package.json'))
  const built = run(
    process.execPath,
    ['scripts/build.mjs', '--merchant', '--out', join(pkg, 'dist', 'merchant')],
    ROOT,
  )
  expect(built.status, built.out).toBe(0)
  symlinkSync(pkg, join(shop, 'node_modules', 'paylinks'), 'dir')
  writeFileSync(join(shop, 'package.json'), '{"name":"shop","private":true,"type":"module"}\n')
}, 60_000)

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('paylinks/merchant as a package', () => {
  it('is exported as JavaScript with its types, built by npm run build and by prepare', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
    expect(manifest.exports['./merchant']).toEqual({
      types: './dist/merchant/index.d.ts',
      import: './dist/merchant/index.js',
    })
    expect(manifest.scripts.prepare).toBe('node scripts/build.mjs --merchant')
    expect(manifest.scripts.build).toBe('node scripts/build.mjs')
    // npm pack leaves out what .gitignore does, but for the built SDK.
    const npmignore = readFileSync(join(ROOT, '.npmignore'), 'utf8').split('\n')
    expect(npmignore).toEqual(expect.arrayContaining(['/dist/*', '!/dist/merchant/']))
    const js = readFileSync(join(pkg, 'dist/merchant/index.js'), 'utf8')
    expect(js).not.toMatch(/from '\.\.\//)
  })

  it('imports in plain node, without a TypeScript loader, and verifies an event', () => {
    writeFileSync(
      join(shop, 'shop.mjs'),
      `import { Paylinks, PaylinksError, PaylinksWebhookError } from 'paylinks/merchant'
const paylinks = new Paylinks({ url: 'https://pay.example.dz', apiKey: 'pl_live_x' })
const secret = 'whsec_' + btoa('0123456789abcdef0123456789abcdef')
const body = JSON.stringify({ type: 'payment.paid', timestamp: '2026-11-28T12:00:00Z', data: {} })
const error = await Paylinks.webhooks
  .verify(body, { 'webhook-id': 'msg_1', 'webhook-timestamp': '1', 'webhook-signature': 'v1,x' }, secret)
  .catch((e) => e)
console.log(JSON.stringify({
  resources: Object.keys(paylinks).sort(),
  typed: error instanceof PaylinksWebhookError && error instanceof PaylinksError,
  code: error.code,
}))
`,
    )
    const result = run(process.execPath, ['shop.mjs'], shop)
    expect(result.status, result.out).toBe(0)
    expect(JSON.parse(result.out)).toEqual({
      resources: [
        'apiKeys',
        'audit',
        'checkouts',
        'links',
        'payments',
        'products',
        'promoCodes',
        'refunds',
        'webhookEndpoints',
        'webhooks',
      ],
      typed: true,
      code: 'timestamp_too_old',
    })
  })

  it('type-checks a TypeScript shop against the .d.ts alone', () => {
    writeFileSync(
      join(shop, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2022', 'DOM'],
          types: [],
          strict: true,
          noEmit: true,
        },
        files: ['shop.ts'],
      }),
    )
    writeFileSync(
      join(shop, 'shop.ts'),
      `import { Paylinks, PaylinksError, type Link, type Payment, type WebhookEvent } from 'paylinks/merchant'
const paylinks = new Paylinks({ url: 'https://pay.example.dz', apiKey: 'pl_live_x', maxRetries: 3 })
// The platform's fetch, or one wrapping it, is a fetch the SDK takes.
new Paylinks({ url: 'https://pay.example.dz', apiKey: 'k', fetch: globalThis.fetch, timeoutMs: 5000 })
new Paylinks({ url: 'https://pay.example.dz', apiKey: 'k', fetch: (url, init) => fetch(url, init) })
export async function sell(): Promise<string> {
  const link: Link = await paylinks.links.create(
    { title: 'Commande 1042', amount: 2500, metadata: { order: '1042' } },
    { idempotencyKey: 'order-1042' },
  )
  const paid: Payment[] = []
  for await (const payment of paylinks.payments.list({ status: ['paid'], link_id: link.id })) paid.push(payment)
  const page = await paylinks.checkouts.list({ status: 'open' }).page()
  try {
    await paylinks.links.del(link.id)
  } catch (error) {
    if (error instanceof PaylinksError && error.kind === 'conflict') return error.code + Object.keys(error.fields).join()
  }
  const event: WebhookEvent = await Paylinks.webhooks.verify('{}', new Headers(), 'whsec_x')
  if (event.type === 'payment.paid') return event.data.link.title + event.data.status
  return String(paid.length + page.data.length)
}
// @ts-expect-error amount is DZD as a number
paylinks.links.create({ title: 'x', amount: '2500' })
// @ts-expect-error a status the API does not know
paylinks.payments.list({ status: 'settled' })
`,
    )
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')
    const result = run(process.execPath, [tsc, '-p', 'tsconfig.json'], shop)
    expect(result.out).toBe('')
    expect(result.status).toBe(0)
    // A few seconds of TypeScript reading the DOM library: more on a busy machine.
  }, 60_000)
})
