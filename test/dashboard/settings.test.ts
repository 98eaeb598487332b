/**
 * The owner's settings page, in process on a real SQLite file: what is saved shows at once on the
 * checkout page (its prepared copy made again), the poster, the terms page, the receipt and the
 * failure page; the environment's values apply to what is not set; refusals are beside their
 * field in the page's language and store nothing; hostile logo uploads are refused whatever they
 * claim to be; the logo is served at its hash's address with headers that let nothing in it run;
 * every change is in the audit log by field name only.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { desc, eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { auditLog, branding, logo, settings } from '../../db/schema.js'
import { DASH_TABLES } from '../../src/dashboard/messages.js'
import { LOGO_FORM_BODY_LIMIT } from '../../src/http/body-limits.js'
import { accept, invite } from '../auth/people-support.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { pngLogo, webpHeaders } from '../support/images.js'
import { postLarge } from '../support/large-upload.js'
import { makeLink } from '../support/links.js'
import { type Browser, csrfOf, signedIn, storePayment } from './helpers.js'

let p: Paylinks
let owner: Browser
beforeEach(async () => {
  p = await startPaylinks({ env: { MERCHANT_TERMS_URL: 'https://env.example/terms' } })
  owner = await signedIn(p)
})
afterEach(async () => {
  await p.close()
})

const PAGE = '/dashboard/settings'

const FIELDS = {
  merchant_name: 'Librairie El Amel',
  brand_color: '#1F6F43',
  contact_phone: '+213 550 12 34 56',
  contact_email: 'contact@elamel.dz',
  contact_address: '12 rue Didouche Mourad\nAlger',
  terms_url: '',
  terms_ar: 'الشروط بالعربية.\n\nالفقرة الثانية <b>',
  terms_fr: 'Livraison sous 48 h.\n\nRetours sous 7 jours <script>alert(1)</script>',
  terms_en: '',
  default_language: 'fr',
  receipt_footer: 'Merci pour votre achat — RC 16/00-1234567',
  till_link_minutes: '15',
}

async function save(fields: Record<string, string>, b = owner) {
  return b.submit(PAGE, PAGE, fields)
}

async function upload(bytes: Uint8Array, name: string, type: string, b = owner) {
  const form = new FormData()
  form.set('_csrf', await b.formToken(PAGE))
  form.set('logo', new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), name)
  return b.request(`${PAGE}/logo`, { method: 'POST', body: form })
}

/** Sends `bytes` as the logo from a page's logo form, with that page's token. */
async function uploadFrom(html: string, bytes: Uint8Array, b = owner) {
  const form = new FormData()
  form.set('_csrf', csrfOf(html))
  form.set('logo', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'image/png' }), 'l.png')
  return b.request(`${PAGE}/logo`, { method: 'POST', body: form })
}

const unescapeHtml = (s: string) =>
  s
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')

const text = async (res: Response | Promise<Response>) => (await res).text()
const get = (path: string, lang = 'fr') =>
  p.app.request(path, { headers: { 'accept-language': lang } })

async function lastAudit() {
  const [row] = await p.deps.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1)
  return row
}

