/** Creating, editing, deactivating and deleting links through the dashboard forms. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Link } from '../../db/schema.js'
import { createLink, getLinkById } from '../../src/data/links.js'
import { formatAmount } from '../../src/i18n/index.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { linkValues, storeLink } from '../support/links.js'
import { type Browser, manualClock, signedIn, storePayment, T0 } from './helpers.js'

let paylinks: Paylinks
let browser: Browser
let clock: ReturnType<typeof manualClock>

beforeEach(async () => {
  clock = manualClock()
  paylinks = await startPaylinks({ clock })
  browser = await signedIn(paylinks)
})
afterEach(() => paylinks.close())

function allLinks(): { id: string }[] {
  return paylinks.sqlite.sqlite.prepare('SELECT id FROM links').all() as { id: string }[]
}

async function stored(id: string): Promise<Link> {
  const link = await getLinkById(paylinks.deps.db, id)
  if (!link) throw new Error(`No link ${id}`)
  return link
}

/** Posts the new-link form; returns the response and, after a redirect, the new link's id. */
async function create(form: Record<string, string>) {
  const response = await browser.submit('/dashboard/links/new', '/dashboard/links', {
    language: 'fr',
    active: 'on',
    ...form,
  })
  const id = /\/dashboard\/links\/(lnk_\w+)\?done=created$/.exec(
    response.headers.get('location') ?? '',
  )?.[1]
  return { response, id }
}

/** The text of a field's error on a form page. */
function fieldError(html: string, field: string): string | undefined {
  return new RegExp(`<p class="err" id="${field}-err">([^<]*)</p>`).exec(html)?.[1]
}

