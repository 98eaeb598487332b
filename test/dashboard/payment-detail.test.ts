/** A payment's page in the dashboard, the reason in the list, the CSV and the API. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { updateLink } from '../../src/data/links.js'
import { SIMULATOR_SECRET_SEED } from '../../src/simulator/constants.js'
import { api } from '../api/helpers.js'
import { pathOf, startPayment } from '../flows/support.js'
import { type Paylinks, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { type Browser, signedIn } from './helpers.js'

let p: Paylinks
let browser: Browser
beforeEach(async () => {
  p = await startPaylinks()
  browser = await signedIn(p)
})
afterEach(() => p.close())

/** The timeline's entries: [to status, cause]. */
function timeline(html: string): string[][] {
  return [...html.matchAll(/<li data-to="([^"]+)" data-cause="([^"]*)"/g)].map((m) => [
    m[1]!,
    m[2]!,
  ])
}

/** A declined payment settled by the gateway's webhook (the customer never came back). */
async function declinedByWebhook() {
  const link = await makeLink(p, { title: 'Thé vert', amount: 2500, language: 'fr' })
  const started = await startPayment(p, link.slug, { ref: 'CMD-77' })
  await p.simulator.completePayment(started.tx.cibTransactionId, 'insufficient_funds')
  await p.settle()
  return { link, ...started }
}

describe('the payment page', () => {
  it('after a webhook: timeline with causes, reason, gateway answers, customer, ids and webhook deliveries', async () => {
    const { link, payment } = await declinedByWebhook()
    const res = await browser.get(`/dashboard/payments/${payment.id}`)
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(timeline(html)).toEqual([
      ['initiated', 'checkout'],
      ['pending', 'checkout'],
      ['failed', 'webhook'],
    ])
    expect(html).toContain('by: webhook')
    expect(html).toContain('Insufficient funds')
    // The gateway's own message (the card page spoke French), isolated.
    expect(html).toContain('<bdi>Votre paiement a été refusé.</bdi>')
    for (const text of ['Amina Benali', '0550123456', 'amina@example.dz', 'CMD-77'])
      expect(html).toContain(text)
    expect(html).toContain(`href="/dashboard/links/${link.id}">Thé vert</a>`)
    expect(html).toContain(`href="/r/${payment.receiptId}"`)
    // Both stored answers: fields at a glance and the JSON in a <details>.
    expect(html).toContain('cib_response.orderId')
    expect(html).toMatch(/<dt>actionCode<\/dt><dd class="ltr"><bdi>116<\/bdi>/)
    expect(html).toContain('<summary>Raw answer (JSON)</summary>')
    expect(html).toContain('&quot;respCode_desc&quot;')
    expect(html).toMatch(/data-webhook-status="processed"/)
    expect(html).not.toContain(SIMULATOR_SECRET_SEED)
    expect(html).not.toContain(TEST_ADMIN_TOKEN)
  })

  it("after the customer's return, in French: the cause is the return", async () => {
    const link = await makeLink(p, { title: 'Commande', amount: 2500, language: 'fr' })
    const { tx, payment } = await startPayment(p, link.slug)
    await p.simulator.completePayment(tx.cibTransactionId, 'expired_card')
    // The browser is back before the webhook is delivered.
    await p.app.request(pathOf(tx.returnRedirect ?? ''))
    await p.settle()
    const html = await (await browser.get(`/dashboard/payments/${payment.id}?lang=fr`)).text()
    expect(html).toContain('<html lang="fr"')
    expect(timeline(html).at(-1)).toEqual(['failed', 'return'])
    expect(html).toContain('par : retour du client')
    expect(html).toContain('Carte expirée')
    // The webhook came later and changed nothing: one delivery, processed.
    expect([...html.matchAll(/data-webhook-status=/g)]).toHaveLength(1)
  })

  it('answers 404 in the page language for an unknown or malformed id', async () => {
    for (const [path, text] of [
      ['/dashboard/payments/pay_nosuchpayment00', 'There is no such payment.'],
      ['/dashboard/payments/%3Cscript%3E?lang=fr', 'Ce paiement n’existe pas.'],
      [`/dashboard/payments/pay_${'x'.repeat(500)}?lang=ar`, 'لا توجد دفعة بهذا المعرّف.'],
    ] as const) {
      const res = await browser.get(path)
      expect(res.status).toBe(404)
      expect(await res.text()).toContain(text)
    }
  })

  it('lists the metadata the payment was made with, in each language, isolated and escaped', async () => {
    const link = await makeLink(p, {
      title: 'Commande',
      amount: 2500,
      metadata: { order_id: '1042', note: 'تسليم <b>مساءً</b>' },
    })
    const { payment } = await startPayment(p, link.slug)
    // The link's metadata changed since: the payment's page shows what the payment keeps.
    await updateLink(
      p.deps.db,
      link.id,
      { metadata: { order_id: '2000', note: '' } },
      p.deps.clock(),
    )
    const metadataOf = (html: string) =>
      /<dl class="kv" data-metadata[^>]*>(.*?)<\/dl>/.exec(html)?.[1]
    for (const [lang, heading] of [
      ['en', 'Metadata'],
      ['fr', 'Métadonnées'],
      ['ar', 'البيانات الوصفية'],
    ] as const) {
      const html = await (
        await browser.get(`/dashboard/payments/${payment.id}?lang=${lang}`)
      ).text()
      expect(html).toContain(`<h2 id="metadata-title">${heading}</h2>`)
      expect(metadataOf(html)).toBe(
        '<dt><bdi dir="ltr">order_id</bdi></dt><dd><bdi>1042</bdi></dd>' +
          '<dt><bdi dir="ltr">note</bdi></dt><dd><bdi>تسليم &lt;b&gt;مساءً&lt;/b&gt;</bdi></dd>',
      )
    }
    // The link's page shows the link's own metadata.
    const linkPage = await (await browser.get(`/dashboard/links/${link.id}`)).text()
    expect(metadataOf(linkPage)).toBe(
      '<dt><bdi dir="ltr">order_id</bdi></dt><dd><bdi>2000</bdi></dd>',
    )
  })

  it('shows no metadata section for a payment without metadata', async () => {
    const { payment } = await declinedByWebhook()
    const html = await (await browser.get(`/dashboard/payments/${payment.id}`)).text()
    expect(html).not.toContain('metadata-title')
    expect(html).not.toContain('data-metadata')
  })

  it('is for signed-in merchants only', async () => {
    const { payment } = await declinedByWebhook()
    const res = await p.app.request(`/dashboard/payments/${payment.id}`)
    expect(res.status).toBe(303)
  })
})

