/**
 * The core payment flows on the Worker (workerd through miniflare, local D1, the built-in
 * simulator at /_sim), driven over HTTP as a browser and the gateway would.
 */
import { eq } from 'drizzle-orm'
import jsQR from 'jsqr'
import { PNG } from 'pngjs'
import { describe, expect, it } from 'vitest'
import { links, payments, webhookEvents } from '../../db/schema.js'
import { formatDateTime } from '../../src/i18n/index.js'
import { formAction, inputValue, postForm, useWorker, WORKER_ADMIN_TOKEN } from './support.js'

const worker = useWorker()
let ipCounter = 0

/** A different customer address each time, as real customers have (the checkout is rate limited per address). */
const customerIp = () => ({ 'cf-connecting-ip': `198.51.100.${++ipCounter}` })

/** Creates a link through the merchant API (fixed 1500 DZD unless overridden); returns its object. */
async function newLink(body: Record<string, unknown> = {}) {
  const res = await fetch(`${worker().url}/api/v1/links`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': WORKER_ADMIN_TOKEN },
    body: JSON.stringify({
      title: 'Cours de piano',
      amount: 1500,
      language: 'fr',
      success_message: 'Merci, à bientôt',
      ...body,
    }),
  })
  expect(res.status).toBe(201)
  return (await res.json()) as { id: string; slug: string; url: string; status: string }
}

async function checkoutForm(slug: string) {
  const page = await fetch(`${worker().url}/l/${slug}`)
  expect(page.status).toBe(200)
  const html = await page.text()
  return {
    html,
    fields: {
      name: 'Amina Benali',
      phone: '0555123456',
      email: 'amina@example.dz',
      terms: 'on',
      csrf: inputValue(html, 'csrf'),
      lang: 'fr',
    },
  }
}

/** Submits the checkout; returns the card page URL. */
async function startPayment(slug: string): Promise<string> {
  const { fields } = await checkoutForm(slug)
  const submitted = await postForm(`${worker().url}/l/${slug}`, fields, customerIp())
  expect(submitted.status).toBe(303)
  const cardPage = submitted.headers.get('location')!
  expect(cardPage).toMatch(new RegExp(`^${worker().url}/_sim/pay/[\\w-]+$`))
  return cardPage
}

/** Pays on the simulator's card page (card, then the one-time code); returns the return URL. */
async function payOnCardPage(cardPage: string, pan = '6280580000000009'): Promise<string> {
  const form = await (await fetch(cardPage)).text()
  const afterCard = await postForm(new URL(formAction(form, '/card'), worker().url).href, {
    pan,
    expiry: '12/30',
    cvv: '123',
  })
  expect(afterCard.status).toBe(303)
  const otpPage = await (
    await fetch(new URL(afterCard.headers.get('location')!, worker().url))
  ).text()
  const afterOtp = await postForm(new URL(formAction(otpPage, '/otp'), worker().url).href, {
    otp: '123456',
  })
  expect(afterOtp.status).toBe(303)
  return new URL(afterOtp.headers.get('location')!, worker().url).href
}

async function paymentOf(slug: string) {
  const [link] = await worker().db.select().from(links).where(eq(links.slug, slug))
  return worker().db.select().from(payments).where(eq(payments.linkId, link!.id))
}

async function deliveriesFor(cibTransactionId: string) {
  const all = (await (await fetch(`${worker().url}/_sim/_inspect/webhooks.json`)).json()) as {
    cib_transaction_id: string
    state: string
    payload: Record<string, unknown>
    attempts: { status: number | null }[]
  }[]
  return all.filter((d) => d.cib_transaction_id === cibTransactionId)
}