describe('creating links through the form', () => {
  it('creates a fixed-amount link from decimal text, as centimes', async () => {
    const { response, id } = await create({
      title: 'Consultation',
      description: 'Une heure',
      pricing: 'fixed',
      amount: '1 500,50',
      max_payments: '1',
      memo: 'Consult',
    })
    expect(response.status).toBe(303)
    const link = await stored(id!)
    expect(link).toMatchObject({
      title: 'Consultation',
      description: 'Une heure',
      amount: 150050,
      amountMin: null,
      amountMax: null,
      invoiceId: null,
      maxPayments: 1,
      memo: 'Consult',
      language: 'fr',
      active: true,
      // Empty fields are left out of the body, so nothing is stored for them.
      successUrl: null,
      expiresAt: null,
    })
    const page = await (await browser.get(response.headers.get('location')!)).text()
    expect(page).toContain('The link has been created.')
  })

  it('creates an open-amount link with its range', async () => {
    const { id } = await create({
      title: 'Don',
      pricing: 'open',
      amount_min: '100',
      amount_max: '5000.5',
      // Fields of another pricing choice are ignored: the radio decides.
      amount: '999',
    })
    expect(await stored(id!)).toMatchObject({ amount: null, amountMin: 10000, amountMax: 500050 })
  })

  it('creates an invoice link from item lines, with its gateway invoice', async () => {
    const { id } = await create({
      title: 'Commande 42',
      pricing: 'items',
      items: 'Café en grains 1 kg | 2 | 1800\r\n\r\nThé | vert | 1 | 99,50\r\n',
    })
    const link = await stored(id!)
    expect(link.invoiceItems).toEqual([
      { description: 'Café en grains 1 kg', quantity: 2, unitPrice: 180000 },
      { description: 'Thé | vert', quantity: 1, unitPrice: 9950 },
    ])
    expect(link.amount).toBe(369950)
    expect(link.invoiceId).toMatch(/\S+/)
  })

  it('makes an invoice link single use when the maximum is left empty, and says so by the field', async () => {
    const items = await create({ title: 'Commande 43', pricing: 'items', items: 'Thé | 1 | 500' })
    expect((await stored(items.id!)).maxPayments).toBe(1)
    const invoice = await create({
      title: 'Facture 9',
      pricing: 'fixed',
      amount: '900',
      invoice_id: 'inv-9',
    })
    expect((await stored(invoice.id!)).maxPayments).toBe(1)
    const several = await create({
      title: 'Club',
      pricing: 'items',
      items: 'Cotisation | 1 | 500',
      max_payments: '40',
    })
    expect((await stored(several.id!)).maxPayments).toBe(40)
    const fixed = await create({ title: 'Don', pricing: 'fixed', amount: '900' })
    expect((await stored(fixed.id!)).maxPayments).toBeNull()
    for (const [lang, hint] of [
      ['en', 'except on a new invoice'],
      ['fr', 'sauf pour une nouvelle facture'],
      ['ar', 'إلا للفاتورة الجديدة'],
    ] as const) {
      const html = await (await browser.get(`/dashboard/links/new?lang=${lang}`)).text()
      expect(html).toMatch(/id="max_payments"[^>]*aria-describedby="max_payments-hint"/)
      expect(html).toMatch(new RegExp(`<p id="max_payments-hint" class="hint muted">[^<]*${hint}`))
    }
  })

  it('keeps an existing gateway invoice id beside a fixed amount', async () => {
    const { id } = await create({
      title: 'Facture',
      pricing: 'fixed',
      amount: '2500',
      invoice_id: 'inv-2026-001',
    })
    expect(await stored(id!)).toMatchObject({ amount: 250000, invoiceId: 'inv-2026-001' })
  })

  it('reads the expiry as Algiers time', async () => {
    const { id } = await create({
      title: 'Soldes',
      pricing: 'fixed',
      amount: '100',
      expires_at: '2026-06-30T23:59',
    })
    expect((await stored(id!)).expiresAt).toBe(Date.UTC(2026, 5, 30, 22, 59))
  })

  it('shows every mistake next to its field and stores nothing', async () => {
    const { response } = await create({
      title: '',
      pricing: 'fixed',
      amount: '12.345',
      max_payments: 'two',
      success_url: 'javascript:alert(1)',
      expires_at: '2026-02-30T10:00',
      description: '<script>alert("x")</script>',
    })
    expect(response.status).toBe(400)
    const html = await response.text()
    expect(fieldError(html, 'title')).toBe('This field is required.')
    expect(fieldError(html, 'amount')).toBe(
      'Enter an amount in DA with at most two decimals, e.g. 1500 or 1299.50.',
    )
    expect(fieldError(html, 'max_payments')).toBe('Enter a whole number.')
    expect(fieldError(html, 'success_url')).toBe(
      'Enter an address starting with http:// or https://.',
    )
    expect(fieldError(html, 'expires_at')).toBe('Enter a date and time, e.g. 2026-06-30 23:59.')
    expect(html).toContain('aria-invalid="true"')
    // What was typed comes back, escaped.
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;')
    expect(html).not.toContain('<script>alert')
    expect(html).toContain('value="12.345"')
    expect(allLinks()).toHaveLength(0)
  })

  it('translates the rules of the API: minimum amount, range order, past expiry, bad item line', async () => {
    const low = await (await create({ title: 'A', pricing: 'fixed', amount: '10' })).response.text()
    expect(fieldError(low, 'amount')).toBe('At least 50 DA.')
    const range = await (
      await create({ title: 'B', pricing: 'open', amount_min: '500', amount_max: '100' })
    ).response.text()
    expect(fieldError(range, 'amount_max')).toBe('The maximum must not be less than the minimum.')
    const past = await (
      await create({ title: 'C', pricing: 'fixed', amount: '100', expires_at: '2026-01-15T10:59' })
    ).response.text()
    expect(fieldError(past, 'expires_at')).toBe('Must be in the future.')
    const line = await (
      await create({ title: 'D', pricing: 'items', items: 'Un | 1 | 100\nDeux | 2' })
    ).response.text()
    expect(fieldError(line, 'items')).toBe('Line 2: write description | quantity | unit price.')
    const quantity = await (
      await create({ title: 'E', pricing: 'items', items: 'Un | 1 | 100\n\nDeux | 0 | 100' })
    ).response.text()
    expect(fieldError(quantity, 'items')).toBe('Line 3: At least 1.')
    expect(allLinks()).toHaveLength(0)
  })

  it('words the errors in the page language', async () => {
    const response = await browser.submit('/dashboard/links/new?lang=fr', '/dashboard/links', {
      title: 'A',
      pricing: 'fixed',
      amount: '10',
      language: 'fr',
    })
    const html = await response.text()
    expect(html).toContain('<html lang="fr" dir="ltr">')
    expect(fieldError(html, 'amount')).toBe('50 DA au moins.')
  })
})

