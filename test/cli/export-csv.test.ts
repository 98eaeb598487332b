/** `paylinks payments export`: its CSV lines are as safe in a spreadsheet as the dashboard's. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { toPaymentObject } from '../../src/api/payments/objects.js'
import { exportRow } from '../../src/runtime/node/cli/payments.js'
import { storePayment } from '../dashboard/helpers.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { storeLink } from '../support/links.js'

let p: Paylinks
beforeEach(async () => {
  p = await startPaylinks()
})
afterEach(() => p.close())

describe('the CLI export', () => {
  it('leaves no field starting a formula when a line is split on , ; or tab', async () => {
    const link = await storeLink(p, { title: 'Café', amount: 150050 })
    for (const text of [';=1+1', ',=1+1', '\t=1', '-2+3', '@SUM(A1)', '=HYPERLINK("x","y")']) {
      const payment = await storePayment(p, link, { name: text, ref: text })
      const line = exportRow(toPaymentObject(payment, { publicUrl: 'https://pay.example.dz' }))
      // The amount stays a number a spreadsheet adds up.
      expect(line.split(',')).toContain('1500.50')
      for (const separator of [',', ';', '\t']) {
        const formulas = line.split(separator).filter((f) => /^[ "]*[=+\-@\t\r]/.test(f))
        expect(formulas, `${JSON.stringify(text)} split on ${JSON.stringify(separator)}`).toEqual(
          [],
        )
      }
    }
  })
})
