import { describe, expect, it } from 'vitest'
import {
  type AnswerError,
  answersLine,
  answersOf,
  answerValues,
  definitionProblems,
  normaliseNumber,
  readCustomFieldAnswers,
} from '../../src/domain/custom-fields.js'
import type { CustomField } from '../../src/domain/order.js'

const field = (f: Partial<CustomField> & Pick<CustomField, 'key' | 'type'>): CustomField => ({
  label: f.key,
  options: null,
  required: false,
  ...f,
})

const FIELDS: CustomField[] = [
  field({ key: 'wilaya', type: 'wilaya', required: true }),
  field({ key: 'address', type: 'address' }),
  field({ key: 'size', type: 'select', options: ['S', 'M', 'L'] }),
  field({ key: 'count', type: 'number' }),
  field({ key: 'note', type: 'text' }),
]

function read(form: Record<string, unknown>, fields = FIELDS) {
  const errors: Record<string, AnswerError> = {}
  const values = readCustomFieldAnswers(fields, form, errors)
  return { values, errors }
}

describe('definitionProblems', () => {
  it('takes well-formed definitions', () => {
    expect(definitionProblems(FIELDS)).toEqual([])
  })

  it('names a repeated key, a select without options, options elsewhere, an option twice', () => {
    expect(
      definitionProblems([
        field({ key: 'a', type: 'text' }),
        field({ key: 'a', type: 'number' }),
        field({ key: 'b', type: 'select', options: [] }),
        field({ key: 'c', type: 'wilaya', options: ['x'] }),
        field({ key: 'd', type: 'select', options: ['x', 'y', 'x'] }),
      ]),
    ).toEqual([
      { index: 1, field: 'key', problem: { code: 'duplicate_key' } },
      { index: 2, field: 'options', problem: { code: 'options_required' } },
      { index: 3, field: 'options', problem: { code: 'options_only_for_select' } },
      { index: 4, field: 'options', problem: { code: 'duplicate_option' } },
    ])
  })
})

describe('readCustomFieldAnswers', () => {
  it('stores only the answered keys, as text: a wilaya by its code, a number normalised', () => {
    const r = read({
      cf_wilaya: '16',
      cf_address: ' 12 rue Didouche Mourad\r\nAlger centre ',
      cf_size: 'M',
      cf_count: '1 500,50',
      cf_note: '',
      cf_other: 'ignored',
    })
    expect(r.errors).toEqual({})
    expect(r.values).toEqual({
      wilaya: '16',
      address: '12 rue Didouche Mourad\nAlger centre',
      size: 'M',
      count: '1500.5',
    })
  })

  it('refuses a required field left empty, by its form name', () => {
    expect(read({ cf_wilaya: '  ' }).errors).toEqual({ cf_wilaya: { key: 'errRequired' } })
    expect(read({}).errors).toEqual({ cf_wilaya: { key: 'errRequired' } })
  })

  it('refuses a wrong wilaya, option, number, text, each by its field', () => {
    const r = read({
      cf_wilaya: '59',
      cf_size: 'XL',
      cf_count: '12abc',
      cf_note: 'x'.repeat(201),
      cf_address: 'a\u0000b',
    })
    expect(r.errors).toEqual({
      cf_wilaya: { key: 'errFieldWilaya' },
      cf_size: { key: 'errFieldChoice' },
      cf_count: { key: 'errFieldNumber' },
      cf_note: { key: 'errFieldTooLong', params: { max: '200' } },
      cf_address: { key: 'errText' },
    })
    expect(read({ cf_wilaya: 'Alger' }).errors.cf_wilaya).toEqual({ key: 'errFieldWilaya' })
    expect(read({ cf_wilaya: '00' }).errors.cf_wilaya).toEqual({ key: 'errFieldWilaya' })
    expect(read({ cf_wilaya: ['16'] }).errors.cf_wilaya).toEqual({ key: 'errRequired' })
  })

  it('takes every one of the 58 codes, a one-digit code, and Arabic-Indic digits', () => {
    for (let n = 1; n <= 58; n++) {
      const code = String(n).padStart(2, '0')
      expect(read({ cf_wilaya: code }).values).toEqual({ wilaya: code })
    }
    expect(read({ cf_wilaya: '9' }).values).toEqual({ wilaya: '09' })
    expect(read({ cf_wilaya: '١٦' }).values).toEqual({ wilaya: '16' })
  })

  it('lets line breaks through in an address only', () => {
    expect(read({ cf_wilaya: '16', cf_note: 'a\nb' }).errors).toEqual({
      cf_note: { key: 'errText' },
    })
    expect(read({ cf_wilaya: '16', cf_address: 'x'.repeat(301) }).errors).toEqual({
      cf_address: { key: 'errFieldTooLong', params: { max: '300' } },
    })
  })

  it('asks nothing of a link without fields', () => {
    expect(read({ cf_x: '1' }, [])).toEqual({ values: null, errors: {} })
  })
})

describe('answer helpers', () => {
  it('normalises numbers', () => {
    expect(normaliseNumber('007')).toBe('7')
    expect(normaliseNumber('-0,00')).toBe('0')
    expect(normaliseNumber('+3.50')).toBe('3.5')
    expect(normaliseNumber('-2.25')).toBe('-2.25')
    expect(normaliseNumber('1e3')).toBeNull()
    expect(normaliseNumber('1.2.3')).toBeNull()
    expect(normaliseNumber('')).toBeNull()
  })

  it('reads the cf_ values of a query, cut short', () => {
    expect(
      answerValues({
        cf_wilaya: '16',
        name: 'x',
        cf_bad: ['1'],
        cf_A: 'no',
        cf_long: 'y'.repeat(500),
      }),
    ).toEqual({
      cf_wilaya: '16',
      cf_long: 'y'.repeat(400),
    })
  })

  it('labels answers by the link, keeping a key no longer asked', () => {
    expect(
      answersOf([field({ key: 'wilaya', type: 'wilaya', label: 'Wilaya' })], {
        old: 'x',
        wilaya: '16',
      }),
    ).toEqual([
      { key: 'wilaya', label: 'Wilaya', type: 'wilaya', value: '16' },
      { key: 'old', label: 'old', type: null, value: 'x' },
    ])
  })

  it('writes the answers on one line for the CSV', () => {
    const fields = [
      field({ key: 'wilaya', type: 'wilaya' }),
      field({ key: 'address', type: 'address' }),
    ]
    expect(answersLine({ address: '12 rue X\nAlger', wilaya: '16' }, fields, 'fr')).toBe(
      'wilaya=16 — Alger; address=12 rue X, Alger',
    )
    expect(answersLine({ wilaya: '16' }, null, 'fr')).toBe('wilaya=16')
    expect(answersLine(null, fields, 'fr')).toBe('')
  })
})