describe('a link page', () => {
  it('shows the public URL with a copy button, the QR preview, downloads and the poster', async () => {
    const link = await storeLink(paylinks, { title: 'Atelier <Poterie> & co' })
    const response = await browser.get(`/dashboard/links/${link.id}`)
    const html = await response.text()
    expect(response.status).toBe(200)
    expect(html).toContain(`value="${paylinks.url}/l/${link.slug}"`)
    expect(html).toContain('data-copy="public-url"')
    expect(html).toContain(`<img src="/l/${link.slug}/qr.svg"`)
    expect(html).toContain(`href="/l/${link.slug}/qr.svg?download"`)
    expect(html).toContain(`href="/l/${link.slug}/qr.png?download"`)
    expect(html).toContain(`href="/l/${link.slug}/poster"`)
    expect(html).toContain('Atelier &lt;Poterie&gt; &amp; co')
    expect(html).toContain(`href="/dashboard/payments?link=${link.id}"`)
  })

  it('answers 404 for an unknown link', async () => {
    expect((await browser.get('/dashboard/links/lnk_nope')).status).toBe(404)
    expect((await browser.get('/dashboard/links/lnk_nope/edit')).status).toBe(404)
  })
})

describe('editing links', () => {
  it('fills the form with the stored values and saves a change', async () => {
    const link = await storeLink(paylinks, { title: 'Ancien', amount: 150050, maxPayments: 3 })
    const edit = await (await browser.get(`/dashboard/links/${link.id}/edit`)).text()
    expect(edit).toContain('value="Ancien"')
    expect(edit).toContain('value="1500.50"')
    expect(edit).toContain('value="3"')
    const response = await browser.submit(
      `/dashboard/links/${link.id}/edit`,
      `/dashboard/links/${link.id}`,
      {
        title: 'Nouveau',
        pricing: 'fixed',
        amount: '2000',
        max_payments: '',
        language: 'ar',
        active: 'on',
      },
    )
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe(`/dashboard/links/${link.id}?done=saved`)
    expect(await stored(link.id)).toMatchObject({
      title: 'Nouveau',
      amount: 200000,
      maxPayments: null,
      language: 'ar',
    })
  })

  it('switches a fixed link to an open amount, leaving no fixed amount behind', async () => {
    const link = await storeLink(paylinks, { amount: 150000, invoiceId: 'inv-1' })
    await browser.submit(`/dashboard/links/${link.id}/edit`, `/dashboard/links/${link.id}`, {
      title: link.title,
      pricing: 'open',
      amount_min: '200',
      language: 'fr',
      active: 'on',
    })
    expect(await stored(link.id)).toMatchObject({
      amount: null,
      invoiceId: null,
      amountMin: 20000,
      amountMax: null,
    })
  })

  it('saves a title change on a link whose expiry has passed, leaving the expiry alone', async () => {
    const link = await storeLink(paylinks, { expiresAt: T0 + 60_000 })
    clock.advance(120_000)
    const page = await (await browser.get(`/dashboard/links/${link.id}/edit`)).text()
    const expires = /id="expires_at" name="expires_at" value="([^"]*)"/.exec(page)?.[1]
    expect(expires).toBe('2026-01-15T11:01')
    const response = await browser.submit(
      `/dashboard/links/${link.id}/edit`,
      `/dashboard/links/${link.id}`,
      {
        title: 'Renamed',
        pricing: 'fixed',
        amount: '1500.00',
        expires_at: expires!,
        language: 'fr',
        active: 'on',
      },
    )
    expect(response.status).toBe(303)
    expect(await stored(link.id)).toMatchObject({ title: 'Renamed', expiresAt: T0 + 60_000 })
  })

  it('does not create a new gateway invoice when the items are unchanged', async () => {
    const { id } = await create({ title: 'Commande', pricing: 'items', items: 'Thé | 2 | 300' })
    const before = await stored(id!)
    await browser.submit(`/dashboard/links/${id}/edit`, `/dashboard/links/${id}`, {
      title: 'Commande du jour',
      pricing: 'items',
      items: 'Thé|2|300.00',
      language: 'fr',
      active: 'on',
    })
    const after = await stored(id!)
    expect(after.title).toBe('Commande du jour')
    expect(after.invoiceId).toBe(before.invoiceId)
    await browser.submit(`/dashboard/links/${id}/edit`, `/dashboard/links/${id}`, {
      title: 'Commande du jour',
      pricing: 'items',
      items: 'Thé | 3 | 300',
      language: 'fr',
      active: 'on',
    })
    const changed = await stored(id!)
    expect(changed.amount).toBe(90000)
    expect(changed.invoiceId).not.toBe(before.invoiceId)
  })

  it('shows errors on the edit form and changes nothing', async () => {
    const link = await storeLink(paylinks, { title: 'Stable' })
    const response = await browser.submit(
      `/dashboard/links/${link.id}/edit`,
      `/dashboard/links/${link.id}`,
      {
        title: 'Changed',
        pricing: 'fixed',
        amount: 'abc',
        language: 'fr',
        active: 'on',
      },
    )
    expect(response.status).toBe(400)
    expect(fieldError(await response.text(), 'amount')).toMatch(/^Enter an amount/)
    expect(await stored(link.id)).toMatchObject({ title: 'Stable', amount: 150000 })
  })
})

