/**
 * The example shop (examples/shop) selling through Paylinks, the whole story in Chromium.
 * Paylinks runs as `npm start` runs it (the built server on its own SQLite file, the simulator at
 * /_sim, the admin token it prints), in a process of its own: the webhook sender, the reconciler
 * and the checkout pages are then the real ones, on a real port the shop's events come from. An
 * API key and a webhook endpoint pointing at the shop are made through the merchant API, and the
 * shop runs as its README says, `node examples/shop/server.mjs`, importing `paylinks/merchant`
 * from dist/merchant. Chromium then adds to the cart, pays (the "Pay" sent twice), is declined,
 * tries again on the same checkout, pays with the simulator's approved card and lands on the
 * shop's thank-you page; the order is paid once, and stays so when Paylinks delivers the event
 * again.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import type { Browser, Page } from 'playwright-core'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  type Delivery,
  Paylinks,
  type WebhookEndpointWithSecret,
} from '../../src/merchant/index.js'
import { TEST_CARDS } from '../../src/simulator/index.js'
import { enterCard, enterOtp, fillCheckoutAndPay } from '../browser/support.js'
import {
  axeViolations,
  closeContexts,
  describeInChromium,
  type KeptPage,
  keepScreenshot,
  launchChromium,
  openPage,
} from '../support/chromium.js'
import { madeOncePerRun } from '../support/run-cache.js'
import { builtNode, freePort, type Listening, spawnListening } from '../support/server-process.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const WIDTHS = [
  { width: 360, height: 800 },
  { width: 1280, height: 900 },
]
const card = (outcome: string) => {
  const found = TEST_CARDS.find((c) => c.outcome === outcome)
  if (!found) throw new Error(`no test card ${outcome}`)
  return found
}

/**
 * dist/merchant, which `paylinks/merchant` resolves to, built from src/merchant when missing or
 * older than a source (`npm install` runs the same build as its prepare step), once per run.
 */
