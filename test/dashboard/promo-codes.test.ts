/**
 * Promo codes in the dashboard: a new code from the form, listed with its discount, minimum, uses
 * and state; errors beside their fields in the page's language; a code taken whatever its case;
 * editing only what changed; switching off and on; a cashier kept out (as links). The settings'
 * customer_fee_percent and the link form's checkboxes for codes and the fee.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { users } from '../../db/schema.js'
import { createApiKey } from '../../src/auth/api-keys.js'
import { DASH_TABLES } from '../../src/dashboard/messages.js'
import { getPromoCode } from '../../src/data/promo-codes.js'
import { getSetting } from '../../src/data/settings.js'
import { CUSTOMER_FEE_PERCENT_KEY } from '../../src/domain/customer-fee.js'
import { api } from '../api/helpers.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { type Browser, signedIn } from './helpers.js'

let p: Paylinks
let owner: Browser
beforeEach(async () => {
  p = await startPaylinks()
  owner = await signedIn(p)
})
afterEach(() => p.close())

const LIST = '/dashboard/promo-codes'

const unescapeHtml = (s: string) =>
  s
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')

const errorOf = (html: string, id: string) =>
  unescapeHtml(new RegExp(`id="${id}-err"[^>]*>([\\s\\S]*?)</p>`).exec(html)?.[1] ?? '')

const FORM = {
  code: 'Ramadan10',
  kind: 'percent',
  percent_off: '10',
  amount_off: '',
  min_amount: '2 000',
  max_redemptions: '50',
  expires_at: '2030-06-30T23:59',
}

async function create(form: Record<string, string> = FORM) {
  const res = await owner.submit(`${LIST}/new`, LIST, form)
  expect(res.status).toBe(303)
  return /\/dashboard\/promo-codes\/(promo_\w+)\?done=created/.exec(
    res.headers.get('location') ?? '',
  )![1]!
}

describe('promo codes in the dashboard', () => {
  it('creates a code from the form and lists it with its discount, minimum, uses and state', async () => {
    const id = await create()
    expect(await getPromoCode(p.deps.db, id)).toMatchObject({
      code: 'Ramadan10',
      percentOff: 10,
      amountOff: null,
      minAmount: 200_000,
      maxRedemptions: 50,
      expiresAt: Date.UTC(2030, 5, 30, 22, 59),
      active: true,
    })
    const list = await (await owner.get(LIST)).text()
    expect(list).toContain('Ramadan10')
    expect(list).toContain('10\u00a0%')
    expect(list).toMatch(/2,000\.00\u00a0DA/)
    expect(list).toContain('0 of 50')
    expect(list).toContain('Active')
    const nav = await (await owner.get('/dashboard/products')).text()
    expect(nav).toContain('href="/dashboard/promo-codes"')
  })

  for (const lang of ['ar', 'fr', 'en'] as const) {
    it(`names each bad field in ${lang} and stores nothing`, async () => {
      const words = DASH_TABLES[lang]
      const _csrf = await owner.formToken(`${LIST}/new`)
      const res = await owner.request(LIST, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': lang },
        body: new URLSearchParams({
          _csrf,
          ...FORM,
          code: 'a b',
          percent_off: '',
          min_amount: 'beaucoup',
          max_redemptions: '-1',
          expires_at: 'demain',
        }),
      })
      expect(res.status).toBe(400)
      const html = await res.text()
      expect(html).toContain(`lang="${lang}"`)
      expect(errorOf(html, 'code')).toBe(words.pcErrCode)
      expect(errorOf(html, 'percent_off')).toBe(words.errRequired)
      expect(errorOf(html, 'min_amount')).toBe(words.errAmountText)
      expect(errorOf(html, 'max_redemptions')).toBe(words.errWhole)
      expect(errorOf(html, 'expires_at')).toBe(words.errDateTime)
      expect((await api(p, 'GET', '/api/v1/promo-codes')).body.data).toEqual([])
    })
  }

  it('says beside the code that another has it, whatever its case', async () => {
    await create()
    const res = await owner.submit(`${LIST}/new`, LIST, { ...FORM, code: 'RAMADAN10' })
    expect(res.status).toBe(400)
    expect(errorOf(await res.text(), 'code')).toBe(DASH_TABLES.en.pcErrCodeTaken)
  })

  it('saves only what changed, switches the kind of discount, and switches the code off and on', async () => {
    const id = await create()
    const res = await owner.submit(`${LIST}/${id}`, `${LIST}/${id}`, {
      ...FORM,
      kind: 'amount',
      amount_off: '300',
    })
    expect(res.status).toBe(303)
    expect(await getPromoCode(p.deps.db, id)).toMatchObject({ percentOff: null, amountOff: 30_000 })
    const off = await owner.submit(`${LIST}/${id}`, `${LIST}/${id}/deactivate`)
    expect(off.status).toBe(303)
    expect((await getPromoCode(p.deps.db, id))?.active).toBe(false)
    expect(await (await owner.get(`${LIST}/${id}?done=deactivated`)).text()).toContain(
      DASH_TABLES.en.pcDeactivated,
    )
    await owner.submit(`${LIST}/${id}`, `${LIST}/${id}/activate`)
    expect((await getPromoCode(p.deps.db, id))?.active).toBe(true)
    const actions = p.sqlite.sqlite
      .prepare("SELECT detail FROM audit_log WHERE action = 'promo_code_updated'")
      .all() as { detail: string }[]
    expect(JSON.parse(actions[0]!.detail)).toEqual({
      code: 'Ramadan10',
      fields: ['amount_off', 'percent_off'],
    })
    expect((await owner.get(`${LIST}/promo_none`)).status).toBe(404)
  })

  it('keeps a cashier out, as it keeps them out of the links', async () => {
    await p.deps.db.insert(users).values({
      id: 'usr_cashier',
      email: 'cashier@shop.example.dz',
      name: 'Cashier',
      role: 'cashier',
      passwordHash: 'x',
      createdAt: 0,
      updatedAt: 0,
    })
    const key = await createApiKey(p.deps, {
      name: 'Till',
      scope: 'write',
      userId: 'usr_cashier',
      createdBy: 'usr_cashier',
    })
    expect((await api(p, 'GET', '/api/v1/promo-codes', { token: key.text })).status).toBe(403)
  })
})

describe('the customer fee in the settings and the link form', () => {
  it('stores customer_fee_percent in hundredths, shows it back, and refuses one over 10', async () => {
    const page = await (await owner.get('/dashboard/settings')).text()
    expect(page).toContain('name="customer_fee_percent"')
    const form = (fee: string) => ({ customer_fee_percent: fee, till_link_minutes: '30' })
    expect(
      (await owner.submit('/dashboard/settings', '/dashboard/settings', form('2,5'))).status,
    ).toBe(303)
    expect(await getSetting(p.deps.db, CUSTOMER_FEE_PERCENT_KEY)).toBe('250')
    expect(await (await owner.get('/dashboard/settings')).text()).toContain('value="2.5"')
    const bad = await owner.submit('/dashboard/settings', '/dashboard/settings', form('10.5'))
    expect(bad.status).toBe(400)
    expect(errorOf(await bad.text(), 'customerFeePercent')).toBe(DASH_TABLES.en.stErrFeePercent)
    expect(await getSetting(p.deps.db, CUSTOMER_FEE_PERCENT_KEY)).toBe('250')
  })

  it('sets allow_promo_codes and customer_fee from the link form', async () => {
    const res = await owner.submit('/dashboard/links/new', '/dashboard/links', {
      title: 'Atelier',
      pricing: 'fixed',
      amount: '1500',
      language: 'fr',
      active: 'on',
      allow_promo_codes: 'on',
      customer_fee: 'on',
    })
    expect(res.status).toBe(303)
    const link = p.sqlite.sqlite.prepare('SELECT allow_promo_codes, customer_fee FROM links').get()
    expect(link).toEqual({ allow_promo_codes: 1, customer_fee: 1 })
    const id = /links\/(lnk_\w+)/.exec(res.headers.get('location') ?? '')![1]!
    const edit = await (await owner.get(`/dashboard/links/${id}/edit`)).text()
    expect(edit).toMatch(/name="allow_promo_codes" value="on" checked/)
  })
})
