/** The pure parts of the dashboard: form ↔ API body, Algiers wall-clock time, error wording. */
import { describe, expect, it } from 'vitest'
import {
  formToBody,
  type LinkForm,
  newLinkForm,
  readAmountText,
  readItems,
  readLinkForm,
} from '../../src/dashboard/link-form.js'
import { placeProblems, translateProblems } from '../../src/dashboard/link-form-routes.js'
import { dashTranslator } from '../../src/dashboard/messages.js'
import {
  algiersDayStart,
  algiersNextDayStart,
  parseAlgiersDateTime,
  toAlgiersDateTimeInput,
  toAlgiersIso,
} from '../../src/domain/algiers-time.js'

const form = (overrides: Partial<LinkForm>): LinkForm => ({
  ...newLinkForm('fr'),
  title: 'T',
  amount: '1500',
  ...overrides,
})

describe('amount text', () => {
  it('reads amounts as typed in any of the three languages, never through floating point', () => {
    expect(readAmountText('1500')).toBe(150000)
    expect(readAmountText('1 500,5')).toBe(150050)
    expect(readAmountText('1\u202f500,05')).toBe(150005)
    expect(readAmountText('0.1')).toBe(10)
    expect(readAmountText('1299.99')).toBe(129999)
    expect(readAmountText('12.345')).toBeNull()
    expect(readAmountText('1,500.00')).toBeNull()
    expect(readAmountText('-5')).toBeNull()
    expect(readAmountText('')).toBeNull()
  })
})

describe('item lines', () => {
  it('reads description | quantity | unit price, skipping blank lines', () => {
    expect(readItems('A | 2 | 10\n\n  \nB|c | 1 | 0,5')).toEqual({
      items: [
        { description: 'A', quantity: 2, unit_price: 10 },
        { description: 'B|c', quantity: 1, unit_price: 0.5 },
      ],
      lines: [1, 4],
    })
  })

  it('names the first line it cannot read', () => {
    expect(readItems('A | 2 | 10\n | 1 | 5').problem).toEqual({
      key: 'errItemLine',
      params: { line: 2 },
    })
    expect(readItems('A | 1.5 | 10').problem?.params).toEqual({ line: 1 })
  })
})

describe('form to body', () => {
  it('leaves empty fields out of a create body and sends amounts as DZD numbers', () => {
    const { body, problems } = formToBody(form({ amount: '1299,50', memo: ' ' }))
    expect(problems).toEqual({})
    expect(body).toEqual({ title: 'T', amount: 1299.5, language: 'fr', active: true })
  })

  it('turns an Algiers datetime-local into an ISO instant', () => {
    const { body } = formToBody(form({ expires_at: '2026-03-01T00:30' }))
    expect(body.expires_at).toBe('2026-02-28T23:30:00.000Z')
  })

  it('sends only what changed on edit, with the whole pricing group when the price changed', () => {
    const before = form({ description: 'D', max_payments: '5' })
    expect(formToBody({ ...before }, before).body).toEqual({})
    expect(formToBody({ ...before, description: '' }, before).body).toEqual({ description: null })
    expect(formToBody({ ...before, amount: '1500.00' }, before).body).toEqual({})
    expect(formToBody({ ...before, pricing: 'open', amount_min: '60' }, before).body).toEqual({
      amount: null,
      invoice_id: null,
      amount_min: 60,
      amount_max: null,
      invoice_items: null,
      line_items: null,
    })
    // A cleared title is sent as empty so the rules can say it is required.
    expect(formToBody({ ...before, title: '' }, before).body).toEqual({ title: '' })
  })

  it('reports text that is not a number instead of sending it', () => {
    const { body, problems } = formToBody(
      form({ amount: 'abc', max_payments: '1.5', expires_at: 'soon', language: 'de' }),
    )
    expect(problems).toEqual({
      amount: { key: 'errAmountText' },
      max_payments: { key: 'errWhole' },
      expires_at: { key: 'errDateTime' },
      language: { key: 'errLanguage' },
    })
    expect(body).not.toHaveProperty('amount')
    expect(body).not.toHaveProperty('max_payments')
  })

  it('reads a posted form defensively', () => {
    expect(readLinkForm({ pricing: 'bogus', title: ['x'], active: 'on' })).toMatchObject({
      pricing: 'fixed',
      title: '',
      active: true,
    })
    expect(readLinkForm({}).active).toBe(false)
  })
})

describe('service problems on the form', () => {
  it('places each problem beside its field, in the page language', () => {
    const problems = placeProblems(
      {
        amount_min: { code: 'amount_too_low', params: { min: 5000 } },
        'invoice_items[1].quantity': { code: 'too_big', params: { max: 100000 } },
        title: { code: 'too_long', params: { max: 200 } },
        invoice_id: { code: 'invoice_id_with_items' },
      },
      [2, 5],
    )
    expect(translateProblems(problems, dashTranslator('fr'))).toEqual({
      amount_min: '50 DA au moins.',
      items: 'Ligne 5 : Au plus 100000.',
      title: '200 caractères au plus.',
      invoice_id: 'Choisissez un seul type de prix.',
    })
  })

  it('keeps the first problem of the items box when several items have one', () => {
    const problems = placeProblems(
      {
        'invoice_items[0].description': { code: 'not_clean_text' },
        'invoice_items[1].quantity': { code: 'not_whole' },
      },
      [3, 4],
    )
    expect(translateProblems(problems, dashTranslator('en'))).toEqual({
      items:
        'Line 3: Remove the invisible control characters or invalid characters from this field.',
    })
  })
})

describe('Algiers time', () => {
  it('reads wall-clock times as UTC+1 and rejects dates that do not exist', () => {
    expect(parseAlgiersDateTime('2026-06-30T23:59')).toBe(Date.UTC(2026, 5, 30, 22, 59))
    expect(parseAlgiersDateTime('2026-01-01 00:00:30')).toBe(Date.UTC(2025, 11, 31, 23, 0, 30))
    expect(parseAlgiersDateTime('2026-02-29T10:00')).toBeNull()
    expect(parseAlgiersDateTime('2026-01-01T24:00')).toBeNull()
    expect(parseAlgiersDateTime('tomorrow')).toBeNull()
  })

  it('bounds whole days for the filters', () => {
    expect(algiersDayStart('2026-01-15')).toBe(Date.UTC(2026, 0, 14, 23))
    expect(algiersNextDayStart('2026-12-31')).toBe(Date.UTC(2026, 11, 31, 23))
    expect(algiersNextDayStart('2026-02-30')).toBeNull()
  })

  it('writes instants back as form values and ISO with the offset', () => {
    const at = Date.UTC(2026, 5, 30, 22, 59, 42)
    expect(toAlgiersDateTimeInput(at)).toBe('2026-06-30T23:59')
    expect(toAlgiersIso(at)).toBe('2026-06-30T23:59:42+01:00')
  })
})
