/**
 * The webhook pages of the dashboard: an endpoint made from the form at a real receiver on
 * loopback (simulator mode allows it), its secret shown once, refusals beside the address in the
 * page's language (the SSRF ones too) with nothing stored, rotation, on/off, deletion, the
 * delivery log with its attempts, sending again, and the banner every page shows while an
 * endpoint is failing. The clock is the test's: retries fall due by moving it.
 */
import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { deliveries, webhookEndpoints } from '../../db/schema.js'
import { FAILING_AFTER, getEndpoint } from '../../src/outbound-webhooks/endpoints.js'
import { recordAttempt } from '../../src/outbox/deliveries.js'
import { RETRY_DELAYS_MS } from '../../src/outbox/schedule.js'
import { startPayment } from '../flows/support.js'
import { type Receiver, startReceiver } from '../outbound-webhooks/receiver.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { T0 } from '../support/manual-time.js'
import { Browser, signedIn } from './helpers.js'

let now = T0
let p: Paylinks
let receiver: Receiver
let browser: Browser
beforeEach(async () => {
  now = T0
  receiver = await startReceiver()
  p = await startPaylinks({ clock: () => now })
  browser = await signedIn(p)
})
afterEach(async () => {
  await p.close()
  await receiver.close()
})

const NEW = '/dashboard/webhooks/new'
const ALL_TYPES = ['payment.paid', 'payment.failed', 'payment.canceled', 'payment.expired']

/** The form as a browser posts it: one `event_types[]` per ticked box. */
function endpointForm(fields: { url: string; description?: string; types?: string[] }) {
  const form = new URLSearchParams({ url: fields.url, description: fields.description ?? '' })
  for (const type of fields.types ?? ALL_TYPES) form.append('event_types[]', type)
  form.set('enabled', 'on')
  return form
}

async function post(b: Browser, from: string, action: string, form: URLSearchParams) {
  form.set('_csrf', await b.formToken(from))
  return b.post(action, form)
}

/** Creates an endpoint through the form; its id and the secret its page showed. */
async function create(b = browser, types?: string[]) {
  const res = await post(b, NEW, '/dashboard/webhooks', endpointForm({ url: receiver.url, types }))
  expect(res.status).toBe(201)
  const html = await res.text()
  const id = /data-endpoint-id="(we_\w+)"/.exec(html)?.[1] ?? ''
  const secret = /value="(whsec_[^"]+)"/.exec(html)?.[1] ?? ''
  return { id, secret, html }
}

const stored = () => p.deps.db.select().from(webhookEndpoints)

/** Moves the clock and sends what fell due, as the timer or Cron trigger would. */
async function advance(ms: number) {
  now += ms
  await p.deps.outbound.run()
}

/** A paid payment on a new link: its delivery's first attempt has gone when this returns. */
async function paidPayment() {
  const link = await makeLink(p, { title: 'Commande', amount: 2500, language: 'fr' })
  const { tx, payment } = await startPayment(p, link.slug)
  await p.simulator.completePayment(tx.cibTransactionId, 'approved')
  await p.settle()
  return payment
}

