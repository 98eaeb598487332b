/**
 * What an uploaded logo really is, read from its bytes and never from the declared type or the
 * file name: PNG, JPEG or WebP whose structure is whole (nothing cut off, nothing appended after
 * the image's end) and whose size, read from its headers, is sensible. Anything else — SVG, HTML,
 * a truncated or padded file, an empty one — is refused.
 */

export const LOGO_MAX_BYTES = 256 * 1024
export const LOGO_MAX_SIDE = 4096

export type LogoImage = {
  contentType: 'image/png' | 'image/jpeg' | 'image/webp'
  width: number
  height: number
}

export type LogoProblem =
  | 'logo_empty'
  | 'logo_too_large'
  | 'logo_type'
  | 'logo_broken'
  | 'logo_size'

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

const u32be = (b: Uint8Array, i: number) =>
  (((b[i] as number) << 24) |
    ((b[i + 1] as number) << 16) |
    ((b[i + 2] as number) << 8) |
    (b[i + 3] as number)) >>>
  0
const u16be = (b: Uint8Array, i: number) => ((b[i] as number) << 8) | (b[i + 1] as number)
const u16le = (b: Uint8Array, i: number) => (b[i] as number) | ((b[i + 1] as number) << 8)
const u24le = (b: Uint8Array, i: number) => u16le(b, i) | ((b[i + 2] as number) << 16)
const u32le = (b: Uint8Array, i: number) => (u24le(b, i) | ((b[i + 3] as number) << 24)) >>> 0
const ascii = (b: Uint8Array, i: number, n: number) => String.fromCharCode(...b.subarray(i, i + n))

/** PNG: the signature, IHDR first, whole chunks up to IEND, which ends the file. */
function png(b: Uint8Array): LogoImage | 'logo_broken' | null {
  if (!PNG_SIGNATURE.every((v, i) => b[i] === v)) return null
  if (b.length < 8 + 25 + 12 || ascii(b, 12, 4) !== 'IHDR' || u32be(b, 8) !== 13)
    return 'logo_broken'
  let at = 8
  while (at + 12 <= b.length) {
    const length = u32be(b, at)
    const type = ascii(b, at + 4, 4)
    const next = at + 12 + length
    if (next > b.length) return 'logo_broken'
    if (type === 'IEND')
      return next === b.length
        ? { contentType: 'image/png', width: u32be(b, 16), height: u32be(b, 20) }
        : 'logo_broken'
    at = next
  }
  return 'logo_broken'
}

const isRestart = (marker: number) => marker >= 0xd0 && marker <= 0xd7

/**
 * JPEG: SOI, then segments, scans and their entropy-coded data, walked to the first EOI, which
 * must end the file: bytes after it (another image, a script, a second EOI) are padding. The size
 * is read from the frame header, which must come before any scan.
 */
function jpeg(b: Uint8Array): LogoImage | 'logo_broken' | null {
  if (b[0] !== 0xff || b[1] !== 0xd8 || b[2] !== 0xff) return null
  let found: LogoImage | null = null
  let at = 2
  while (at + 2 <= b.length) {
    if (b[at] !== 0xff) return 'logo_broken'
    const marker = b[at + 1] as number
    if (marker === 0xff) {
      at += 1 // a fill byte before a marker
      continue
    }
    if (marker === 0xd9) return found && at + 2 === b.length ? found : 'logo_broken'
    if (marker === 0xd8 || marker === 0x00) return 'logo_broken'
    if (marker === 0x01 || isRestart(marker)) {
      at += 2 // markers without a length
      continue
    }
    if (at + 4 > b.length) return 'logo_broken'
    const length = u16be(b, at + 2)
    if (length < 2 || at + 2 + length > b.length) return 'logo_broken'
    const frame = marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)
    if (frame && !found) {
      if (length < 7) return 'logo_broken'
      found = { contentType: 'image/jpeg', height: u16be(b, at + 5), width: u16be(b, at + 7) }
    }
    at += 2 + length
    if (marker === 0xda) {
      if (!found) return 'logo_broken' // scan data before any frame header
      // Entropy-coded data runs to the next marker; 0xFF in it is followed by a stuffed 0x00 or
      // is a restart marker.
      for (;;) {
        at = b.indexOf(0xff, at)
        if (at < 0 || at + 1 >= b.length) return 'logo_broken'
        const next = b[at + 1] as number
        if (next !== 0x00 && !isRestart(next)) break
        at += 2
      }
    }
  }
  return 'logo_broken'
}

/**
 * WebP: RIFF whose stated size is exactly the file's, filled exactly by whole chunks (each padded
 * to an even size), so nothing hides after the image even under a RIFF size stretched to cover
 * it. A simple file (VP8 or VP8L) is that one chunk alone; an extended one starts with VP8X.
 */
function webp(b: Uint8Array): LogoImage | 'logo_broken' | null {
  if (b.length < 12 || ascii(b, 0, 4) !== 'RIFF' || ascii(b, 8, 4) !== 'WEBP') return null
  if (u32le(b, 4) + 8 !== b.length || b.length < 30) return 'logo_broken'
  let chunks = 0
  for (let at = 12; at < b.length; chunks++) {
    if (at + 8 > b.length) return 'logo_broken'
    const length = u32le(b, at + 4)
    at += 8 + length + (length & 1)
    if (at > b.length) return 'logo_broken'
  }
  const chunk = ascii(b, 12, 4)
  const size = (width: number, height: number): LogoImage => ({
    contentType: 'image/webp',
    width,
    height,
  })
  if ((chunk === 'VP8 ' || chunk === 'VP8L') && chunks !== 1) return 'logo_broken'
  if (chunk === 'VP8 ') {
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return 'logo_broken'
    return size(u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff)
  }
  if (chunk === 'VP8L') {
    if (b[20] !== 0x2f) return 'logo_broken'
    const bits = u32le(b, 21)
    return size((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1)
  }
  if (chunk === 'VP8X') {
    if (u32le(b, 16) !== 10) return 'logo_broken'
    return size(u24le(b, 24) + 1, u24le(b, 27) + 1)
  }
  return 'logo_broken'
}

/** The checked image, or why it is refused. */
export function readLogo(
  bytes: Uint8Array,
): { ok: true; image: LogoImage } | { ok: false; problem: LogoProblem } {
  if (bytes.length === 0) return { ok: false, problem: 'logo_empty' }
  if (bytes.length > LOGO_MAX_BYTES) return { ok: false, problem: 'logo_too_large' }
  const found = png(bytes) ?? jpeg(bytes) ?? webp(bytes)
  if (found === null) return { ok: false, problem: 'logo_type' }
  if (found === 'logo_broken') return { ok: false, problem: 'logo_broken' }
  const { width, height } = found
  if (width < 1 || height < 1 || width > LOGO_MAX_SIDE || height > LOGO_MAX_SIDE)
    return { ok: false, problem: 'logo_size' }
  return { ok: true, image: found }
}