describe('settings page', () => {
  it('shows the environment’s values until settings are saved', async () => {
    const link = await makeLink(p, { title: 'Cahier', amount: 1500 })
    const page = await text(get(`/l/${link.slug}`))
    expect(page).toContain('Boutique Test')
    expect(page).toContain('href="https://env.example/terms"')
    const form = await text(owner.get(PAGE))
    expect(form).toContain('placeholder="Boutique Test"')
    expect(form).toContain('name="till_link_minutes" value="10"')
  })

  it('saves every field and shows them at once on the checkout page, prepared again', async () => {
    const link = await makeLink(p, { title: 'Cahier', amount: 1500 })
    // Prepared and then answered from memory before the change.
    expect(await text(get(`/l/${link.slug}`))).toContain('Boutique Test')
    expect(await text(get(`/l/${link.slug}`))).toContain('Boutique Test')
    const res = await save(FIELDS)
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`${PAGE}?done=saved`)
    const page = await text(get(`/l/${link.slug}`))
    expect(page).toContain('Librairie El Amel')
    expect(page).not.toContain('Boutique Test')
    expect(page).toContain('button,.btn{background:#1f6f43}')
    // Terms text stored: the checkout links to /terms, not to the environment's URL.
    expect(page).toContain('href="/terms?lang=ar#merchant"')
    // The same bytes again, now from the prepared copy, answered before routing (no promise).
    const again = p.app.fetch(
      new Request(`http://paylinks.test/l/${link.slug}`, { headers: { 'accept-language': 'fr' } }),
    )
    expect(again).not.toBeInstanceOf(Promise)
    expect(await (again as Response).text()).toBe(page)
    expect(
      await p.deps.db.select().from(settings).where(eq(settings.key, 'till_link_minutes')),
    ).toMatchObject([{ value: '15' }])
    const saved = await text(owner.get(`${PAGE}?done=saved`))
    expect(saved).toContain('Settings saved. Every page shows them now.')
    expect(saved).toContain('value="Librairie El Amel"')
  })

  it('shows the settings on the poster, the terms page, the receipt and the failure page', async () => {
    await save(FIELDS)
    const link = await makeLink(p, { title: 'Cahier', amount: 1500 })
    const poster = await text(get(`/l/${link.slug}/poster`))
    expect(poster).toContain('Librairie El Amel')
    expect(poster).toContain('.card.poster{border-block-start:6px solid #1f6f43}')

    const terms = await text(get('/terms?lang=fr'))
    expect(terms).toContain('<p>Livraison sous 48 h.</p>')
    expect(terms).toContain('Retours sous 7 jours &lt;script&gt;alert(1)&lt;/script&gt;')
    expect(terms).not.toContain('<script>alert(1)')
    expect(terms).toContain('href="tel:+213550123456"')
    expect(terms).toContain('contact@elamel.dz')
    expect(terms).toContain('12 rue Didouche Mourad\nAlger')
    const termsAr = await text(get('/terms?lang=ar'))
    expect(termsAr).toContain('الفقرة الثانية &lt;b&gt;')
    // No English text: the default language's (French) is shown, marked as French.
    const termsEn = await text(get('/terms?lang=en'))
    expect(termsEn).toContain('lang="fr"')
    expect(termsEn).toContain('Livraison sous 48 h.')

    const paid = await storePayment(p, link, { status: 'paid' })
    const receipt = await text(get(`/r/${paid.receiptId}`))
    expect(receipt).toContain('Librairie El Amel')
    expect(receipt).toContain('+213 550 12 34 56')
    expect(receipt).toContain('contact@elamel.dz')
    expect(receipt).toContain('Merci pour votre achat — RC 16/00-1234567')
    const failed = await storePayment(p, link, { status: 'failed' })
    const failure = await text(get(`/r/${failed.receiptId}`))
    expect(failure).toContain('Contacter le commerçant')
    expect(failure).toContain('contact@elamel.dz')
  })

  it('uses the stored default language where the visitor names none', async () => {
    await save({ ...FIELDS, default_language: 'ar' })
    const terms = await (await p.app.request('/terms')).text()
    expect(terms).toContain('<html lang="ar" dir="rtl">')
  })

  it('goes back to the environment’s values when fields are emptied', async () => {
    await save(FIELDS)
    const link = await makeLink(p, { title: 'Cahier', amount: 1500 })
    await save({
      ...Object.fromEntries(Object.keys(FIELDS).map((k) => [k, ''])),
      till_link_minutes: '10',
    })
    const page = await text(get(`/l/${link.slug}`))
    expect(page).toContain('Boutique Test')
    expect(page).not.toContain('#1f6f43')
    expect(page).toContain('href="https://env.example/terms"')
  })

  it('records which fields changed, never their values', async () => {
    await save(FIELDS)
    const entry = await lastAudit()
    expect(entry).toMatchObject({ action: 'settings_changed', actorKind: 'admin' })
    expect(entry?.detail).toEqual({
      fields: [
        'merchantName',
        'brandColor',
        'contactPhone',
        'contactEmail',
        'contactAddress',
        'termsAr',
        'termsFr',
        'defaultLanguage',
        'receiptFooter',
        'tillLinkMinutes',
      ],
    })
    expect(JSON.stringify(entry)).not.toContain('elamel')
    await save({ ...FIELDS, contact_phone: '0550 00 00 00' })
    expect((await lastAudit())?.detail).toEqual({ fields: ['contactPhone'] })
  })
})