describe('deactivating and deleting', () => {
  it('deactivates and activates a link with buttons', async () => {
    const link = await storeLink(paylinks)
    const off = await browser.submit(
      `/dashboard/links/${link.id}`,
      `/dashboard/links/${link.id}/deactivate`,
    )
    expect(off.status).toBe(303)
    expect((await stored(link.id)).active).toBe(false)
    const page = await (await browser.get(off.headers.get('location')!)).text()
    expect(page).toContain('data-status="inactive"')
    expect(page).toContain(`action="/dashboard/links/${link.id}/activate"`)
    await browser.submit(`/dashboard/links/${link.id}`, `/dashboard/links/${link.id}/activate`)
    expect((await stored(link.id)).active).toBe(true)
  })

  it('deletes a link nobody has paid', async () => {
    const link = await storeLink(paylinks)
    const response = await browser.submit(
      `/dashboard/links/${link.id}`,
      `/dashboard/links/${link.id}/delete`,
    )
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe('/dashboard/links?done=deleted')
    expect(allLinks()).toHaveLength(0)
  })

  it('keeps a link with payments: no delete button, and a delete is refused with 409', async () => {
    const link = await storeLink(paylinks)
    await storePayment(paylinks, link, { status: 'failed' })
    const page = await (await browser.get(`/dashboard/links/${link.id}`)).text()
    expect(page).not.toContain(`action="/dashboard/links/${link.id}/delete"`)
    const token = await browser.formToken(`/dashboard/links/${link.id}`)
    const response = await browser.post(`/dashboard/links/${link.id}/delete`, { _csrf: token })
    expect(response.status).toBe(409)
    expect(await response.text()).toContain('A link with payments cannot be deleted.')
    expect(allLinks()).toHaveLength(1)
  })
})

