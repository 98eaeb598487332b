/**
 * Small real images for the logo tests, made here so that no binary fixture is checked in: a PNG
 * (zlib-compressed rows, CRC-checked chunks, which Chromium decodes), and JPEG and WebP files
 * whose headers are those of the formats (enough for the upload's checks, which read headers).
 */
import { deflateSync } from 'node:zlib'

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] as number) ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length)
  const view = new DataView(out.buffer)
  view.setUint32(0, data.length)
  out.set(new TextEncoder().encode(type), 4)
  out.set(data, 8)
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)))
  return out
}

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/**
 * An RGB PNG of `width`×`height`: a rounded badge of `rgb` with a white band (a logo's look).
 * `extra` adds a tEXt chunk of that many bytes (to make large files).
 */
export function pngLogo(width = 160, height = 64, rgb = [0x1f, 0x6f, 0x43], extra = 0): Uint8Array {
  const ihdr = new Uint8Array(13)
  const v = new DataView(ihdr.buffer)
  v.setUint32(0, width)
  v.setUint32(4, height)
  ihdr.set([8, 2, 0, 0, 0], 8)
  const rows = new Uint8Array(height * (1 + width * 3))
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 3)
    for (let x = 0; x < width; x++) {
      const band = y > height * 0.4 && y < height * 0.6 && x > width * 0.15 && x < width * 0.85
      const corner = Math.hypot(Math.min(x, width - 1 - x) - 10, Math.min(y, height - 1 - y) - 10)
      const outside =
        Math.min(x, width - 1 - x) < 10 && Math.min(y, height - 1 - y) < 10 && corner > 10
      const px = outside || band ? [255, 255, 255] : rgb
      rows.set(px, row + 1 + x * 3)
    }
  }
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
  ]
  if (extra > 0) parts.push(chunk('tEXt', new Uint8Array(extra).fill(0x61)))
  parts.push(chunk('IDAT', deflateSync(rows)), chunk('IEND', new Uint8Array(0)))
  return concat(...parts)
}

/** A JPEG's structure: SOI, an APP0 segment, a baseline frame header of the size, EOI. */
export function jpegHeaders(width = 120, height = 40): Uint8Array {
  const app0 = [0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]
  const sof = [0xff, 0xc0, 0x00, 0x11, 8, height >> 8, height & 255, width >> 8, width & 255, 3]
  const components = [1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
  return new Uint8Array([0xff, 0xd8, ...app0, ...sof, ...components, 0xff, 0xd9])
}

/** A lossless WebP's structure: RIFF of the right size, a VP8L chunk with the size. */
export function webpHeaders(width = 120, height = 40): Uint8Array {
  const bits = ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14)
  const vp8l = [
    0x2f,
    bits & 255,
    (bits >> 8) & 255,
    (bits >> 16) & 255,
    (bits >>> 24) & 255,
    0,
    0,
    0,
    0,
    0,
  ]
  const body = [...new TextEncoder().encode('WEBPVP8L'), vp8l.length, 0, 0, 0, ...vp8l]
  const size = body.length
  return new Uint8Array([
    ...new TextEncoder().encode('RIFF'),
    size & 255,
    (size >> 8) & 255,
    (size >> 16) & 255,
    size >>> 24,
    ...body,
  ])
}

/**
 * A JPEG with a scan: `jpegHeaders` with a start-of-scan segment and entropy-coded bytes holding a
 * stuffed 0xFF 0x00 and a restart marker before the end-of-image marker.
 */
export function jpegWithScan(width = 120, height = 40): Uint8Array {
  const headers = jpegHeaders(width, height)
  const sos = [0xff, 0xda, 0x00, 0x0c, 3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 0x3f, 0]
  const data = [0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56, 0x78]
  return new Uint8Array([...headers.subarray(0, -2), ...sos, ...data, 0xff, 0xd9])
}

/** An extended WebP: RIFF, a VP8X chunk with the size, then the VP8L image chunk. */
export function webpExtended(width = 120, height = 40): Uint8Array {
  const simple = webpHeaders(width, height)
  const vp8x = [
    ...new TextEncoder().encode('VP8X'),
    10,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    (width - 1) & 255,
    ((width - 1) >> 8) & 255,
    ((width - 1) >> 16) & 255,
    (height - 1) & 255,
    ((height - 1) >> 8) & 255,
    ((height - 1) >> 16) & 255,
  ]
  const out = new Uint8Array([...simple.subarray(0, 12), ...vp8x, ...simple.subarray(12)])
  new DataView(out.buffer).setUint32(4, out.length - 8, true)
  return out
}