describe('the webhook pages', () => {
  it('creates an endpoint at a loopback receiver and shows its secret on that answer only', async () => {
    const { id, secret, html } = await create()
    const [row] = await stored()
    expect(row).toMatchObject({
      id,
      url: receiver.url,
      enabled: true,
      eventTypes: [...ALL_TYPES].sort(),
    })
    expect(secret).toBe(row?.secret)
    expect(html).toContain('data-copy="wh-secret"')
    // The field holding the secret is named by its heading.
    expect(html).toMatch(/<h2 id="wh-secret-title">[^<]+<\/h2>/)
    expect(html).toMatch(/<input [^>]*id="wh-secret"[^>]*aria-labelledby="wh-secret-title"/)
    for (const path of [`/dashboard/webhooks/${id}`, '/dashboard/webhooks', `${NEW}`]) {
      const page = await (await browser.get(path)).text()
      expect(page, path).not.toContain(secret)
      expect(page, path).not.toContain('data-secret-shown')
    }
    const list = await (await browser.get('/dashboard/webhooks')).text()
    expect(list).toContain(`href="/dashboard/webhooks/${id}"`)
    expect(list).toContain('Nothing sent yet')
  })

  it('refuses a bad address beside the field in the page language and stores nothing', async () => {
    const fr = new Browser(p, { 'accept-language': 'fr' })
    await fr.login()
    const bad = await post(fr, NEW, '/dashboard/webhooks', endpointForm({ url: 'pas une adresse' }))
    expect(bad.status).toBe(400)
    const html = await bad.text()
    expect(html).toContain('id="url-err"')
    expect(html).toContain('Saisissez une adresse commençant par https://')
    expect(html).toContain('value="pas une adresse"')
    const none = await post(
      fr,
      NEW,
      '/dashboard/webhooks',
      endpointForm({ url: receiver.url, types: [] }),
    )
    expect(none.status).toBe(400)
    expect(await none.text()).toContain('Choisissez au moins un événement.')
    // Under the live rules: the SSRF refusals, in Arabic.
    Object.assign(p.deps.webhookTargets, { simulator: false, allowPrivate: false })
    const ar = new Browser(p, { 'accept-language': 'ar' })
    await ar.login()
    for (const [url, words] of [
      ['https://169.254.169.254/latest', 'شبكة خاصة'],
      ['https://[::ffff:10.0.0.1]/', 'شبكة خاصة'],
      [receiver.url, 'يجب أن يبدأ العنوان'],
    ] as const) {
      const res = await post(ar, NEW, '/dashboard/webhooks', endpointForm({ url }))
      expect(res.status, url).toBe(400)
      const page = await res.text()
      expect(page, url).toContain('id="url-err"')
      expect(page, url).toContain(words)
    }
    expect(await stored()).toEqual([])
  })

  it('offers every event, checkouts’ included, each named in the page language, and stores them', async () => {
    const words = {
      en: ['A checkout is paid', 'A checkout expired unpaid', 'A payment is paid'],
      fr: ['Une session de paiement est payée', 'Un paiement est payé'],
      ar: ['تم دفع جلسة دفع', 'انتهت صلاحية جلسة دفع دون دفع'],
    }
    for (const [lang, texts] of Object.entries(words)) {
      const b = new Browser(p, { 'accept-language': lang })
      await b.login()
      const html = await (await b.get(NEW)).text()
      for (const text of texts) expect(html, lang).toContain(text)
      for (const type of ['checkout.completed', 'checkout.expired'])
        expect(html, lang).toMatch(new RegExp(`value="${type}" checked=""`))
    }
    const types = ['payment.paid', 'checkout.completed', 'checkout.expired']
    const res = await post(
      browser,
      NEW,
      '/dashboard/webhooks',
      endpointForm({ url: receiver.url, types }),
    )
    expect(res.status).toBe(201)
    const [row] = await stored()
    expect([...(row?.eventTypes ?? [])].sort()).toEqual([
      'checkout.completed',
      'checkout.expired',
      'payment.paid',
    ])
  })

  it('refuses a form without its token and stores nothing', async () => {
    const res = await browser.post('/dashboard/webhooks', endpointForm({ url: receiver.url }))
    expect(res.status).toBe(403)
    expect(await stored()).toEqual([])
  })

  it('edits, turns off and on, and deletes an endpoint after a confirmation', async () => {
    const { id } = await create()
    const page = `/dashboard/webhooks/${id}`
    const edit = await post(
      browser,
      `${page}/edit`,
      page,
      endpointForm({ url: receiver.url, description: 'Boutique', types: ['payment.paid'] }),
    )
    expect(edit.status).toBe(303)
    expect(await getEndpoint(p.deps.db, id)).toMatchObject({
      description: 'Boutique',
      eventTypes: ['payment.paid'],
    })
    const badEdit = await post(browser, `${page}/edit`, page, endpointForm({ url: '' }))
    expect(badEdit.status).toBe(400)
    expect((await getEndpoint(p.deps.db, id))?.url).toBe(receiver.url)

    expect((await post(browser, page, `${page}/disable`, new URLSearchParams())).status).toBe(303)
    expect((await getEndpoint(p.deps.db, id))?.enabled).toBe(false)
    const off = await (await browser.get(`${page}?done=disabled`)).text()
    expect(off).toContain('Sending is off')
    expect(off).toContain(`action="${page}/enable"`)
    await post(browser, page, `${page}/enable`, new URLSearchParams())
    expect((await getEndpoint(p.deps.db, id))?.enabled).toBe(true)

    // The delete button sits inside a confirmation that says what goes.
    expect(await (await browser.get(page)).text()).toMatch(
      /<details class="wh-delete"><summary>Delete<\/summary><p>Delete this endpoint and its delivery log\?/,
    )
    const gone = await post(browser, page, `${page}/delete`, new URLSearchParams())
    expect(gone.headers.get('location')).toBe('/dashboard/webhooks?done=deleted')
    expect(await stored()).toEqual([])
    expect((await browser.get(page)).status).toBe(404)
  })

  it('rotates the secret: the new one shown once, the old one kept for 24 hours', async () => {
    const { id, secret } = await create()
    const page = `/dashboard/webhooks/${id}`
    now += 1000
    const res = await post(browser, page, `${page}/rotate`, new URLSearchParams())
    expect(res.status).toBe(200)
    const html = await res.text()
    const fresh = /value="(whsec_[^"]+)"/.exec(html)?.[1]
    const row = await getEndpoint(p.deps.db, id)
    expect(fresh).toBe(row?.secret)
    expect(fresh).not.toBe(secret)
    expect(row).toMatchObject({ previousSecret: secret, previousSecretExpiresAt: now + 86_400_000 })
    expect(html).toContain('The previous one still signs')
    const later = await (await browser.get(page)).text()
    expect(later).not.toContain(fresh)
    expect(later).toContain('Previous secret signs until')
  })

  it('logs each delivery with its attempts, and sends one again on request', async () => {
    receiver.answer(500)
    const { id } = await create(browser, ['payment.paid'])
    const payment = await paidPayment()
    await advance(RETRY_DELAYS_MS[0]!)
    const page = `/dashboard/webhooks/${id}`
    const html = await (await browser.get(page)).text()
    const [delivery] = await p.deps.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.endpointId, id))
    expect(delivery).toMatchObject({ state: 'pending', attempts: 2 })
    expect(html).toContain(`href="/dashboard/payments/${payment.id}"`)
    expect(html).toContain('Attempts (2)')
    expect(html.match(/data-attempt-status="500"/g)).toHaveLength(2)
    expect(html).toContain('receiver is down')
    expect(html).toContain('HTTP 500')

    receiver.answer(200)
    const again = await post(
      browser,
      page,
      `${page}/deliveries/${delivery!.eventId}/redeliver`,
      new URLSearchParams(),
    )
    expect(again.status).toBe(303)
    expect(again.headers.get('location')).toBe(`${page}?done=redelivered#${delivery!.eventId}`)
    await p.settle()
    expect(receiver.received).toHaveLength(3)
    expect(receiver.received[2]?.headers['webhook-id']).toBe(delivery!.eventId)
    const after = await (await browser.get(page)).text()
    expect(after).toContain('Attempts (3)')
    expect(after).toContain('data-state="delivered"')
    const missing = await post(
      browser,
      page,
      `${page}/deliveries/msg_nope/redeliver`,
      new URLSearchParams(),
    )
    expect(missing.status).toBe(404)
  })

  it('shows a delivered delivery put back in the queue as pending, due now', async () => {
    const { id } = await create(browser, ['payment.paid'])
    await paidPayment()
    const [delivery] = await p.deps.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.endpointId, id))
    expect(delivery?.state).toBe('delivered')
    // No kick: the re-queued row is seen before anything sends it.
    Object.assign(p.deps.outbound, { kick: () => {} })
    now += 60_000
    const page = `/dashboard/webhooks/${id}`
    await post(
      browser,
      page,
      `${page}/deliveries/${delivery!.eventId}/redeliver`,
      new URLSearchParams(),
    )
    const [queued] = await p.deps.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.id, delivery!.id))
    expect(queued).toMatchObject({ state: 'pending', nextAttemptAt: now })
    expect(await (await browser.get(page)).text()).toContain('data-state="pending"')
  })

  it('escapes what a receiver answered', async () => {
    const { id } = await create(browser, ['payment.paid'])
    await paidPayment()
    const [delivery] = await p.deps.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.endpointId, id))
    await recordAttempt(p.deps.db, delivery!.id, {
      at: now,
      status: 502,
      responseExcerpt: '<script>alert(1)</script>',
      durationMs: 12,
      error: null,
      delivered: false,
      nextAttemptAt: now + 5000,
    })
    const html = await (await browser.get(`/dashboard/webhooks/${id}`)).text()
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(html).not.toContain('<script>alert(1)')
  })

  it('shows a banner on every page while an endpoint is failing, until a delivery gets through', async () => {
    receiver.answer(500)
    const { id } = await create(browser, ['payment.paid'])
    await paidPayment()
    const pages = ['/dashboard', '/dashboard/links', '/dashboard/payments', '/dashboard/webhooks']
    for (const delay of RETRY_DELAYS_MS.slice(0, FAILING_AFTER - 2)) await advance(delay)
    // One failure short of failing: no banner yet.
    expect(await (await browser.get('/dashboard')).text()).not.toContain('data-banner')
    await advance(RETRY_DELAYS_MS[FAILING_AFTER - 2]!)
    expect((await getEndpoint(p.deps.db, id))?.failingSince).toBe(now)
    for (const path of pages) {
      const html = await (await browser.get(path)).text()
      expect(html, path).toContain('data-banner="webhooks-failing"')
      expect(html, path).toContain(`href="/dashboard/webhooks/${id}"`)
    }
    expect(await (await browser.get('/dashboard/webhooks')).text()).toContain('data-failing="true"')
    receiver.answer(200)
    await advance(RETRY_DELAYS_MS[FAILING_AFTER - 1]!)
    expect(await (await browser.get('/dashboard')).text()).not.toContain('data-banner')
  })

  it('answers an unknown endpoint or a bad log page with a page in the dashboard language', async () => {
    const fr = new Browser(p, { 'accept-language': 'fr' })
    await fr.login()
    const missing = await fr.get('/dashboard/webhooks/we_missing')
    expect(missing.status).toBe(404)
    expect(await missing.text()).toContain('Ce point de réception n’existe pas.')
    const { id } = await create(fr)
    const bad = await fr.get(`/dashboard/webhooks/${id}?before=yesterday`)
    expect(bad.status).toBe(400)
    expect(await bad.text()).toContain('before')
  })
})
