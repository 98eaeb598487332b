/**
 * The bounded reader on its own: a body framed by its length is read by the runtime's reader
 * without `request.body` being touched (on Node that getter builds a Web stream over the socket,
 * which made each webhook delivery cost 2.3 times the server's CPU), and held to its limit.
 */
import { describe, expect, it } from 'vitest'
import { framedLength, readBoundedText } from '../../src/lib/bounded-body.js'

/** A request whose `body` getter is counted, as @hono/node-server's light request would pay for it. */
function watched(body: string, headers: Record<string, string>) {
  const request = new Request('http://paylinks.test/webhooks/gateway', {
    method: 'POST',
    body,
    headers,
  })
  const seen = { body: 0 }
  const proxy = new Proxy(request, {
    get(target, key) {
      if (key === 'body') seen.body += 1
      const value = Reflect.get(target, key, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return { request: proxy, seen }
}

describe('readBoundedText', () => {
  it('reads a body framed by its length without touching request.body', async () => {
    const text = '{"event":"cib.payment.updated"}'
    const { request, seen } = watched(text, { 'content-length': String(text.length) })
    expect(await readBoundedText(request, 64)).toBe(text)
    expect(seen.body).toBe(0)
  })

  it('refuses a declared length over the limit without reading it', async () => {
    const { request, seen } = watched('x'.repeat(100), { 'content-length': '100' })
    expect(await readBoundedText(request, 64)).toBeNull()
    expect(seen.body).toBe(0)
    expect(request.bodyUsed).toBe(false)
  })

  it('reads a body without a length from its stream, up to the limit', async () => {
    const small = watched('{"a":1}', {})
    expect(await readBoundedText(small.request, 64)).toBe('{"a":1}')
    expect(await readBoundedText(watched('x'.repeat(100), {}).request, 64)).toBeNull()
  })

  it('takes the length the runtime already parsed instead of reading the headers', async () => {
    const noHeaders = (body: string) =>
      new Proxy(watched(body, {}).request, {
        get(target, key) {
          if (key === 'headers') throw new Error('headers read')
          const value = Reflect.get(target, key, target)
          return typeof value === 'function' ? value.bind(target) : value
        },
      })
    // Over the limit by its stated length: refused, nothing read.
    const large = noHeaders('x'.repeat(100))
    expect(await readBoundedText(large, 64, 100)).toBeNull()
    expect(large.bodyUsed).toBe(false)
    // Within it: read; and a length the framing does not state (null) reads the stream, capped.
    expect(await readBoundedText(noHeaders('{"a":1}'), 64, 7)).toBe('{"a":1}')
    expect(await readBoundedText(noHeaders('x'.repeat(100)), 64, null)).toBeNull()
    expect(await readBoundedText(noHeaders('{"a":1}'), 64, null)).toBe('{"a":1}')
    // A body longer than the limit is refused, whatever length was stated for it.
    expect(await readBoundedText(noHeaders('x'.repeat(100)), 64, 10)).toBeNull()
  })

  it('reports a request it cannot read as a rejected promise, never a throw', async () => {
    const broken = {
      get headers(): Headers {
        throw new Error('no headers')
      },
    } as unknown as Request
    let reading: Promise<string | null> | undefined
    expect(() => {
      reading = readBoundedText(broken, 64)
    }).not.toThrow()
    await expect(reading).rejects.toThrow('no headers')
  })
})

describe('framedLength', () => {
  it('is the Content-Length of a body without Transfer-Encoding, else null', () => {
    expect(framedLength(false, '42')).toBe(42)
    expect(framedLength(false, ' 42 ')).toBe(42)
    expect(framedLength(true, '42')).toBeNull()
    expect(framedLength(false, null)).toBeNull()
    expect(framedLength(false, undefined)).toBeNull()
    for (const malformed of ['', '-1', '4e2', '0x10', '1'.repeat(16), '42, 42'])
      expect(framedLength(false, malformed)).toBeNull()
  })
})
