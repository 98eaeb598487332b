/**
 * The till in process, on a real SQLite file with the built-in simulator: Charge makes a
 * single-use till link, the status and the event stream follow the payment only as the check
 * endpoint settles it, Cancel turns the link off, a reload comes back to the open sale, the shift
 * report counts, and the API and the CSV mark till payments.
 */
import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { links, settings } from '../../db/schema.js'
import type { SaleView } from '../../src/dashboard/till-sale.js'
import { getLinkById } from '../../src/data/links.js'
import { createSession } from '../../src/data/sessions.js'
import { createUser } from '../../src/data/users.js'
import { countForm } from '../../src/i18n/index.js'
import { startPayment } from '../flows/support.js'
import { type Paylinks, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'
import { makeLink, postLink } from '../support/links.js'
import { Browser, signedIn } from './helpers.js'

let p: Paylinks
let b: Browser
beforeEach(async () => {
  p = await startPaylinks()
  b = await signedIn(p)
})
afterEach(async () => {
  await p.close()
})

/** Charges `amount` as typed; returns the new sale's link id. */
async function charge(amount: string, note = ''): Promise<string> {
  const res = await b.submit('/dashboard/till?new', '/dashboard/till/sales', { amount, note })
  expect(res.status).toBe(303)
  const location = res.headers.get('location') ?? ''
  const id = new URL(location, 'http://x').searchParams.get('sale')
  expect(id).toBeTruthy()
  return id!
}

async function status(id: string): Promise<SaleView> {
  const res = await b.get(`/dashboard/till/sales/${id}/status`)
  expect(res.status).toBe(200)
  return (await res.json()) as SaleView
}

const slugOf = async (id: string) => (await getLinkById(p.deps.db, id))!.slug

describe('the till', () => {
  it('is at /till and under the dashboard session', async () => {
    const short = await p.app.request('/till')
    expect(short.status).toBe(302)
    expect(short.headers.get('location')).toBe('/dashboard/till')
    const anonymous = await p.app.request('/dashboard/till')
    expect(anonymous.status).toBe(303)
    expect(anonymous.headers.get('location')).toBe('/dashboard/login')
    const page = await b.get('/dashboard/till')
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('action="/dashboard/till/sales"')
    expect(html).toContain('data-key="00"')
    expect(html).toContain('href="/dashboard/till" aria-current="page"')
  })

  it('charges 1,250.50 DA typed in Eastern Arabic digits as a single-use till link that expires', async () => {
    const before = Date.now()
    const id = await charge('١٬٢٥٠٫٥٠', 'Table 4')
    const link = await getLinkById(p.deps.db, id)
    expect(link).toMatchObject({
      amount: 125050,
      maxPayments: 1,
      source: 'till',
      createdBy: 'admin token',
      description: 'Table 4',
      active: true,
    })
    // The default lifetime: 10 minutes.
    expect(link!.expiresAt! - before).toBeGreaterThan(9.9 * 60_000)
    expect(link!.expiresAt! - before).toBeLessThan(10.1 * 60_000)
    const page = await (await b.get(`/dashboard/till?sale=${id}`)).text()
    expect(page).toContain('data-state="waiting"')
    expect(page).toContain('<svg')
    expect(page).toContain(`/l/${link!.slug}`)
    expect(page).toContain('1,250.50')
    expect(await status(id)).toMatchObject({ state: 'waiting', amount: 125050 })
  })

  it('warns over the QR code, in the page’s language, when customers’ phones cannot open PUBLIC_URL', async () => {
    const id = await charge('1500')
    expect(await (await b.get(`/dashboard/till?sale=${id}`)).text()).not.toContain('data-warning')
    const local = await startPaylinks({ env: { PUBLIC_URL: 'http://localhost:8787' } })
    try {
      const cashier = await signedIn(local)
      const res = await cashier.submit('/dashboard/till?new', '/dashboard/till/sales', {
        amount: '1500',
      })
      const html = await (await cashier.get(`${res.headers.get('location')}&lang=fr`)).text()
      const open = html.slice(html.indexOf('class="st st-open"'))
      // The same check and words as a link's page and its poster, before the QR code.
      expect(open.indexOf('data-warning="local-public-url"')).toBeGreaterThan(0)
      expect(open.indexOf('data-warning="local-public-url"')).toBeLessThan(open.indexOf('<svg'))
      expect(html.replace(/&#39;|&#x27;/g, "'")).toContain(
        'Les téléphones des clients ne peuvent pas ouvrir cette adresse (localhost:8787)',
      )
    } finally {
      await local.close()
    }
  })

  it('takes the link lifetime from the settings, within 2 to 60 minutes', async () => {
    for (const [stored, minutes] of [
      ['3', 3],
      ['1', 2],
      ['600', 60],
      ['ten', 10],
    ] as const) {
      await p.deps.db
        .insert(settings)
        .values({ key: 'till_link_minutes', value: stored, createdAt: 0 })
        .onConflictDoUpdate({ target: settings.key, set: { value: stored } })
      const before = Date.now()
      const link = await getLinkById(p.deps.db, await charge('100'))
      const lived = (link!.expiresAt! - before) / 60_000
      expect(lived).toBeGreaterThan(minutes - 0.1)
      expect(lived).toBeLessThan(minutes + 0.1)
    }
  })

  it('refuses a missing, too small or malformed amount in the page’s language and makes no link', async () => {
    const count = async () => (await p.deps.db.select().from(links)).length
    const res = await b.submit('/dashboard/till?new', '/dashboard/till/sales', { amount: '' })
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('This field is required.')
    const low = await b.submit('/dashboard/till?new', '/dashboard/till/sales', { amount: '49.99' })
    expect(low.status).toBe(400)
    expect(await low.text()).toContain('At least 50 DA.')
    const fr = await b.get('/dashboard/till?new&lang=fr')
    expect(fr.status).toBe(200)
    const bad = await b.submit('/dashboard/till?new', '/dashboard/till/sales', { amount: '12a' })
    expect(bad.status).toBe(400)
    const html = await bad.text()
    expect(html).toContain('lang="fr"')
    expect(html).toContain('value="12a"')
    const long = await b.submit('/dashboard/till?new', '/dashboard/till/sales', {
      amount: '100',
      note: 'x'.repeat(101),
    })
    expect(long.status).toBe(400)
    const control = await b.submit('/dashboard/till?new', '/dashboard/till/sales', {
      amount: '100',
      note: 'Table\u00074',
    })
    expect(control.status).toBe(400)
    expect(await control.text()).toContain('id="note-err"')
    expect(await count()).toBe(0)
  })

  it('flips to paid only when the check endpoint confirms, never on the return’s query alone', async () => {
    const id = await charge('1250.50')
    const started = await startPayment(p, await slugOf(id))
    expect((await status(id)).state).toBe('paying')
    // The customer comes back claiming success while the gateway still says unpaid.
    await p.app.request(`/r/${started.receiptId}?payment_status=success`)
    expect((await status(id)).state).toBe('paying')
    await p.simulator.completePayment(started.tx.cibTransactionId, 'approved')
    await p.settle()
    const paid = await status(id)
    expect(paid).toMatchObject({
      state: 'paid',
      amount: 125050,
      customerName: 'Amina Benali',
    })
    expect(paid.approvalCode).toMatch(/^\d{6}$/)
    expect(paid.paidAtText).toBeTruthy()
    const page = await (await b.get(`/dashboard/till?sale=${id}`)).text()
    expect(page).toContain('data-state="paid"')
    expect(page).toContain(paid.approvalCode!)
  })

  it('shows the decline’s reason, and the sale stays open for another try', async () => {
    const id = await charge('300')
    const started = await startPayment(p, await slugOf(id))
    await p.simulator.completePayment(started.tx.cibTransactionId, 'insufficient_funds')
    await p.settle()
    expect(await status(id)).toMatchObject({
      state: 'declined',
      failureCode: 'insufficient_funds',
      failureText: 'Insufficient funds',
    })
    const fr = await b.get(`/dashboard/till/sales/${id}/status?lang=fr`)
    expect(((await fr.json()) as SaleView).failureText).toBe('Solde insuffisant')
  })

  it('cancels: the link stops taking payments and the till starts a new sale', async () => {
    const id = await charge('500')
    const res = await b.submit(`/dashboard/till?sale=${id}`, `/dashboard/till/sales/${id}/cancel`)
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/dashboard/till?new')
    expect((await getLinkById(p.deps.db, id))!.active).toBe(false)
    expect((await status(id)).state).toBe('canceled')
    const checkout = await p.app.request(`/l/${await slugOf(id)}`)
    expect(await checkout.text()).not.toContain('name="terms"')
  })

  it('comes back to the cashier’s open sale on reload, and to the keypad once it is over', async () => {
    const id = await charge('700')
    const reload = await (await b.get('/dashboard/till')).text()
    expect(reload).toContain(`data-sale="${id}"`)
    await b.submit(`/dashboard/till?sale=${id}`, `/dashboard/till/sales/${id}/cancel`)
    const after = await (await b.get('/dashboard/till')).text()
    expect(after).not.toContain('data-sale=')
    expect(after).toContain('data-state="keypad"')
  })

  it('streams the sale: one event at once, the next as soon as the confirmation tells it', async () => {
    const id = await charge('1250.50')
    const changes = p.deps.paymentChanges!
    const emitted: { linkId: string; at: number }[] = []
    const emit = changes.emit.bind(changes)
    changes.emit = (linkId) => {
      emitted.push({ linkId, at: performance.now() })
      emit(linkId)
    }
    const res = await b.get(`/dashboard/till/sales/${id}/events`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/event-stream')
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
    const events: { view: SaleView; at: number }[] = []
    let buffer = ''
    const nextEvent = async () => {
      for (;;) {
        const end = buffer.indexOf('\n\n')
        if (end >= 0) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const data = /^data: (.*)$/m.exec(block)
          if (data) {
            const event = { view: JSON.parse(data[1]!) as SaleView, at: performance.now() }
            events.push(event)
            return event
          }
          continue
        }
        const { value, done } = await reader.read()
        if (done) throw new Error('the stream ended')
        buffer += value
      }
    }
    expect((await nextEvent()).view.state).toBe('waiting')
    const started = await startPayment(p, await slugOf(id))
    expect((await nextEvent()).view.state).toBe('paying')
    await p.simulator.completePayment(started.tx.cibTransactionId, 'approved')
    const paid = await nextEvent()
    expect(paid.view.state).toBe('paid')
    const word = emitted.filter((e) => e.linkId === id).at(-1)
    expect(word).toBeDefined()
    // Read on the word, not on the periodic read two seconds later.
    expect(paid.at - word!.at).toBeLessThan(500)
    await reader.cancel()
    await p.settle()
  })

  it('keeps preset items, offers them on the keypad, and refuses a bad line naming it', async () => {
    const empty = await (await b.get('/dashboard/till/presets')).text()
    expect(empty).toContain('name="presets"')
    const bad = await b.submit('/dashboard/till/presets', '/dashboard/till/presets', {
      presets: 'Café; 150\nThé',
    })
    expect(bad.status).toBe(400)
    expect(await bad.text()).toContain('Line 2 is not an item')
    const saved = await b.submit('/dashboard/till/presets', '/dashboard/till/presets', {
      presets: 'Café; 150\nCroissant; 80.50',
    })
    expect(saved.status).toBe(303)
    const page = await (await b.get('/dashboard/till/presets')).text()
    expect(page).toContain('Café; 150.00\nCroissant; 80.50')
    const till = await (await b.get('/dashboard/till?new')).text()
    expect(till).toContain('data-price="15000" data-name="Café"')
    expect(till).toContain('data-price="8050" data-name="Croissant"')
  })

  it('ends its event streams when the server stops', async () => {
    const id = await charge('100')
    const res = await b.get(`/dashboard/till/sales/${id}/events`)
    const reader = res.body!.getReader()
    await reader.read()
    p.deps.paymentChanges!.close()
    for (;;) {
      const { done } = await reader.read()
      if (done) break
    }
  })

  it('reports the day’s till sales per cashier and per outcome, and marks them in the API and CSV', async () => {
    const paidId = await charge('1250.50')
    const paid = await startPayment(p, await slugOf(paidId))
    await p.simulator.completePayment(paid.tx.cibTransactionId, 'approved')
    const declinedId = await charge('300')
    const declined = await startPayment(p, await slugOf(declinedId))
    await p.simulator.completePayment(declined.tx.cibTransactionId, 'declined')
    const canceledId = await charge('80')
    await b.submit('/dashboard/till?new', `/dashboard/till/sales/${canceledId}/cancel`)
    await charge('90')
    await p.settle()
    // A link made elsewhere is no till sale.
    const other = await postLink(p, { title: 'Ailleurs', amount: 1000 })
    await startPayment(p, other.slug)

    const html = await (await b.get('/dashboard/till/report')).text()
    expect(html).toContain('data-total-count="4"')
    const row = (outcome: string) =>
      new RegExp(`data-outcome="${outcome}">.*?<td[^>]*>(\\d+)</td><td[^>]*data-sum="(\\d+)"`).exec(
        html,
      )
    expect(row('paid')?.slice(1)).toEqual(['1', '125050'])
    expect(row('declined')?.slice(1)).toEqual(['1', '30000'])
    expect(row('canceled')?.slice(1)).toEqual(['1', '8000'])
    expect(row('open')?.slice(1)).toEqual(['1', '9000'])
    expect(row('expired')?.slice(1)).toEqual(['0', '0'])
    expect(html).toContain('data-cashier="admin token"')
    expect(html).toContain('1,250.50')

    const api = await p.app.request('/api/v1/payments?source=till', {
      headers: { 'x-api-key': TEST_ADMIN_TOKEN },
    })
    expect(api.status).toBe(200)
    const body = (await api.json()) as { data: { link_id: string; source: string }[] }
    expect(body.data.map((d) => d.link_id).sort()).toEqual([paidId, declinedId].sort())
    expect(body.data.every((d) => d.source === 'till')).toBe(true)
    const all = (await (
      await p.app.request('/api/v1/payments', { headers: { 'x-api-key': TEST_ADMIN_TOKEN } })
    ).json()) as { data: { link_id: string; source: string }[] }
    expect(all.data.find((d) => d.link_id === other.id)?.source).toBe('api')
    const wrong = await p.app.request('/api/v1/payments?source=shop', {
      headers: { 'x-api-key': TEST_ADMIN_TOKEN },
    })
    expect(wrong.status).toBe(400)

    const csv = await (await b.get('/dashboard/payments.csv?source=till')).text()
    const lines = csv
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n')
    // Columns are appended at the end as the payment grows parts: read them by name.
    const header = lines[0]!.split(',')
    const source = header.indexOf('source')
    expect(header.slice(source, source + 2)).toEqual(['source', 'metadata'])
    expect(lines).toHaveLength(3)
    expect(
      lines.slice(1).every(
        (l) =>
          l
            .split(',')
            .slice(source, source + 2)
            .join() === 'till,{}',
      ),
    ).toBe(true)
  })

  it('names each maker of sales by their display name and agrees in number in every language', async () => {
    const karim = await createUser(
      p.deps.db,
      { email: 'karim@shop.dz', name: 'Karim Belkacem', role: 'cashier', passwordHash: 'x' },
      p.deps.clock(),
    )
    await createUser(
      p.deps.db,
      { email: 'nameless@shop.dz', name: '', role: 'cashier', passwordHash: 'x' },
      p.deps.clock(),
    )
    const asKarim = new Browser(p)
    asKarim.jar.cookies.set(
      'paylinks_session',
      await createSession(p.deps.db, { userId: karim!.id }, p.deps.clock(), 60_000),
    )
    const sale = await asKarim.submit('/dashboard/till?new', '/dashboard/till/sales', {
      amount: '1250.50',
    })
    const id = new URL(sale.headers.get('location')!, 'http://x').searchParams.get('sale')!
    const paid = await startPayment(p, await slugOf(id))
    await p.simulator.completePayment(paid.tx.cibTransactionId, 'approved')
    await p.settle()
    // A sale by a person without a name (or removed since) keeps their e-mail.
    await p.deps.db
      .insert(links)
      .values({ ...(await getLinkById(p.deps.db, id))!, id: 'lnk_nameless', slug: 'nameless' })
    await p.deps.db
      .update(links)
      .set({ createdBy: 'nameless@shop.dz', paidCount: 0, paidTotal: 0 })
      .where(eq(links.id, 'lnk_nameless'))
    const words = async (lang: string) => {
      const html = await (await b.get(`/dashboard/till/report?lang=${lang}`)).text()
      return html.replace(/&#39;|&#x27;/g, "'")
    }
    const fr = await words('fr')
    expect(fr).toMatch(/ : 2 ventes en caisse, 1 payée, 1\u202f?\s?250,50\s+DA encaissés\./)
    expect(fr).toContain('<bdi>Karim Belkacem</bdi>')
    expect(fr).toContain('<bdi>nameless@shop.dz</bdi>')
    expect(fr).not.toContain('<bdi>karim@shop.dz</bdi>')
    await charge('80')
    expect(await words('en')).toContain(': 3 sales at the till, 1 paid,')
    expect(await words('fr')).toContain('<bdi>jeton d’administration</bdi>')
    expect(await words('ar')).toContain('3 عمليات بيع في الصندوق، واحدة منها مدفوعة،')
    await p.deps.db.delete(links).where(eq(links.id, 'lnk_nameless'))
    expect(await words('ar')).toContain('عمليتا بيع في الصندوق، واحدة منها مدفوعة،')
    expect(await words('en')).toContain(': 2 sales at the till, 1 paid,')
  })

  it('counts in the forms each language takes', () => {
    expect([0, 1, 2, 5].map((n) => countForm(n, 'en'))).toEqual(['Many', 'One', 'Many', 'Many'])
    expect([0, 1, 2, 5].map((n) => countForm(n, 'fr'))).toEqual(['One', 'One', 'Many', 'Many'])
    expect([0, 1, 2, 3, 10, 11, 99, 100, 102, 103].map((n) => countForm(n, 'ar'))).toEqual([
      'Many',
      'One',
      'Two',
      'Few',
      'Few',
      'Many',
      'Many',
      'Many',
      'Many',
      'Few',
    ])
  })

  it('leaves older links without a source as the dashboard’s', async () => {
    const link = await makeLink(p, { title: 'Ancien', amount: 1000 })
    await p.deps.db.update(links).set({ source: null }).where(eq(links.id, link.id))
    await startPayment(p, link.slug)
    const csv = await (await b.get('/dashboard/payments.csv')).text()
    expect(csv.trim().split('\r\n').at(-1)!).toContain(',dashboard,{}')
  })
})