describe('the links list', () => {
  it('lists links with price, status, paid count and collected total', async () => {
    const fixed = await storeLink(paylinks, { title: 'Fixe' })
    await storePayment(paylinks, fixed)
    await storePayment(paylinks, fixed)
    await storePayment(paylinks, fixed, { status: 'failed' })
    await storeLink(paylinks, { title: 'Libre', amount: null, amountMin: 10000, amountMax: 500000 })
    await storeLink(paylinks, { title: 'Off', active: false })
    await storeLink(paylinks, { title: '<img src=x>', maxPayments: 1 })
    const html = await (await browser.get('/dashboard/links')).text()
    const row = (title: string) =>
      new RegExp(`<tr data-link-id="[^"]+"><td [^>]*><a [^>]*>${title}</a></td>(.*?)</tr>`).exec(
        html,
      )?.[1]
    const da = (centimes: number) => formatAmount(centimes, 'en')
    const cell = (label: string, value: string) =>
      `<td class="num" data-label="${label}">${value}</td>`
    expect(row('Fixe')).toContain(cell('Amount', da(150000)))
    expect(row('Fixe')).toContain('data-status="active"')
    expect(row('Fixe')).toContain(cell('Paid', '2') + cell('Collected', da(300000)))
    expect(row('Libre')).toContain(`${da(10000)} – ${da(500000)}`)
    expect(row('Off')).toContain('data-status="inactive"')
    expect(row('&lt;img src=x&gt;')).toContain('data-status="active"')
    expect(html).not.toContain('<img src=x>')
  })

  it('lists the links without the till’s sales unless asked, never the checkouts’, keeping the choice across pages', async () => {
    const own = await storeLink(paylinks, { title: 'Atelier' })
    clock.advance(1000)
    const older = await storeLink(paylinks, { title: 'Ancien' })
    paylinks.sqlite.sqlite.prepare('UPDATE links SET source = NULL WHERE id = ?').run(older.id)
    clock.advance(1000)
    const sale = await createLink(
      paylinks.deps.db,
      linkValues({ title: 'Vente', maxPayments: 1 }),
      clock(),
      { source: 'till', createdBy: 'admin token' },
    )
    // A checkout's link is the shop's order, not a link of the merchant's: never in this list.
    clock.advance(1000)
    const checkout = await createLink(
      paylinks.deps.db,
      linkValues({ title: 'CMD-1042', maxPayments: 1 }),
      clock(),
      { source: 'checkout' },
    )
    const ids = async (path: string) => {
      const response = await browser.get(path)
      const html = await response.text()
      return {
        status: response.status,
        html,
        ids: [...html.matchAll(/<tr data-link-id="([^"]+)"/g)].map((m) => m[1]),
      }
    }
    const plain = await ids('/dashboard/links')
    expect(plain.ids).toEqual([older.id, own.id])
    expect(plain.ids).not.toContain(checkout.id)
    // The way to the till's sales is on the page, chosen in the list's filter.
    expect(plain.html).toMatch(/<select id="f-source" name="source">/)
    expect(plain.html).toContain('<option value="till">Till sales</option>')
    expect((await ids('/dashboard/links?source=till')).ids).toEqual([sale.id])
    expect((await ids('/dashboard/links?source=all')).ids).toEqual([sale.id, older.id, own.id])
    expect((await ids('/dashboard/links?source=till&lang=fr')).html).toContain(
      '<option value="till" selected="">Les ventes en caisse</option>',
    )
    const wrong = await ids('/dashboard/links?source=shop&lang=en')
    expect(wrong.status).toBe(400)
    expect(wrong.ids).toEqual([])
    expect(wrong.html).toContain('This filter is not valid: source.')
    // The next page keeps the filter. The newer sales come a second after the first one, which
    // alone is then left for the second page (at the same instant, the order falls to the ids).
    clock.advance(1000)
    for (let i = 0; i < 50; i++) {
      await createLink(paylinks.deps.db, linkValues({ title: `Vente ${i}` }), clock(), {
        source: 'till',
        createdBy: 'admin token',
      })
      clock.advance(1000)
    }
    const first = await ids('/dashboard/links?source=till')
    expect(first.ids).toHaveLength(50)
    const next = /href="([^"]+)" rel="next"/.exec(first.html)?.[1]?.replaceAll('&amp;', '&')
    expect(next).toMatch(/^\/dashboard\/links\?source=till&cursor=/)
    expect((await ids(next!)).ids).toEqual([sale.id])
  })

  it('pages through many links', async () => {
    for (let i = 0; i < 51; i++) {
      await storeLink(paylinks, { title: `Lien ${i}` })
      clock.advance(1000)
    }
    const first = await (await browser.get('/dashboard/links')).text()
    expect(first.match(/<tr data-link-id/g)).toHaveLength(50)
    expect(first).toContain('>Lien 50<')
    const next = /href="(\/dashboard\/links\?cursor=[^"]+)" rel="next"/.exec(first)?.[1]
    expect(next).toBeDefined()
    const second = await (await browser.get(next!.replaceAll('&amp;', '&'))).text()
    expect(second.match(/<tr data-link-id/g)).toHaveLength(1)
    expect(second).toContain('>Lien 0<')
  })
})
