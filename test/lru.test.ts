import { describe, expect, it } from 'vitest'
import { createLru } from '../src/lib/lru.js'

describe('createLru', () => {
  it('drops the least recently used entry, a hit counting as a use', () => {
    const lru = createLru<number>(3)
    lru.set('a', 1)
    lru.set('b', 2)
    lru.set('c', 3)
    expect(lru.get('a')).toBe(1) // a is now the newest: b is the oldest
    expect(lru.get('a')).toBe(1) // a second hit on the newest changes nothing
    lru.set('d', 4)
    expect(lru.get('b')).toBeUndefined()
    expect([lru.get('a'), lru.get('c'), lru.get('d')]).toEqual([1, 3, 4])
  })

  it('keeps the order right when hits alternate and entries are replaced', () => {
    const lru = createLru<string>(2)
    lru.set('x', 'x1')
    lru.set('y', 'y1')
    lru.get('x')
    lru.get('y')
    lru.get('x') // x newest, y oldest
    lru.set('y', 'y2') // replaced: y newest, x oldest
    lru.set('z', 'z1')
    expect(lru.get('x')).toBeUndefined()
    expect([lru.get('y'), lru.get('z')]).toEqual(['y2', 'z1'])
  })
})