async function merchantBuilt(): Promise<void> {
  const built = join(ROOT, 'dist/merchant/index.js')
  const source = join(ROOT, 'src/merchant')
  const newest = Math.max(...readdirSync(source).map((f) => statSync(join(source, f)).mtimeMs))
  if (existsSync(built) && statSync(built).mtimeMs >= newest) return
  await madeOncePerRun('merchant-build', async () => {
    const run = spawnSync(process.execPath, ['scripts/build.mjs', '--merchant'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
    if (run.status !== 0) throw new Error(`the SDK's build failed:\n${run.stdout}${run.stderr}`)
  })
}

const running: ChildProcess[] = []
let dir: string
let paylinksProcess: Listening
let paylinksUrl: string
let admin: Paylinks
let endpoint: WebhookEndpointWithSecret
let shopUrl: string
let shopOutput: () => string
let shopDb: Database.Database
let browser: Browser

/** Starts the shop as its README says, and resolves once it listens. */
async function startShop(env: Record<string, string>): Promise<() => string> {
  const child = spawn(process.execPath, ['examples/shop/server.mjs'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.push(child)
  let out = ''
  // Resolves at the line that says it listens; fails if it exits first (a missing setting).
  await new Promise<void>((resolve, reject) => {
    const read = (d: Buffer) => {
      out += d
      if (out.includes('Shop listening on')) resolve()
    }
    child.stdout.on('data', read)
    child.stderr.on('data', read)
    child.on('exit', (code) => reject(new Error(`the shop exited (${code}):\n${out}`)))
  })
  return () => out
}

interface OrderRow {
  id: string
  status: 'pending' | 'paid'
  checkout_id: string | null
  paid_at: string | null
  total: number
}
const orders = () => shopDb.prepare('SELECT * FROM orders ORDER BY created_at').all() as OrderRow[]
const orderById = (id: string) =>
  shopDb.prepare('SELECT * FROM orders WHERE id = ?').get(id) as OrderRow
const handledEvents = () =>
  shopDb.prepare('SELECT webhook_id, type FROM processed_events').all() as {
    webhook_id: string
    type: string
  }[]
const countIn = (text: string, part: string) => text.split(part).length - 1

describeInChromium('the example shop selling through Paylinks', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'paylinks-shop-'))
    const [{ server }] = await Promise.all([builtNode(), merchantBuilt()])
    const port = await freePort()
    paylinksProcess = await spawnListening(process.execPath, [server], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        PORT: String(port),
        DATABASE_PATH: join(dir, 'paylinks.db'),
      },
      running,
    })
    const token = /Admin token \(shown once, keep it\): (\S+)/.exec(paylinksProcess.output())?.[1]
    if (!token) throw new Error(`no admin token printed:\n${paylinksProcess.output()}`)
    paylinksUrl = `http://127.0.0.1:${port}`
    admin = new Paylinks({ url: paylinksUrl, apiKey: token })

    // What the shop's README asks for: a key of its own, and an endpoint for its events.
    const shopPort = await freePort()
    shopUrl = `http://127.0.0.1:${shopPort}`
    const key = await admin.apiKeys.create({ name: 'Épicerie', scope: 'write' })
    endpoint = await admin.webhookEndpoints.create({
      url: `${shopUrl}/paylinks/events`,
      event_types: ['checkout.completed', 'checkout.expired'],
    })
    shopOutput = await startShop({
      PAYLINKS_URL: paylinksUrl,
      PAYLINKS_API_KEY: key.key,
      PAYLINKS_WEBHOOK_SECRET: endpoint.secret,
      SHOP_PORT: String(shopPort),
      SHOP_DATABASE: join(dir, 'shop.db'),
      SHOP_PUBLIC_URL: shopUrl,
    })
    shopDb = new Database(join(dir, 'shop.db'), { readonly: true })
    browser = await launchChromium()
  }, 120_000)

  afterAll(async () => {
    await closeContexts(browser)
    shopDb?.close()
    for (const child of running.splice(0)) child.kill('SIGKILL')
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  async function withPage(run: (page: Page) => Promise<void>) {
    const kept: KeptPage = await openPage(browser, {
      viewport: { width: 390, height: 844 },
      locale: 'fr-FR',
    })
    try {
      await run(kept.page)
    } finally {
      await kept.close()
    }
  }

  it(
    'sells a cart: Pay sent twice makes one checkout, a declined card then an approved one on it, the thank-you page, the order paid once even when the event comes twice',
    () =>
      withPage(async (page) => {
        await page.goto(`${shopUrl}/`)
        await keepScreenshot(page, 'shop/home', WIDTHS)
        const tea = page.locator('li', { hasText: 'Thé vert à la menthe' })
        await tea.locator('input[name=quantity]').fill('2')
        await tea.locator('button').click()
        await page.waitForURL(`${shopUrl}/cart`)
        // (Intl separates thousands and the currency with no-break spaces.)
        expect((await page.locator('td.total').innerText()).replace(/\s/g, ' ')).toBe('900,00 DA')
        expect(await axeViolations(page)).toEqual([])
        await keepScreenshot(page, 'shop/cart', WIDTHS)

        // "Pay" whose answer never reached the customer (a time-out, a double click), then "Pay"
        // again: one order, and the same Idempotency-Key gets the same checkout back.
        // (Sent with the browser's own cookies; the page's CSP allows it no fetch of its own.)
        const lost = await page.request.post(`${shopUrl}/cart/pay`, { maxRedirects: 0 })
        expect(lost.status()).toBe(303)
        await page.locator('button.pay').click()
        await page.waitForURL((url) => url.pathname.startsWith('/l/'))
        expect(orders()).toHaveLength(1)
        const order = orders()[0] as OrderRow
        expect(order).toMatchObject({ status: 'pending', total: 90000 })
        const checkouts = await admin.checkouts.list({ reference: order.id }).toArray()
        expect(checkouts.map((c) => c.id)).toEqual([order.checkout_id])
        expect(checkouts[0]).toMatchObject({
          amount: 900,
          status: 'open',
          reference: order.id,
          metadata: { order_id: order.id },
          line_items: [expect.objectContaining({ quantity: 2, unit_price: 450 })],
          success_url: `${shopUrl}/thanks`,
          cancel_url: `${shopUrl}/cart`,
        })

        // Declined: the failure page, the order still pending; "try again" on the same checkout.
        await fillCheckoutAndPay(page)
        await enterCard(page, card('insufficient_funds'))
        await enterOtp(page)
        await page.waitForURL((url) => url.pathname.startsWith('/r/'))
        expect(orderById(order.id).status).toBe('pending')
        await page.locator('main .actions a.btn').first().click() // "Try again", before "Back to the shop"
        await page.locator('input[name=terms]').check()
        await page.locator('button.pay').click()
        await enterCard(page, card('approved'))
        await enterOtp(page)

        // Back at the shop, told which order; paid once Paylinks' event has arrived.
        await page.waitForURL((url) => url.href.startsWith(`${shopUrl}/thanks?`))
        expect(new URL(page.url()).searchParams.get('checkout_id')).toBe(order.checkout_id)
        expect(await page.locator('.order-id').innerText()).toBe(order.id)
        await expect.poll(() => orderById(order.id).status, { timeout: 15_000 }).toBe('paid')
        if (!(await page.locator('.status.paid').count())) await page.reload()
        expect(await page.locator('[role=status]').innerText()).toBe(
          'Payée : nous préparons votre commande.',
        )
        await keepScreenshot(page, 'shop/thanks', WIDTHS)
        const paid = orderById(order.id)
        expect(paid.paid_at).not.toBeNull()
        const completed = (await admin.checkouts.retrieve(order.checkout_id ?? '')).payment_id
        expect(completed).toMatch(/^pay_/)

        // The event delivered again (Paylinks' redelivery, the same webhook-id and body): the
        // shop answers 2xx, and nothing changes.
        const delivery = async () => {
          const all: Delivery[] = await admin.webhookEndpoints.listDeliveries(endpoint.id).toArray()
          return all.find((d) => d.type === 'checkout.completed') as Delivery
        }
        await expect.poll(async () => (await delivery())?.state).toBe('delivered')
        const first = await delivery()
        expect(handledEvents()).toEqual([{ webhook_id: first.id, type: 'checkout.completed' }])
        await admin.webhookEndpoints.redeliver(endpoint.id, first.id)
        await expect
          .poll(async () => {
            const again = await delivery()
            return [again.attempts, again.state, again.last_status]
          })
          .toEqual([first.attempts + 1, 'delivered', 204])
        expect(orderById(order.id)).toEqual(paid)
        expect(handledEvents()).toHaveLength(1)
        expect(countIn(shopOutput(), `order ${order.id} paid`)).toBe(1)
        expect(shopOutput()).toContain(`event ${first.id} checkout.completed: duplicate`)
      }),
    120_000,
  )

  it('never marks an order paid from the return to /thanks nor from an event it cannot verify', async () => {
    // A second customer, without a browser: a cart, "Pay", and the checkout's address.
    const added = await fetch(`${shopUrl}/cart/add`, {
      method: 'POST',
      body: new URLSearchParams({ product_id: 'dattes-deglet', quantity: '1' }),
      redirect: 'manual',
    })
    const cookie = (added.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
    const paying = await fetch(`${shopUrl}/cart/pay`, {
      method: 'POST',
      headers: { cookie },
      redirect: 'manual',
    })
    expect(paying.status).toBe(303)
    const order = orders().at(-1) as OrderRow
    expect(paying.headers.get('location')).toBe(
      (await admin.checkouts.retrieve(order.checkout_id ?? '')).url,
    )

    // Typing the success address before paying shows the order as waiting.
    const early = await fetch(`${shopUrl}/thanks?checkout_id=${order.checkout_id}`)
    expect(early.status).toBe(200)
    const text = await early.text()
    expect(text).toContain(order.id)
    expect(text).toContain('En attente de la confirmation du paiement')
    expect(orderById(order.id).status).toBe('pending')

    // A checkout.completed for it signed with another secret: refused, nothing recorded.
    const forged = JSON.stringify({
      type: 'checkout.completed',
      timestamp: new Date().toISOString(),
      data: { id: order.checkout_id, reference: order.id, amount: 1200, status: 'completed' },
    })
    const stranger = new Webhook(Buffer.from('not the endpoint secret').toString('base64'))
    const at = new Date()
    const refused = await fetch(`${shopUrl}/paylinks/events`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'msg_forged',
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': stranger.sign('msg_forged', at, forged),
      },
      body: forged,
    })
    expect(refused.status).toBe(400)
    expect(orderById(order.id).status).toBe('pending')
    expect(handledEvents().map((e) => e.webhook_id)).not.toContain('msg_forged')

    // Nonsense at the shop's doors is a 4xx, never a 500.
    expect((await fetch(`${shopUrl}/thanks?checkout_id=%3Cscript%3E`)).status).toBe(400)
    expect((await fetch(`${shopUrl}/thanks?checkout_id=chk_UnknownUnknown1`)).status).toBe(404)
    const big = await fetch(`${shopUrl}/cart/add`, {
      method: 'POST',
      body: 'product_id=the-menthe&quantity=1&x='.padEnd(10_000, 'x'),
    })
    expect(big.status).toBe(413)
  })
})