describe('Paylinks on Workers with D1', () => {
  it('answers the health check with the database reachable', async () => {
    const res = await fetch(`${worker().url}/healthz`)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ status: 'ok', mode: 'simulator' })
  })

  it('takes a payment from the checkout to the receipt, settled once by the signed webhook', async () => {
    const link = await newLink()
    const { html } = await checkoutForm(link.slug)
    expect(html).toContain('Cours de piano')
    expect(html).toContain('3020')

    const returnUrl = await payOnCardPage(await startPayment(link.slug))
    expect(returnUrl).toMatch(new RegExp(`^${worker().url}/r/[\\w-]+\\?`))
    expect(new URL(returnUrl).searchParams.get('payment_status')).toBe('success')

    const receipt = await fetch(returnUrl, { headers: { 'accept-encoding': 'gzip, deflate, br' } })
    expect(receipt.status).toBe(200)
    // Compressed by workerd, told the coding (fetch decompresses it for the text below).
    expect(receipt.headers.get('content-encoding')).toBe('gzip')
    const receiptHtml = await receipt.text()
    expect(receiptHtml).toContain('Merci, à bientôt')
    const [payment] = await paymentOf(link.slug)
    expect(payment).toMatchObject({ status: 'paid', amount: 150000, customerName: 'Amina Benali' })
    expect(payment!.approvalCode).toMatch(/^\d{6}$/)
    expect(receiptHtml).toContain(payment!.approvalCode!)

    // The webhook went out from the card page's request, in ctx.waitUntil, to the Worker itself.
    await expect
      .poll(async () => (await deliveriesFor(payment!.cibTransactionId!))[0]?.state, {
        timeout: 10_000,
      })
      .toBe('delivered')
    await expect
      .poll(
        async () =>
          (
            await worker()
              .db.select()
              .from(webhookEvents)
              .where(eq(webhookEvents.cibTransactionId, payment!.cibTransactionId!))
          ).map((e) => e.status),
        { timeout: 10_000 },
      )
      .toEqual(['processed'])
    const [settled] = await paymentOf(link.slug)
    expect(settled).toMatchObject({ status: 'paid', paidAt: payment!.paidAt })
  })

  it('answers a replayed webhook as a duplicate and changes nothing', async () => {
    const link = await newLink()
    await fetch(await payOnCardPage(await startPayment(link.slug)))
    const [payment] = await paymentOf(link.slug)
    await expect
      .poll(async () => (await deliveriesFor(payment!.cibTransactionId!))[0]?.state, {
        timeout: 10_000,
      })
      .toBe('delivered')
    const [delivery] = await deliveriesFor(payment!.cibTransactionId!)
    const before = await paymentOf(link.slug)

    const replay = await fetch(`${worker().url}/webhooks/gateway`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(delivery!.payload),
    })
    expect(replay.status).toBe(200)
    expect(await replay.json()).toEqual({ received: true, duplicate: true })
    expect(await paymentOf(link.slug)).toEqual(before)
    const events = await worker()
      .db.select()
      .from(webhookEvents)
      .where(eq(webhookEvents.cibTransactionId, payment!.cibTransactionId!))
    expect(events).toHaveLength(1)
  })

  it('rejects a forged webhook with 401 and records nothing', async () => {
    const link = await newLink()
    await startPayment(link.slug)
    const [pending] = await paymentOf(link.slug)
    expect(pending?.status).toBe('pending')
    const forged = {
      event: 'cib.payment.updated',
      payment_status: 'success',
      transaction_id: pending!.transactionId,
      cib_transaction_id: pending!.cibTransactionId,
      amount: 150000,
      message: `${pending!.cibTransactionId}success1500`,
      signature: btoa('not a signature of the gateway'),
    }
    const res = await fetch(`${worker().url}/webhooks/gateway`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(forged),
    })
    expect(res.status).toBe(401)
    expect(await res.json()).toMatchObject({ error: { code: 'bad_signature' } })
    expect((await paymentOf(link.slug))[0]).toEqual(pending)
    const events = await worker()
      .db.select()
      .from(webhookEvents)
      .where(eq(webhookEvents.cibTransactionId, pending!.cibTransactionId!))
    expect(events).toEqual([])
  })

  it('lets exactly one of many simultaneous customers pay a single-use link', async () => {
    const link = await newLink({ max_payments: 1 })
    const { fields } = await checkoutForm(link.slug)
    const answers = await Promise.all(
      Array.from({ length: 15 }, () =>
        postForm(`${worker().url}/l/${link.slug}`, fields, customerIp()),
      ),
    )
    const statuses = answers.map((a) => a.status).sort()
    expect(statuses).toEqual([303, ...Array(14).fill(409)])
    const winner = answers.find((a) => a.status === 303)!
    const busy = answers.find((a) => a.status === 409)!
    expect(busy.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(await busy.text()).toContain(`/l/${link.slug}`)
    expect(await paymentOf(link.slug)).toHaveLength(1)

    await fetch(await payOnCardPage(winner.headers.get('location')!))
    expect((await paymentOf(link.slug))[0]?.status).toBe('paid')
    const after = await fetch(`${worker().url}/l/${link.slug}`)
    expect(after.status).toBe(410)
    const object = await fetch(`${worker().url}/api/v1/links/${link.id}`, {
      headers: { 'x-api-key': WORKER_ADMIN_TOKEN },
    })
    expect(await object.json()).toMatchObject({ status: 'completed', paid_count: 1 })
  })

  it('takes one payment on an invoice link, then shows it already paid with its date', async () => {
    const link = await newLink({ invoice_id: 'inv_w1' })
    await fetch(await payOnCardPage(await startPayment(link.slug)))
    const [payment] = await paymentOf(link.slug)
    expect(payment).toMatchObject({ status: 'paid' })
    const page = await fetch(`${worker().url}/l/${link.slug}`)
    expect(page.status).toBe(410)
    const html = await page.text()
    expect(html).toContain('Cette facture est déjà payée')
    expect(html).toContain(formatDateTime(payment!.paidAt!, 'fr'))
    expect(html).not.toContain('name="csrf"')
  })

  it('shows the failure page with a way to try again when the card is declined', async () => {
    const link = await newLink()
    const returnUrl = await payOnCardPage(await startPayment(link.slug), '6280582222222221')
    const page = await fetch(returnUrl)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain(`/l/${link.slug}`)
    expect((await paymentOf(link.slug))[0]?.status).toBe('failed')
    // Try again: the form comes back filled from the payment, read from D1.
    const href = /<a class="btn" href="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&') ?? ''
    expect(href).toMatch(new RegExp(`^/l/${link.slug}\\?lang=fr&retry=\\w{22}$`))
    const again = await (await fetch(new URL(href, worker().url))).text()
    expect(inputValue(again, 'name')).toBe('Amina Benali')
    expect(inputValue(again, 'phone')).toBe('0555123456')
    expect(inputValue(again, 'email')).toBe('amina@example.dz')
  })

  it('refuses a required wilaya left empty, then keeps the answers on the payment in D1', async () => {
    const link = await newLink({
      custom_fields: [
        { key: 'wilaya', label: 'Wilaya', type: 'wilaya', required: true },
        { key: 'address', label: 'Adresse', type: 'address' },
      ],
    })
    const { fields } = await checkoutForm(link.slug)
    const address = '12 rue Didouche Mourad\nAlger'
    const refused = await postForm(
      `${worker().url}/l/${link.slug}`,
      { ...fields, cf_address: address },
      customerIp(),
    )
    expect(refused.status).toBe(400)
    expect(await refused.text()).toContain('<p class="err" id="cf-wilaya-err">')
    expect(await paymentOf(link.slug)).toEqual([])
    const { fields: again } = await checkoutForm(link.slug)
    const submitted = await postForm(
      `${worker().url}/l/${link.slug}`,
      { ...again, cf_wilaya: '16', cf_address: address },
      customerIp(),
    )
    expect(submitted.status).toBe(303)
    const returnUrl = await payOnCardPage(submitted.headers.get('location')!)
    const receipt = await (await fetch(returnUrl)).text()
    expect(receipt).toContain('16 — Alger')
    const [payment] = await paymentOf(link.slug)
    expect(payment?.customFields).toEqual({ wilaya: '16', address })
  })

  it('settles a payment whose webhook and return were lost when the Cron trigger runs', async () => {
    const link = await newLink()
    const faults = await fetch(`${worker().url}/_sim/_faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ webhooks: { never: true, times: 1 } }),
    })
    expect(faults.status).toBe(200)
    await payOnCardPage(await startPayment(link.slug)) // the customer closes the tab here
    const [pending] = await paymentOf(link.slug)
    expect(pending?.status).toBe('pending')
    // Time passes: the payment is due for its next check.
    await worker().db.update(payments).set({ nextCheckAt: 0 }).where(eq(payments.id, pending!.id))

    await worker().cron()
    await expect
      .poll(async () => (await paymentOf(link.slug))[0]?.status, { timeout: 10_000 })
      .toBe('paid')
  })

  it('finishes on the Cron trigger a webhook it acknowledged but could not confirm', async () => {
    const link = await newLink()
    const fault = (endpoints: Record<string, unknown>) =>
      fetch(`${worker().url}/_sim/_faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ endpoints }),
      })
    // The check endpoint is down when the webhook comes: answered 200, its row left failed.
    expect((await fault({ 'cib-transaction-check': { status5xx: 503 } })).status).toBe(200)
    await payOnCardPage(await startPayment(link.slug)) // no return: only the webhook can settle it
    const [pending] = await paymentOf(link.slug)
    const row = async () =>
      (
        await worker()
          .db.select()
          .from(webhookEvents)
          .where(eq(webhookEvents.cibTransactionId, pending!.cibTransactionId!))
      )[0]
    await expect.poll(async () => (await row())?.status, { timeout: 20_000 }).toBe('failed')
    await fault({ 'cib-transaction-check': null })
    // Time passes: the row's retry is due, the payment's own next check is not.
    await worker()
      .db.update(webhookEvents)
      .set({ processedAt: 0 })
      .where(eq(webhookEvents.id, (await row())!.id))
    await worker()
      .db.update(payments)
      .set({ nextCheckAt: Number.MAX_SAFE_INTEGER })
      .where(eq(payments.id, pending!.id))

    await worker().cron()
    await expect
      .poll(async () => (await paymentOf(link.slug))[0]?.status, { timeout: 10_000 })
      .toBe('paid')
    expect(await row()).toMatchObject({ status: 'processed', paymentId: pending!.id })
  })

  it('settles a payment through a webhook the gateway sends after the card page has answered', async () => {
    const link = await newLink()
    const faults = await fetch(`${worker().url}/_sim/_faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ webhooks: { lateMs: 1000, times: 1 } }),
    })
    expect(faults.status).toBe(200)
    await payOnCardPage(await startPayment(link.slug)) // no return: only the webhook can settle it
    const [pending] = await paymentOf(link.slug)
    expect(pending?.status).toBe('pending')
    // The simulator's timer outlives the request that set it only through ctx.waitUntil.
    await expect
      .poll(async () => (await paymentOf(link.slug))[0]?.status, { timeout: 10_000 })
      .toBe('paid')
    expect((await deliveriesFor(pending!.cibTransactionId!))[0]?.state).toBe('delivered')
  })

  it('serves the QR code as SVG and as PNG encoded with CompressionStream', async () => {
    const link = await newLink()
    const svg = await fetch(`${worker().url}/l/${link.slug}/qr.svg`)
    expect(svg.status).toBe(200)
    expect(svg.headers.get('content-type')).toContain('image/svg+xml')
    expect(await svg.text()).toContain('<svg')

    const png = await fetch(`${worker().url}/l/${link.slug}/qr.png`)
    expect(png.status).toBe(200)
    expect(png.headers.get('content-type')).toBe('image/png')
    const image = PNG.sync.read(Buffer.from(await png.arrayBuffer()))
    const decoded = jsQR(new Uint8ClampedArray(image.data), image.width, image.height)
    expect(link.url).toBe(`${worker().url}/l/${link.slug}`)
    expect(decoded?.data).toBe(link.url)

    const poster = await fetch(`${worker().url}/l/${link.slug}/poster`)
    expect(poster.status).toBe(200)
  })
})
