/**
 * The till on Workers (workerd through miniflare, local D1, the built-in simulator): there is no
 * event stream across isolates, so the page polls the sale's JSON status, which must answer the
 * sale's state as the check endpoint settled it.
 */
import { describe, expect, it } from 'vitest'
import { TILL_SCRIPT } from '../../views/dashboard/till-script.js'
import { formAction, inputValue, postForm, useWorker, WORKER_ADMIN_TOKEN } from './support.js'

const worker = useWorker()
let cookie = ''

const signedIn = (init: RequestInit = {}) => ({
  ...init,
  redirect: 'manual' as const,
  headers: { ...(init.headers as Record<string, string>), cookie },
})

async function login() {
  const page = await fetch(`${worker().url}/dashboard/login`)
  const jar = page.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
  const res = await postForm(
    `${worker().url}/dashboard/login`,
    { token: WORKER_ADMIN_TOKEN, _csrf: inputValue(await page.text(), '_csrf') },
    { cookie: jar },
  )
  expect(res.status).toBe(303)
  cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
}

async function status(id: string) {
  const res = await fetch(`${worker().url}/dashboard/till/sales/${id}/status`, signedIn())
  expect(res.status).toBe(200)
  return (await res.json()) as { state: string; amount: number; url: string; approvalCode: string }
}

describe('the till on Workers', () => {
  it('charges, polls the sale’s status, and sees it paid once the check confirms it', async () => {
    await login()
    const till = await fetch(`${worker().url}/dashboard/till`, signedIn())
    expect(till.status).toBe(200)
    const html = await till.text()
    // No stream across isolates: the page polls.
    expect(html).toContain('data-live="poll"')
    // Its script, from the static assets, under the page's nonce.
    expect(html).toMatch(/<script nonce="[^"]+">/)
    expect(html).toContain(TILL_SCRIPT)
    const charged = await postForm(
      `${worker().url}/dashboard/till/sales`,
      { amount: '1250.50', note: '', _csrf: inputValue(html, '_csrf') },
      { cookie },
    )
    expect(charged.status).toBe(303)
    const id = new URL(charged.headers.get('location')!, worker().url).searchParams.get('sale')!
    const waiting = await status(id)
    expect(waiting).toMatchObject({ state: 'waiting', amount: 125050 })
    const stream = await fetch(`${worker().url}/dashboard/till/sales/${id}/events`, signedIn())
    expect(stream.status).toBe(404)

    // The customer pays the link's checkout on the simulator's card page.
    const checkout = await (await fetch(waiting.url)).text()
    const submitted = await postForm(
      waiting.url,
      {
        name: 'Amina Benali',
        phone: '0555123456',
        email: 'amina@example.dz',
        terms: 'on',
        csrf: inputValue(checkout, 'csrf'),
      },
      { 'cf-connecting-ip': '198.51.100.200' },
    )
    expect(submitted.status).toBe(303)
    const cardPage = submitted.headers.get('location')!
    expect((await status(id)).state).toBe('paying')
    const form = await (await fetch(cardPage)).text()
    const afterCard = await postForm(new URL(formAction(form, '/card'), worker().url).href, {
      pan: '6280580000000009',
      expiry: '12/30',
      cvv: '123',
    })
    const otpPage = await (
      await fetch(new URL(afterCard.headers.get('location')!, worker().url))
    ).text()
    await postForm(new URL(formAction(otpPage, '/otp'), worker().url).href, { otp: '123456' })
    // The webhook's confirmation settles it (the customer has not even come back).
    await expect.poll(async () => (await status(id)).state, { timeout: 10_000 }).toBe('paid')
    expect((await status(id)).approvalCode).toMatch(/^\d{6}$/)
    // The payment carries its till link's source, and D1 lists the till's sales by it.
    const listed = await fetch(`${worker().url}/api/v1/payments?source=till`, {
      headers: { 'x-api-key': WORKER_ADMIN_TOKEN },
    })
    expect(listed.status).toBe(200)
    const sales = (await listed.json()) as {
      data: { link_id: string; source: string; status: string }[]
    }
    expect(sales.data.map((p) => [p.link_id, p.source, p.status])).toContainEqual([
      id,
      'till',
      'paid',
    ])
    expect(sales.data.every((p) => p.source === 'till')).toBe(true)
  })

  it('answers 404 for a sale that is not the till’s', async () => {
    const res = await fetch(`${worker().url}/dashboard/till/sales/lnk_nothing/status`, signedIn())
    expect(res.status).toBe(404)
  })
})
