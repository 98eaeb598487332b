/**
 * Identifiers for one simulator instance. With a seed every id is reproducible (a small PRNG);
 * without one they come from WebCrypto. Either way the generator lives in the instance, never in
 * module state.
 */
import { randomBytes, toHex } from '../lib/bytes.js'

/** The id generator of a simulator instance. */
export interface Ids {
  /** A version-4 UUID. */
  uuid(): string
  /** `length` decimal digits, the first never 0. */
  digits(length: number): string
  /** `length` lower-case hex characters. */
  hex(length: number): string
}

// cyrb128 then sfc32: tiny, well-distributed and fine for ids that must only be reproducible.
function hashSeed(seed: string): [number, number, number, number] {
  let h1 = 1779033703
  let h2 = 3144134277
  let h3 = 1013904242
  let h4 = 2773480762
  for (let i = 0; i < seed.length; i++) {
    const k = seed.charCodeAt(i)
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067)
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233)
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213)
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179)
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067)
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233)
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213)
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179)
  return [(h1 ^ h2 ^ h3 ^ h4) >>> 0, (h2 ^ h1) >>> 0, (h3 ^ h1) >>> 0, (h4 ^ h1) >>> 0]
}

function seededBytes(seed: string): (length: number) => Uint8Array {
  let [a, b, c, d] = hashSeed(seed)
  const next = (): number => {
    a >>>= 0
    b >>>= 0
    c >>>= 0
    d >>>= 0
    let t = (a + b) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    d = (d + 1) | 0
    t = (t + d) | 0
    c = (c + t) | 0
    return t >>> 0
  }
  return (length) => {
    const out = new Uint8Array(length)
    for (let i = 0; i < length; i++) out[i] = next() & 0xff
    return out
  }
}

/** Creates an id generator, reproducible when `seed` is given. */
export function createIds(seed?: string): Ids {
  const bytes = seed === undefined ? randomBytes : seededBytes(seed)
  return {
    uuid() {
      const b = bytes(16)
      b[6] = (b[6]! & 0x0f) | 0x40
      b[8] = (b[8]! & 0x3f) | 0x80
      const h = toHex(b)
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
    },
    digits(length) {
      let out = ''
      while (out.length < length) {
        for (const b of bytes(length * 2)) {
          // 250 = 25 * 10: reject the top values so every digit is equally likely.
          if (b >= 250 || out.length >= length) continue
          if (out.length === 0 && b % 10 === 0) continue
          out += String(b % 10)
        }
      }
      return out
    },
    hex(length) {
      return toHex(bytes(Math.ceil(length / 2))).slice(0, length)
    },
  }
}
