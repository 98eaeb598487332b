import { describe, expect, it } from 'vitest'
import { newReceiptId } from '../../src/domain/ids.js'
import { gatewayReturnUrl, receiptIdInMessage } from '../../src/domain/return-url.js'
import { buildMessage } from '../../src/simulator/card/callback.js'

describe('the return URL given to the gateway', () => {
  it('is the receipt page naming the receipt in its query', () => {
    expect(gatewayReturnUrl('https://pay.example.dz/', 'Xa81LmQ4Zt7Rk2Pw9Bn3Cd')).toBe(
      'https://pay.example.dz/r/Xa81LmQ4Zt7Rk2Pw9Bn3Cd?r=Xa81LmQ4Zt7Rk2Pw9Bn3Cd',
    )
  })

  it('makes the signed message, as the gateway builds it, start with the receipt id', () => {
    const receiptId = newReceiptId()
    const url = gatewayReturnUrl('https://pay.example.dz', receiptId)
    for (const status of ['success', 'failed']) {
      const message = buildMessage('inferred', url, status, 150_000)
      expect(message).toBe(`${receiptId}${status}1500`)
      expect(receiptIdInMessage(message)).toBe(receiptId)
    }
  })

  it('finds no receipt in the message of a return URL without one', () => {
    expect(receiptIdInMessage('success1500')).toBeNull()
    expect(
      receiptIdInMessage(buildMessage('inferred', 'https://x/r/a', 'failed', 99_999_999)),
    ).toBe(null)
    expect(receiptIdInMessage('')).toBeNull()
  })
})
