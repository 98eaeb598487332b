import { describe, expect, it } from 'vitest'
import type { Link, Payment } from '../../db/schema.js'
import { summariseSales } from '../../src/dashboard/till-report.js'
import type { Sale } from '../../src/data/till.js'
import {
  isFinalSale,
  parsePresetLines,
  parseTillAmount,
  readPresets,
  saleState,
  tillLinkMinutes,
} from '../../src/domain/till-sale.js'
import { createPaymentChanges } from '../../src/payments/changes.js'

describe('parseTillAmount', () => {
  it.each([
    ['1250.50', 125050],
    ['1,250.50', 125050],
    ['1 250,50', 125050],
    ['1250,5', 125050],
    ['١٢٥٠٫٥٠', 125050],
    ['۱۲۵۰.۵۰', 125050],
    ['١٬٢٥٠٫٥٠', 125050],
    ['1,250.50\u00a0DA', 125050],
    ['50', 5000],
  ])('reads %s as %i centimes', (text, centimes) => {
    expect(parseTillAmount(text)).toEqual({ ok: true, centimes })
  })

  it.each([
    ['', 'amount_required'],
    ['  ', 'amount_required'],
    ['49.99', 'amount_too_low'],
    ['100000000.01', 'amount_too_high'],
    ['12a', 'bad_dzd'],
    ['1.234', 'bad_dzd'],
    ['-5', 'bad_dzd'],
    ['1,2,3', 'bad_dzd'],
  ])('refuses %j with %s', (text, code) => {
    expect(parseTillAmount(text)).toEqual({ ok: false, code })
  })
})

describe('tillLinkMinutes', () => {
  it('defaults to 10 and keeps the setting within 2 to 60', () => {
    expect(tillLinkMinutes(null)).toBe(10)
    expect(tillLinkMinutes('x')).toBe(10)
    expect(tillLinkMinutes('5')).toBe(5)
    expect(tillLinkMinutes('0')).toBe(2)
    expect(tillLinkMinutes('61')).toBe(60)
  })
})

const NOW = 1_800_000_000_000
const link = (o: Partial<Link & { paidCount: number; paidTotal: number }> = {}) =>
  ({
    active: true,
    expiresAt: NOW + 60_000,
    paidCount: 0,
    paidTotal: 0,
    amount: 10_000,
    createdBy: 'a@x.dz',
    ...o,
  }) as Sale['link']
const payment = (status: Payment['status'], o: Partial<Payment> = {}) =>
  ({ status, failureCode: null, amount: 10_000, ...o }) as Payment

describe('saleState', () => {
  it('reads each state from the link and its payment', () => {
    expect(saleState(link(), null, NOW)).toBe('waiting')
    expect(saleState(link(), payment('pending'), NOW)).toBe('paying')
    expect(saleState(link({ expiresAt: NOW - 1 }), payment('pending'), NOW)).toBe('paying')
    expect(saleState(link({ paidCount: 1 }), payment('paid'), NOW)).toBe('paid')
    expect(saleState(link({ active: false }), payment('paid'), NOW)).toBe('paid')
    expect(saleState(link(), payment('failed'), NOW)).toBe('declined')
    expect(saleState(link({ active: false }), payment('failed'), NOW)).toBe('canceled')
    expect(saleState(link({ active: false }), null, NOW)).toBe('canceled')
    expect(saleState(link({ expiresAt: NOW }), null, NOW)).toBe('expired')
    expect(isFinalSale('paid') && isFinalSale('canceled') && isFinalSale('expired')).toBe(true)
    expect(isFinalSale('declined') || isFinalSale('waiting') || isFinalSale('paying')).toBe(false)
  })
})

describe('summariseSales', () => {
  it('counts and sums per outcome and per cashier', () => {
    const sales: Sale[] = [
      {
        link: link({ paidCount: 1, paidTotal: 125_050, amount: 125_050 }),
        payment: payment('paid', { amount: 125_050 }),
      },
      { link: link({ createdBy: 'b@x.dz', amount: 30_000 }), payment: payment('failed') },
      { link: link({ active: false, amount: 8_000 }), payment: null },
      { link: link({ createdBy: 'b@x.dz', amount: 9_000 }), payment: null },
      // Declined, then canceled by the cashier: still a decline in the report.
      { link: link({ active: false, amount: 1_000 }), payment: payment('failed') },
    ]
    const s = summariseSales(sales, NOW)
    expect(s.total).toEqual({ count: 5, sum: 173_050 })
    expect(s.byOutcome.paid).toEqual({ count: 1, sum: 125_050 })
    expect(s.byOutcome.declined).toEqual({ count: 2, sum: 31_000 })
    expect(s.byOutcome.canceled).toEqual({ count: 1, sum: 8_000 })
    expect(s.byOutcome.open).toEqual({ count: 1, sum: 9_000 })
    expect(s.byCashier.map((r) => [r.cashier, r.total.count, r.paid.sum])).toEqual([
      ['a@x.dz', 3, 125_050],
      ['b@x.dz', 2, 0],
    ])
  })
})

describe('createPaymentChanges', () => {
  it('tells the watchers of a link only, until they stop', () => {
    const changes = createPaymentChanges()
    const seen: string[] = []
    const stop = changes.watch('lnk_a', () => seen.push('a'))
    changes.watch('lnk_b', () => seen.push('b'))
    changes.watch('lnk_a', () => {
      throw new Error('a watcher that fails')
    })
    changes.emit('lnk_a')
    stop()
    changes.emit('lnk_a')
    changes.emit('lnk_b')
    expect(seen).toEqual(['a', 'b'])
  })
})

describe('parsePresetLines', () => {
  it('reads one item a line, name then price, skipping blank lines', () => {
    expect(parsePresetLines('Café; 150\n\n  Croissant ; ٨٠٫٥٠ \r\nThé; 1,200.00')).toEqual({
      ok: true,
      presets: [
        { name: 'Café', price: 15000 },
        { name: 'Croissant', price: 8050 },
        { name: 'Thé', price: 120000 },
      ],
    })
  })

  it('names the first line that is not an item', () => {
    expect(parsePresetLines('قهوة؛ ١٥٠')).toEqual({
      ok: true,
      presets: [{ name: 'قهوة', price: 15000 }],
    })
    expect(parsePresetLines('Café; 150\nThé 120')).toEqual({ ok: false, line: 2 })
    expect(parsePresetLines('; 150')).toEqual({ ok: false, line: 1 })
    expect(parsePresetLines('Café; 10')).toEqual({ ok: false, line: 1 })
    expect(parsePresetLines(`${'x'.repeat(41)}; 100`)).toEqual({ ok: false, line: 1 })
    expect(parsePresetLines('Ca\u0007fé; 100')).toEqual({ ok: false, line: 1 })
    expect(parsePresetLines(Array.from({ length: 25 }, (_, i) => `P${i}; 100`).join('\n'))).toEqual(
      {
        ok: false,
        line: 25,
      },
    )
  })

  it('reads stored presets leniently: anything unreadable is none', () => {
    expect(readPresets(null)).toEqual([])
    expect(readPresets('not json')).toEqual([])
    expect(readPresets('{"a":1}')).toEqual([])
    expect(
      readPresets('[{"name":"Café","price":15000},{"name":"x","price":-1},{"price":5}]'),
    ).toEqual([{ name: 'Café', price: 15000 }])
  })
})
