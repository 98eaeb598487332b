/** Background work that runs later: on Node a timer, on Workers a wait handed to waitUntil. */
import { describe, expect, it } from 'vitest'
import { createBackground } from '../src/background.js'
import { silentLogger } from '../src/log.js'
import { manualTime } from './support/manual-time.js'

describe('background work run later', () => {
  it('runs the task when its timer fires, and idle does not wait for a timer not yet due', async () => {
    const time = manualTime(0)
    const background = createBackground(silentLogger, undefined, time.setTimer)
    const ran: number[] = []
    background.later('task', 2_000, async () => {
      ran.push(time.clock())
    })
    await background.idle()
    expect(ran).toEqual([])
    time.advance(1_999)
    await background.idle()
    expect(ran).toEqual([])
    time.advance(1)
    await background.idle()
    expect(ran).toEqual([2_000])
  })

  it('hands the wait to waitUntil, so a Worker stays alive until the task has run', async () => {
    const time = manualTime(0)
    const kept: Promise<unknown>[] = []
    const background = createBackground(silentLogger, (p) => kept.push(p), time.setTimer)
    let ran = false
    background.later('task', 5_000, async () => {
      ran = true
    })
    expect(kept).toHaveLength(1)
    let settled = false
    void kept[0]?.then(() => {
      settled = true
    })
    await Promise.resolve()
    expect(settled).toBe(false)
    time.advance(5_000)
    await kept[0]
    expect(ran).toBe(true)
  })

  it('drops the timers not yet due on stop, and those asked for after it, on Node and on Workers alike', async () => {
    for (const waitUntil of [undefined, (_p: Promise<unknown>) => {}]) {
      const time = manualTime(0)
      const background = createBackground(silentLogger, waitUntil, time.setTimer)
      let ran = false
      background.later('task', 1_000, async () => {
        ran = true
      })
      expect(time.pending()).toBe(1)
      background.stop()
      expect(time.pending()).toBe(0)
      // A task still running at the stop may ask for another: it is dropped too.
      background.later('task', 1_000, async () => {
        ran = true
      })
      expect(time.pending()).toBe(0)
      time.advance(10_000)
      await background.idle()
      expect(ran).toBe(false)
    }
  })
})