describe('the receipt’s PDF', () => {
  it('carries the stored name, contact details and footer', async () => {
    await save(FIELDS)
    const link = await makeLink(p, { title: 'Cahier', amount: 1500 })
    const paid = await storePayment(p, link, { status: 'paid' })
    const res = await get(`/r/${paid.receiptId}/download?lang=fr`)
    expect(res.headers.get('content-type')).toBe('application/pdf')
    const dir = mkdtempSync(join(tmpdir(), 'paylinks-settings-pdf-'))
    try {
      const file = join(dir, 'receipt.pdf')
      writeFileSync(file, new Uint8Array(await res.arrayBuffer()))
      const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' })
      const plain = text.replace(/[\s\u200e\u200f\u202a-\u202e]+/g, ' ')
      for (const shown of [
        'Librairie El Amel',
        '+213 550 12 34 56',
        'contact@elamel.dz',
        'Merci pour votre achat — RC 16/00-1234567',
      ])
        expect(plain).toContain(shown)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('refusals', () => {
  it('refuses a colour white text cannot be read on, in the page’s language, storing nothing', async () => {
    const fr = await save({ ...FIELDS, brand_color: '#ffd400' })
    expect(fr.status).toBe(400)
    const html = await fr.text()
    expect(html).toContain('id="brandColor-err"')
    expect(html).toContain('White text on this colour is too hard to read')
    expect(await p.deps.db.select().from(branding)).toEqual([])
    await owner.get(`${PAGE}?lang=ar`)
    const ar = await (await save({ ...FIELDS, brand_color: '#ffd400' })).text()
    expect(ar).toContain('النص الأبيض صعب القراءة على هذا اللون')
    await owner.get(`${PAGE}?lang=fr`)
    const frText = await (await save({ ...FIELDS, brand_color: 'green' })).text()
    expect(frText).toContain('Écrivez la couleur avec #')
    expect(await p.deps.db.select().from(branding)).toEqual([])
  })

  it('accepts a dark colour and refuses every bad field beside it', async () => {
    expect((await save({ ...FIELDS, brand_color: '#0b5cad' })).status).toBe(303)
    const res = await save({
      ...FIELDS,
      merchant_name: 'x'.repeat(101),
      contact_phone: 'call me',
      contact_email: 'not-an-email',
      terms_url: 'javascript:alert(1)',
      default_language: 'de',
      till_link_minutes: '61',
      receipt_footer: 'a\u0000b',
    })
    expect(res.status).toBe(400)
    const html = await res.text()
    for (const id of [
      'merchantName',
      'contactPhone',
      'contactEmail',
      'termsUrl',
      'defaultLanguage',
      'tillLinkMinutes',
      'receiptFooter',
    ])
      expect(html, id).toContain(`id="${id}-err"`)
    expect(html).toContain('A whole number from 2 to 60.')
    const [row] = await p.deps.db.select().from(branding)
    expect(row?.brandColor).toBe('#0b5cad')
    expect(row?.merchantName).toBe('Librairie El Amel')
  })
})

describe('logo', () => {
  it('stores a PNG, shows it on every page and serves it at its hash with safe headers', async () => {
    const png = pngLogo(160, 64)
    const res = await upload(png, 'logo.png', 'image/png')
    expect(res.status).toBe(303)
    const [row] = await p.deps.db.select().from(branding)
    const src = `/brand/logo/${row?.logoHash}.png`
    const link = await makeLink(p, { title: 'Cahier', amount: 1500 })
    const page = await text(get(`/l/${link.slug}`))
    expect(page).toContain(`<img class="logo" src="${src}" width="160" height="64" alt=""/>`)
    expect(await text(get(`/l/${link.slug}/poster`))).toContain(`src="${src}"`)
    expect(await text(owner.get(PAGE))).toContain(`src="${src}"`)
    const served = await get(src)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/png')
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(served.headers.get('x-content-type-options')).toBe('nosniff')
    expect(served.headers.get('content-security-policy')).toBe("default-src 'none'")
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png)
    // Another extension, another hash: nothing.
    expect((await get(src.replace('.png', '.webp'))).status).toBe(404)
    expect((await get(`/brand/logo/${'0'.repeat(64)}.png`)).status).toBe(404)
    expect(await lastAudit()).toMatchObject({
      action: 'logo_changed',
      detail: { change: 'set', type: 'image/png', width: 160, height: 64, bytes: png.length },
    })
  })

  it('replaces the logo (the old address is gone) and removes it', async () => {
    await upload(pngLogo(160, 64), 'a.png', 'image/png')
    const [first] = await p.deps.db.select().from(branding)
    await upload(webpHeaders(120, 40), 'b.webp', 'image/webp')
    const [second] = await p.deps.db.select().from(branding)
    expect(second?.logoType).toBe('image/webp')
    expect((await get(`/brand/logo/${first?.logoHash}.png`)).status).toBe(404)
    expect((await p.deps.db.select().from(logo)).map((l) => l.sha256)).toEqual([second?.logoHash])
    const res = await owner.submit(PAGE, `${PAGE}/logo/delete`)
    expect(res.status).toBe(303)
    expect(await p.deps.db.select().from(logo)).toEqual([])
    const link = await makeLink(p, { title: 'Cahier', amount: 1500 })
    expect(await text(get(`/l/${link.slug}`))).not.toContain('class="logo"')
    expect(await lastAudit()).toMatchObject({
      action: 'logo_changed',
      detail: { change: 'removed' },
    })
  })

  const enc = (s: string) => new TextEncoder().encode(s)
  const png = pngLogo()
  const hostile: Array<[string, Uint8Array, string, string, string]> = [
    [
      'an SVG',
      enc('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      'logo.svg',
      'image/svg+xml',
      'not a PNG, JPEG or WebP',
    ],
    [
      'HTML renamed .png',
      enc('<!doctype html><script>alert(1)</script>'),
      'logo.png',
      'image/png',
      'not a PNG, JPEG or WebP',
    ],
    [
      'a file over 256 KiB',
      pngLogo(10, 10, undefined, 300 * 1024),
      'big.png',
      'image/png',
      'larger than 256 KB',
    ],
    [
      'a truncated PNG',
      png.subarray(0, png.length - 30),
      'cut.png',
      'image/png',
      'damaged or incomplete',
    ],
    ['a PNG declared as text', enc('hello'), 'logo.png', 'text/plain', 'not a PNG, JPEG or WebP'],
    ['zero bytes', new Uint8Array(0), 'empty.png', 'image/png', 'This file is empty'],
    [
      'a PNG with HTML after its end',
      new Uint8Array([...png, ...enc('<html><script>alert(1)</script>')]),
      'poly.png',
      'image/png',
      'damaged or incomplete',
    ],
  ]
  for (const [what, bytes, name, type, says] of hostile) {
    it(`refuses ${what} beside the field and stores nothing`, async () => {
      const res = await upload(bytes, name, type)
      expect(res.status).toBe(400)
      const html = await res.text()
      expect(html).toContain('id="logo-file-err"')
      expect(html).toContain(says)
      expect(await p.deps.db.select().from(logo)).toEqual([])
      expect(await p.deps.db.select().from(branding)).toEqual([])
    })
  }

  it('refuses a body over the upload limit before reading it', async () => {
    const res = await upload(new Uint8Array(LOGO_FORM_BODY_LIMIT + 1), 'huge.png', 'image/png')
    expect(res.status).toBe(413)
    expect(await p.deps.db.select().from(logo)).toEqual([])
  })

  /** A phone's photo: a JPEG of 3 MB, far over the upload's limit. */
  const photo = () => {
    const bytes = new Uint8Array(3 * 1024 * 1024).fill(0x5a)
    bytes.set([0xff, 0xd8, 0xff, 0xe1])
    return bytes
  }

  for (const lang of ['ar', 'fr', 'en'] as const) {
    it(`refuses a phone's 3 MB photo beside the logo field in ${lang}, storing nothing`, async () => {
      const form = new FormData()
      form.set('_csrf', await owner.formToken(PAGE))
      form.set('logo', new Blob([photo()], { type: 'image/jpeg' }), 'IMG_20261128_101500.jpg')
      const res = await owner.request(`${PAGE}/logo`, {
        method: 'POST',
        body: form,
        headers: { 'accept-language': lang },
      })
      expect(res.status).toBe(413)
      const html = await res.text()
      const words = DASH_TABLES[lang]
      expect(html).toContain(`lang="${lang}"`)
      // The settings page, its logo form, the limit and what to do beside the field.
      expect(html).toContain('action="/dashboard/settings/logo"')
      const field = /<input[^>]*id="logo-file"[^>]*>/.exec(html)?.[0]
      expect(field).toContain('logo-file-err')
      expect(field).toContain('autofocus')
      const error = /id="logo-file-err"[^>]*>([\s\S]*?)<\/p>/.exec(html)?.[1] ?? ''
      expect(unescapeHtml(error)).toContain(words.stErrLogoTooLarge)
      expect(words.stErrLogoTooLarge).toMatch(/256/)
      // Not the generic refusal, whose way back leads away from the settings.
      expect(html).not.toContain(words.tooLargeTitle)
      expect(html).not.toContain(words.backToLinks)
      // The page's forms carry the session's token: the next upload works from it.
      expect((await uploadFrom(html, pngLogo())).status).toBe(303)
      const rows = await p.deps.db.select().from(logo)
      expect(rows).toHaveLength(1)
      expect(rows[0]?.contentType).toBe('image/png')
    })
  }

  it('refuses the photo over HTTP, chunked or declared', async () => {
    await p.close()
    p = await startPaylinks({ http: true })
    owner = await signedIn(p)
    const cookie = owner.jar.header()
    for (const declare of [false, true]) {
      const res = await postLarge(`${p.url}${PAGE}/logo`, 3 * 1024 * 1024, {
        declare,
        headers: {
          cookie,
          'accept-language': 'fr',
          'content-type': 'multipart/form-data; boundary=----photo',
        },
      })
      expect(res.status).toBe(413)
      expect(unescapeHtml(res.body)).toContain(DASH_TABLES.fr.stErrLogoTooLarge)
      expect(res.body).toContain('id="logo-file-err"')
    }
    expect(await p.deps.db.select().from(logo)).toEqual([])
  })

  it('shows a cashier the refusal of the page, not the settings, for the same photo', async () => {
    const { browser: cashier } = await accept(p, await invite(owner, 'c@shop.dz', 'cashier'), 'C')
    const form = new FormData()
    form.set('logo', new Blob([photo()], { type: 'image/jpeg' }), 'photo.jpg')
    const res = await cashier.request(`${PAGE}/logo`, { method: 'POST', body: form })
    expect(res.status).toBe(403)
    const html = await res.text()
    expect(html).not.toContain('id="logo-file"')
    expect(html).not.toContain('env.example')
    expect(await p.deps.db.select().from(logo)).toEqual([])
  })

  it('keeps the other forms to their own limit', async () => {
    const res = await save({ ...FIELDS, terms_fr: 'x'.repeat(140 * 1024) })
    expect(res.status).toBe(413)
    expect(await p.deps.db.select().from(branding)).toEqual([])
  })
})
