/**
 * SHA-256 and HMAC-SHA-256 (FIPS 180-4, RFC 2104) in plain JavaScript, without a promise: the
 * checkout page carries a fresh captcha challenge, made while the page is answered synchronously
 * from memory, where WebCrypto's digest (a promise and a hop to another thread) would cost more
 * than the whole answer. A keyed HMAC keeps its padded key's two states, so signing a short text
 * costs three or four compressions.
 */

/** The round constants (FIPS 180-4, 4.2.2); the checkout's captcha solver carries the same. */
export const SHA256_K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
])
const IV = new Int32Array([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
])
const W = new Int32Array(64)

/** Runs the compression function over the 64-byte block at `block[at…]`, updating `h`. */
function compress(h: Int32Array, block: Uint8Array, at: number): void {
  for (let j = 0; j < 16; j++) {
    const o = at + j * 4
    W[j] = (block[o]! << 24) | (block[o + 1]! << 16) | (block[o + 2]! << 8) | block[o + 3]!
  }
  for (let j = 16; j < 64; j++) {
    const x = W[j - 15]!
    const y = W[j - 2]!
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3)
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10)
    W[j] = (s1 + W[j - 7]! + s0 + W[j - 16]!) | 0
  }
  let a = h[0]!
  let b = h[1]!
  let c = h[2]!
  let d = h[3]!
  let e = h[4]!
  let f = h[5]!
  let g = h[6]!
  let k = h[7]!
  for (let j = 0; j < 64; j++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))
    const t1 = (k + S1 + ((e & f) ^ (~e & g)) + SHA256_K[j]! + W[j]!) | 0
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0
    k = g
    g = f
    f = e
    e = (d + t1) | 0
    d = c
    c = b
    b = a
    a = (t1 + t2) | 0
  }
  h[0] = (h[0]! + a) | 0
  h[1] = (h[1]! + b) | 0
  h[2] = (h[2]! + c) | 0
  h[3] = (h[3]! + d) | 0
  h[4] = (h[4]! + e) | 0
  h[5] = (h[5]! + f) | 0
  h[6] = (h[6]! + g) | 0
  h[7] = (h[7]! + k) | 0
}

/** Finishes a hash whose state `h` has already taken `done` bytes: `rest` and the padding. */
function finish(h: Int32Array, done: number, rest: Uint8Array): Uint8Array {
  const total = done + rest.length
  const blocks = (rest.length + 9 + 63) >> 6
  const tail = new Uint8Array(blocks * 64)
  tail.set(rest)
  tail[rest.length] = 0x80
  const bits = total * 8
  const end = tail.length
  tail[end - 5] = Math.floor(bits / 2 ** 32) & 0xff
  tail[end - 4] = bits >>> 24
  tail[end - 3] = (bits >>> 16) & 0xff
  tail[end - 2] = (bits >>> 8) & 0xff
  tail[end - 1] = bits & 0xff
  for (let at = 0; at < end; at += 64) compress(h, tail, at)
  const out = new Uint8Array(32)
  for (let j = 0; j < 8; j++) {
    const v = h[j]!
    out[j * 4] = v >>> 24
    out[j * 4 + 1] = (v >>> 16) & 0xff
    out[j * 4 + 2] = (v >>> 8) & 0xff
    out[j * 4 + 3] = v & 0xff
  }
  return out
}

const encoder = new TextEncoder()

/** UTF-8 bytes of text; ASCII (a challenge's text) copied directly, cheaper than TextEncoder. */
function bytesOf(text: string): Uint8Array {
  const out = new Uint8Array(text.length)
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code > 0x7f) return encoder.encode(text)
    out[i] = code
  }
  return out
}

/** SHA-256 of bytes. */
export function sha256(bytes: Uint8Array): Uint8Array {
  const h = IV.slice()
  const whole = bytes.length & ~63
  for (let at = 0; at < whole; at += 64) compress(h, bytes, at)
  return finish(h, whole, bytes.subarray(whole))
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

/** Lower-case hex of bytes. */
export function hex(bytes: Uint8Array): string {
  let out = ''
  for (const b of bytes) out += HEX[b]
  return out
}

/** SHA-256 of UTF-8 text, lower-case hex. */
export function sha256HexOf(text: string): string {
  return hex(sha256(bytesOf(text)))
}

/** HMAC-SHA-256 under one key, its padded key's states computed once. */
export function hmacSha256(key: string | Uint8Array): (text: string) => Uint8Array {
  let raw = typeof key === 'string' ? encoder.encode(key) : key
  if (raw.length > 64) raw = sha256(raw)
  const pad = (byte: number) => {
    const block = new Uint8Array(64).fill(byte)
    for (let i = 0; i < raw.length; i++) block[i] = raw[i]! ^ byte
    const h = IV.slice()
    compress(h, block, 0)
    return h
  }
  const inner = pad(0x36)
  const outer = pad(0x5c)
  return (text) => {
    const h = inner.slice()
    const bytes = bytesOf(text)
    const whole = bytes.length & ~63
    for (let at = 0; at < whole; at += 64) compress(h, bytes, at)
    const digest = finish(h, 64 + whole, bytes.subarray(whole))
    return finish(outer.slice(), 64, digest)
  }
}
