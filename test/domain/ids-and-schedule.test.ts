import { describe, expect, it } from 'vitest'
import {
  DEFAULT_SESSION_MS,
  MIN_RETRY_AFTER_MS,
  nextCheckAt,
  retryAfterMs,
} from '../../src/domain/check-schedule.js'
import {
  isReceiptIdShaped,
  isSlugShaped,
  newLinkId,
  newPaymentId,
  newReceiptId,
  newSlug,
  newWebhookEventId,
} from '../../src/domain/ids.js'

describe('ids', () => {
  it('have their prefixes and lengths, in base62', () => {
    expect(newLinkId()).toMatch(/^lnk_[0-9A-Za-z]{16}$/)
    expect(newPaymentId()).toMatch(/^pay_[0-9A-Za-z]{16}$/)
    expect(newSlug()).toMatch(/^[0-9A-Za-z]{12}$/)
    expect(newReceiptId()).toMatch(/^[0-9A-Za-z]{22}$/)
  })

  it('give webhook events ids that sort by time and do not repeat', () => {
    const t = Date.UTC(2026, 10, 22, 5, 0, 0)
    expect(newWebhookEventId(t)).toMatch(/^evt_[0-9A-Za-z]{16}$/)
    const times = [0, 61, 62, 3843, t - 1, t, t + 1, t + 60_000, 62 ** 8 - 1]
    const ids = times.map((time) => newWebhookEventId(time))
    expect([...ids].sort()).toEqual(ids)
    const same = Array.from({ length: 2000 }, () => newWebhookEventId(t))
    expect(new Set(same).size).toBe(2000)
    expect(same.every((id) => id.slice(0, 12) === ids[5]?.slice(0, 12))).toBe(true)
  })

  it('do not repeat', () => {
    const slugs = new Set(Array.from({ length: 2000 }, newSlug))
    expect(slugs.size).toBe(2000)
  })

  it('tell a plausible slug or receipt id from anything else', () => {
    expect(isSlugShaped(newSlug())).toBe(true)
    expect(isSlugShaped('short')).toBe(false)
    expect(isSlugShaped('../../etc/passwd')).toBe(false)
    expect(isReceiptIdShaped(newReceiptId())).toBe(true)
    expect(isReceiptIdShaped(newSlug())).toBe(false)
  })
})

describe('check schedule', () => {
  it('checks first after a minute, then backs off to hourly', () => {
    const gaps = [0, 1, 2, 3, 4, 5, 6, 50].map((n) => nextCheckAt(n, 0) / 60_000)
    expect(gaps).toEqual([1, 2, 5, 10, 20, 30, 60, 60])
  })

  it('asks a customer to wait until the oldest pending session ends', () => {
    expect(retryAfterMs(1000, 1000 + 5 * 60_000)).toBe(DEFAULT_SESSION_MS - 5 * 60_000)
    expect(retryAfterMs(0, 60_000, 10 * 60_000)).toBe(9 * 60_000)
  })

  it('never asks for less than the minimum wait', () => {
    expect(retryAfterMs(0, DEFAULT_SESSION_MS - 1)).toBe(MIN_RETRY_AFTER_MS)
    expect(retryAfterMs(0, DEFAULT_SESSION_MS * 3)).toBe(MIN_RETRY_AFTER_MS)
  })
})
