/** Deposits in the dashboard: the link form's least part, the link's page and a part's page. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { getLinkById } from '../../src/data/links.js'
import { startPayment } from '../flows/support.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { type Browser, signedIn } from './helpers.js'

let p: Paylinks
let browser: Browser
beforeEach(async () => {
  p = await startPaylinks()
  browser = await signedIn(p)
})
afterEach(() => p.close())

async function create(form: Record<string, string>) {
  const response = await browser.submit('/dashboard/links/new?lang=en', '/dashboard/links', {
    language: 'fr',
    active: 'on',
    title: 'Voyage scolaire',
    pricing: 'fixed',
    ...form,
  })
  const id = /\/dashboard\/links\/(lnk_\w+)\?done=created$/.exec(
    response.headers.get('location') ?? '',
  )?.[1]
  return { response, id }
}

const fieldError = (html: string, field: string) =>
  new RegExp(`<p class="err" id="${field}-err">([^<]*)</p>`).exec(html)?.[1]

describe('the link form’s least part', () => {
  it('makes a deposit link from a fixed amount and shows it again on the edit page', async () => {
    const { response, id } = await create({ amount: '3 000', partial_min_amount: '1 000,50' })
    expect(response.status).toBe(303)
    expect(await getLinkById(p.deps.db, id!)).toMatchObject({
      amount: 300000,
      partialMinAmount: 100050,
      maxPayments: null,
    })
    const edit = await (await browser.get(`/dashboard/links/${id}/edit?lang=en`)).text()
    expect(edit).toMatch(/name="partial_min_amount" value="1000.50"/)
  })

  it('names the field when the rules refuse it, in the page’s language', async () => {
    const open = await create({ pricing: 'open', amount_min: '100', partial_min_amount: '100' })
    expect(open.response.status).toBe(400)
    expect(fieldError(await open.response.text(), 'partial_min_amount')).toBe(
      'Deposits need a fixed amount or invoice items.',
    )
    const high = await create({ amount: '3000', partial_min_amount: '3000' })
    expect(fieldError(await high.response.text(), 'partial_min_amount')).toBe(
      'The least part must be less than the amount.',
    )
    const limit = await create({ amount: '3000', partial_min_amount: '1000', max_payments: '2' })
    expect(fieldError(await limit.response.text(), 'max_payments')).toMatch(/no maximum number/)
  })
})

describe('a deposit link’s pages', () => {
  it('shows the total, paid so far and the balance; a part’s page says what remains', async () => {
    const { id } = await create({ amount: '3000', partial_min_amount: '1000' })
    const link = (await getLinkById(p.deps.db, id!))!
    const part = await startPayment(p, link.slug, { amount: '1200' })
    await p.simulator.completePayment(part.tx.cibTransactionId, 'approved')
    await p.settle()
    const page = await (await browser.get(`/dashboard/links/${id}?lang=en`)).text()
    expect(page).toMatch(/data-deposit="detailAmountDue">3,000\.00\sDA/)
    expect(page).toMatch(/data-deposit="detailPaidSoFar">1,200\.00\sDA/)
    expect(page).toMatch(/data-deposit="detailBalance">1,800\.00\sDA/)
    const payment = await (
      await browser.get(`/dashboard/payments/${part.payment.id}?lang=en`)
    ).text()
    expect(payment).toMatch(/Deposit — remains 1,800\.00\sDA/)
  })
})