describe('the reason elsewhere', () => {
  it('the list shows it and links each row to the payment page', async () => {
    const { payment } = await declinedByWebhook()
    const html = await (await browser.get('/dashboard/payments?lang=ar')).text()
    expect(html).toContain('data-failure-code="insufficient_funds">رصيد غير كافٍ</span>')
    expect(html).toContain(`href="/dashboard/payments/${payment.id}"`)
  })

  it('the CSV export has failure_code and failure_message', async () => {
    const { payment } = await declinedByWebhook()
    const text = (await (await browser.get('/dashboard/payments.csv')).text()).replace(
      /^\ufeff/,
      '',
    )
    const [header, row] = text.split('\r\n')
    expect(header).toContain(',message,failure_code,failure_message,paid_at,')
    expect(row).toContain(payment.id)
    expect(row).toContain(',insufficient_funds,Insufficient funds,')
  })

  it('the API payment object has failure_code and failure_message', async () => {
    const { payment } = await declinedByWebhook()
    const one = await api(p, 'GET', `/api/v1/payments/${payment.id}`)
    expect(one.status).toBe(200)
    expect(one.body).toMatchObject({
      status: 'failed',
      failure_code: 'insufficient_funds',
      failure_message: 'Insufficient funds',
    })
    const list = await api(p, 'GET', '/api/v1/payments')
    expect(list.body.data[0]).toMatchObject({ failure_code: 'insufficient_funds' })
  })
})
