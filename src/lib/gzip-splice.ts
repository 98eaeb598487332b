/**
 * A gzip stream with a few bytes spliced into it per answer, without compressing again: the text
 * before the slot is deflated once and ends on a byte boundary (a sync flush, no final block), the
 * spliced bytes follow as a stored block, and the text after the slot as blocks of their own (a
 * deflate stream is any sequence of blocks; the last one is final). The CRC-32 of the whole is
 * the prefix's CRC continued over the spliced bytes, combined with the suffix's (zlib's
 * crc32_combine), with the suffix's length's operator computed once. RFC 1951, RFC 1952.
 */

/** Raw deflate of `bytes`; `final` false ends with a sync flush, so more blocks may follow. */
export type DeflateRaw = (bytes: Uint8Array, final: boolean) => Uint8Array

const POLY = 0xedb88320
const TABLE = new Int32Array(256)
for (let n = 0; n < 256; n++) {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ POLY : c >>> 1
  TABLE[n] = c
}

/** CRC-32 (gzip's) of `bytes`, continuing from `crc` (0 to start). */
export function crc32(bytes: Uint8Array, crc = 0): number {
  let c = ~crc
  for (let i = 0; i < bytes.length; i++) c = TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8)
  return ~c >>> 0
}

/** a(x)·b(x) modulo the CRC polynomial (bit-reflected, as zlib's multmodp). */
function multiply(a: number, b: number): number {
  let m = 0x80000000
  let p = 0
  for (;;) {
    if (a & m) {
      p ^= b
      if ((a & (m - 1)) === 0) break
    }
    m >>>= 1
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1
  }
  return p >>> 0
}

/** x^(8·n) modulo the polynomial: the operator that shifts a CRC over `n` zero bytes. */
function shiftOver(n: number): number {
  let p = 0x80000000
  let power = 0x40000000 // x^1
  let bits = n * 8
  while (bits > 0) {
    if (bits % 2 === 1) p = multiply(power, p)
    power = multiply(power, power)
    bits = Math.floor(bits / 2)
  }
  return p
}

const HEADER = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff])

/**
 * Prepares the gzip form of `before + middle + after` for any `middle` (up to 65,535 bytes):
 * returns the function that builds it.
 */
export function gzipSplice(
  before: Uint8Array,
  after: Uint8Array,
  deflateRaw: DeflateRaw,
): (middle: Uint8Array) => Uint8Array {
  const head = deflateRaw(before, false)
  const tail = deflateRaw(after, true)
  const beforeCrc = crc32(before)
  const afterCrc = crc32(after)
  const shift = shiftOver(after.length)
  const fixed = before.length + after.length
  return (middle) => {
    const size = fixed + middle.length
    const crc = (multiply(shift, crc32(middle, beforeCrc)) ^ afterCrc) >>> 0
    const out = new Uint8Array(HEADER.length + head.length + 5 + middle.length + tail.length + 8)
    out.set(HEADER)
    let at = HEADER.length
    out.set(head, at)
    at += head.length
    // A stored block, not final: its header bits then padding to the byte (the flush left us on
    // one), its length and the length's complement, little-endian, then the bytes themselves.
    const len = middle.length
    out.set([0, len & 0xff, len >>> 8, ~len & 0xff, (~len >>> 8) & 0xff], at)
    at += 5
    out.set(middle, at)
    at += len
    out.set(tail, at)
    at += tail.length
    out.set([crc & 0xff, (crc >>> 8) & 0xff, (crc >>> 16) & 0xff, crc >>> 24], at)
    out.set([size & 0xff, (size >>> 8) & 0xff, (size >>> 16) & 0xff, (size >>> 24) & 0xff], at + 4)
    return out
  }
}
