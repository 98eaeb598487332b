/** The one translator every surface uses, and the tables it is given. */
import { describe, expect, it } from 'vitest'
import { dashTranslator } from '../../src/dashboard/messages.js'
import { translator as pageTranslator } from '../../src/i18n/index.js'
import { interpolate, translator } from '../../src/lib/translate.js'
import { fill } from '../../src/simulator/views/i18n.js'

describe('the translator', () => {
  const t = translator({ hello: 'Hello {name}, {count} new', plain: 'Plain {x}' })

  it('fills placeholders from the parameters', () => {
    expect(t('hello', { name: 'Amina', count: 3 })).toBe('Hello Amina, 3 new')
  })

  it('leaves a placeholder without a value as written, and a text without parameters whole', () => {
    expect(t('hello', { name: 'Amina' })).toBe('Hello Amina, {count} new')
    expect(t('plain')).toBe('Plain {x}')
  })

  it('fills only from the parameters themselves, never from what every object inherits', () => {
    expect(interpolate('{constructor} {toString}', {})).toBe('{constructor} {toString}')
  })

  it('is the one the customer pages, the dashboard and the card page use', () => {
    expect(pageTranslator('en')('amountBetween', { min: 'A', max: 'B' })).toBe('Between A and B')
    expect(dashTranslator('fr')('errAtMost', { max: 7 })).toBe('Au plus 7.')
    expect(dashTranslator('fr')('errAtMost', {})).toBe('Au plus {max}.')
    expect(fill).toBe(interpolate)
  })
})
