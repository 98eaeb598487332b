import { describe, expect, it } from 'vitest'
import { logTransition } from '../../src/payments/transition-log.js'

/** The lines as the console logger writes them, key order included. */
function written(act: (log: (entry: Record<string, unknown>) => void) => void): string[] {
  const lines: string[] = []
  act((entry) => lines.push(JSON.stringify(entry)))
  return lines
}

describe('logTransition', () => {
  it('writes a usual move as an info line naming the payment and both states', () => {
    expect(written((log) => logTransition(log, { id: 'pay_1' }, 'pending', 'paid'))).toEqual([
      '{"event":"payment_transition","payment_id":"pay_1","from":"pending","to":"paid"}',
    ])
  })

  it('writes a move with a reason as a warning, the reason last', () => {
    const lines = written((log) =>
      logTransition(log, { id: 'pay_2' }, 'initiated', 'error', 'gateway_timeout'),
    )
    expect(lines).toEqual([
      '{"level":"warn","event":"payment_transition","payment_id":"pay_2","from":"initiated","to":"error","reason":"gateway_timeout"}',
    ])
  })
})
