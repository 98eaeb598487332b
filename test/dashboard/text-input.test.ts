/**
 * The dashboard's link form with text that is not text: control characters, invalid UTF-8 sent
 * as %FF, a NUL in an invoice item. Refused with 400, the field marked in the page's language,
 * and nothing created or changed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { en } from '../../src/dashboard/messages.js'
import { ar } from '../../src/dashboard/messages-ar.js'
import { fr } from '../../src/dashboard/messages-fr.js'
import { getLinkById } from '../../src/data/links.js'
import { rowCount } from '../api/helpers.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { storeLink } from '../support/links.js'
import { Browser, manualClock, signedIn } from './helpers.js'

let paylinks: Paylinks
let browser: Browser

beforeEach(async () => {
  paylinks = await startPaylinks({ clock: manualClock() })
  browser = await signedIn(paylinks)
})
afterEach(() => paylinks.close())

/** Posts a raw urlencoded body (so %FF reaches the server as sent) with the page's form token. */
async function postRaw(from: string, action: string, body: string) {
  const csrf = await browser.formToken(from)
  return browser.request(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `${body}&_csrf=${encodeURIComponent(csrf)}`,
  })
}

const asHtml = (text: string) => text.replaceAll("'", '&#39;')
const NEW = 'pricing=fixed&amount=1500&language=fr&active=on'

describe('the new-link form refuses text that is not text', () => {
  it.each([
    ['title', 'title=Cours%00de+piano'],
    ['title', 'title=Caf%FF'],
    ['memo', 'title=Cours&memo=Pi%1Bano'],
    ['description', 'title=Cours&description=Ligne%0B2'],
    ['success_message', 'title=Cours&success_message=Merci%ED%A0%80'],
    ['invoice_id', 'title=Cours&invoice_id=INV%0A1'],
  ])('in %s (%s): 400, the field marked, no link', async (field, part) => {
    const res = await postRaw('/dashboard/links/new', '/dashboard/links', `${part}&${NEW}`)
    const html = await res.text()
    expect(res.status).toBe(400)
    expect(html).toContain(`id="${field}-err"`)
    expect(html).toContain(asHtml(en.errText))
    expect(rowCount(paylinks, 'links')).toBe(0)
  })

  it('in an invoice item, naming its line', async () => {
    const items = encodeURIComponent('Café | 1 | 100\nLivre\u0000 | 2 | 50')
    const res = await postRaw(
      '/dashboard/links/new',
      '/dashboard/links',
      `title=Facture&pricing=items&items=${items}&language=fr&active=on`,
    )
    const html = await res.text()
    expect(res.status).toBe(400)
    expect(html).toContain(
      asHtml(en.errLine.replace('{line}', '2').replace('{message}', en.errText)),
    )
    expect(rowCount(paylinks, 'links')).toBe(0)
  })

  it('in French and in Arabic too', async () => {
    for (const [lang, messages] of [
      ['fr', fr],
      ['ar', ar],
    ] as const) {
      const other = new Browser(paylinks, { 'accept-language': lang })
      await other.login()
      const csrf = await other.formToken('/dashboard/links/new')
      const res = await other.request('/dashboard/links', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `title=Caf%FF&${NEW}&_csrf=${encodeURIComponent(csrf)}`,
      })
      expect(res.status).toBe(400)
      expect(await res.text()).toContain(asHtml(messages.errText))
    }
    expect(rowCount(paylinks, 'links')).toBe(0)
  })

  it('but keeps line breaks in the description', async () => {
    const res = await postRaw(
      '/dashboard/links/new',
      '/dashboard/links',
      `title=Cours&description=Ligne+1%0D%0ALigne+2&${NEW}`,
    )
    expect(res.status).toBe(303)
    expect(rowCount(paylinks, 'links')).toBe(1)
  })
})

describe('the edit form', () => {
  it('refuses a control character and leaves the link as it was', async () => {
    const link = await storeLink(paylinks, { memo: 'Piano' })
    const res = await postRaw(
      `/dashboard/links/${link.id}/edit`,
      `/dashboard/links/${link.id}`,
      `title=Consultation&memo=Guitare%07&${NEW}`,
    )
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('id="memo-err"')
    const after = await getLinkById(paylinks.deps.db, link.id)
    expect(after?.memo).toBe('Piano')
    expect(after?.updatedAt).toBe(link.updatedAt)
  })
})
