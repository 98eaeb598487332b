import { describe, expect, it } from 'vitest'
import { WILAYAS, wilayaByCode, wilayaLabel, wilayaName } from '../../src/domain/wilayas.js'

describe('the 58 wilayas', () => {
  it('are numbered 01 to 58, each code once, in order', () => {
    expect(WILAYAS).toHaveLength(58)
    expect(WILAYAS.map((w) => w.code)).toEqual(
      Array.from({ length: 58 }, (_, i) => String(i + 1).padStart(2, '0')),
    )
    expect(new Set(WILAYAS.map((w) => w.code)).size).toBe(58)
  })

  it('each have an Arabic and a French name, all different', () => {
    for (const w of WILAYAS) {
      expect(w.ar).toMatch(/^[\u0600-\u06ff ]+$/)
      expect(w.fr).toMatch(/^[A-Za-zÀ-ÿ' -]+$/)
    }
    expect(new Set(WILAYAS.map((w) => w.ar)).size).toBe(58)
    expect(new Set(WILAYAS.map((w) => w.fr)).size).toBe(58)
  })

  it('hold the 1984 list and the ten of 2019 by their official codes', () => {
    const fr = Object.fromEntries(WILAYAS.map((w) => [w.code, w.fr]))
    const ar = Object.fromEntries(WILAYAS.map((w) => [w.code, w.ar]))
    expect([fr['01'], ar['01']]).toEqual(['Adrar', 'أدرار'])
    expect([fr['16'], ar['16']]).toEqual(['Alger', 'الجزائر'])
    expect([fr['31'], ar['31']]).toEqual(['Oran', 'وهران'])
    expect([fr['48'], ar['48']]).toEqual(['Relizane', 'غليزان'])
    expect(WILAYAS.slice(48).map((w) => w.fr)).toEqual([
      'Timimoun',
      'Bordj Badji Mokhtar',
      'Ouled Djellal',
      'Béni Abbès',
      'In Salah',
      'In Guezzam',
      'Touggourt',
      'Djanet',
      "El M'Ghair",
      'El Meniaa',
    ])
    expect(WILAYAS.slice(48).map((w) => w.ar)).toEqual([
      'تيميمون',
      'برج باجي مختار',
      'أولاد جلال',
      'بني عباس',
      'عين صالح',
      'عين قزام',
      'تقرت',
      'جانت',
      'المغير',
      'المنيعة',
    ])
  })

  it('are named in the page’s language (English pages use the French names)', () => {
    const alger = wilayaByCode('16')!
    expect(wilayaName(alger, 'ar')).toBe('الجزائر')
    expect(wilayaName(alger, 'fr')).toBe('Alger')
    expect(wilayaName(alger, 'en')).toBe('Alger')
    expect(wilayaLabel('16', 'fr')).toBe('16 — Alger')
    expect(wilayaLabel('16', 'ar')).toBe('16 — الجزائر')
    expect(wilayaLabel('58', 'en')).toBe('58 — El Meniaa')
    expect(wilayaLabel('99', 'fr')).toBe('99')
    expect(wilayaByCode('59')).toBeUndefined()
  })
})
