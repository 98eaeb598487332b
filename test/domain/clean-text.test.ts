import { describe, expect, it } from 'vitest'
import { parseCreateLink } from '../../src/api/links/input.js'
import { CLEAN_TEXT_RULE, isCleanText } from '../../src/domain/clean-text.js'
import { inApiWords } from '../support/api-words.js'

const NOW = Date.UTC(2026, 0, 15, 10, 0, 0)
const create = (body: unknown) =>
  inApiWords(parseCreateLink(body, { now: NOW, defaultLanguage: 'fr' }))

/** What invalid UTF-8, a lone surrogate and control characters look like once decoded. */
const NOT_TEXT = {
  'U+FFFD (what invalid UTF-8 decodes to)': 'caf\ufffd',
  'a lone high surrogate': 'a\ud800b',
  'a lone low surrogate': '\udc00',
  NUL: 'a\u0000b',
  'a C0 control (ESC)': 'a\u001b[31m',
  DEL: 'a\u007f',
  'a C1 control (NEL)': 'a\u0085b',
  'a noncharacter': 'a\uffff',
}

describe('isCleanText', () => {
  it('accepts text in every script, emoji (a surrogate pair) and bidi marks', () => {
    for (const text of ['Amina Benali', 'أمينة بن علي', 'Élodie Ünal', '🙂 merci', '\u202eabc', ''])
      expect(isCleanText(text), text).toBe(true)
  })

  it.each(Object.entries(NOT_TEXT))('refuses %s, on one line or several', (_, text) => {
    expect(isCleanText(text)).toBe(false)
    expect(isCleanText(text, { multiline: true })).toBe(false)
  })

  it('lets tab and line breaks through only where a field takes several lines', () => {
    for (const text of ['a\tb', 'a\nb', 'a\r\nb']) {
      expect(isCleanText(text)).toBe(false)
      expect(isCleanText(text, { multiline: true })).toBe(true)
    }
  })
})

describe('the link body refuses text that is not text', () => {
  const valid = { title: 'Cours', amount: 1500 }
  const fields = [
    'title',
    'description',
    'invoice_id',
    'memo',
    'success_message',
    'inactive_message',
  ]

  it.each(fields)('in %s, naming the field', (field) => {
    for (const text of Object.values(NOT_TEXT)) {
      const r = create({ ...valid, [field]: `x${text}` })
      expect(r.ok, `${field}: ${JSON.stringify(text)}`).toBe(false)
      if (!r.ok) expect(r.errors[field]).toBe(`${field} ${CLEAN_TEXT_RULE}`)
    }
  })

  it('in an invoice item description and in success_url', () => {
    const items = create({
      title: 'Facture',
      invoice_items: [{ description: 'Café\u0000', quantity: 1, unit_price: 100 }],
    })
    expect(items.ok || items.errors).toEqual({
      'invoice_items[0].description': `invoice_items[0].description ${CLEAN_TEXT_RULE}`,
    })
    const url = create({ ...valid, success_url: 'https://example.dz/\ud800' })
    expect(url.ok || url.errors.success_url).toBe(`success_url ${CLEAN_TEXT_RULE}`)
  })

  it('but keeps line breaks and tabs in the multi-line fields, and surrounding spaces trimmed', () => {
    const r = create({
      title: '  Cours\n',
      amount: 1500,
      description: 'Ligne 1\r\nLigne 2\tfin',
      success_message: 'Merci\n',
      inactive_message: 'Fermé\npour travaux',
    })
    expect(r.ok).toBe(true)
    if (r.ok) {
      expect(r.value.title).toBe('Cours')
      expect(r.value.description).toBe('Ligne 1\r\nLigne 2\tfin')
    }
  })

  it('and refuses a line break inside a one-line field', () => {
    const r = create({ ...valid, title: 'Cours\nde piano', memo: 'a\tb' })
    expect(r.ok || r.errors).toEqual({
      title: `title ${CLEAN_TEXT_RULE}`,
      memo: `memo ${CLEAN_TEXT_RULE}`,
    })
  })
})
