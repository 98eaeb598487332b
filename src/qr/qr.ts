/**
 * QR codes of link URLs as SVG and PNG, on Web APIs only so both runtimes serve both formats:
 * lean-qr computes the modules (pure JavaScript, an ES module, no dependency); the SVG is one
 * path, the PNG is encoded here with CompressionStream('deflate') (zlib, which PNG's IDAT expects).
 */
import { correction, generate } from 'lean-qr'
import { utf8 } from '../lib/bytes.js'

/** The dark/light matrix of a QR code. */
export interface QrMatrix {
  size: number
  dark(x: number, y: number): boolean
}

/**
 * Computes the QR matrix of `text` with medium error correction (readable when printed small),
 * and no more: a higher level that still fits would draw the same size with other modules.
 */
export function qrMatrix(text: string): QrMatrix {
  const code = generate(text, {
    minCorrectionLevel: correction.M,
    maxCorrectionLevel: correction.M,
  })
  return { size: code.size, dark: (x, y) => code.get(x, y) }
}

const QUIET = 4

/** An SVG of the matrix: one path, a quiet zone of four modules, scalable without blur. */
export function qrSvg(matrix: QrMatrix, options: { title?: string } = {}): string {
  const full = matrix.size + QUIET * 2
  let path = ''
  for (let y = 0; y < matrix.size; y++) {
    for (let x = 0; x < matrix.size; x++) {
      if (matrix.dark(x, y)) path += `M${x + QUIET} ${y + QUIET}h1v1h-1z`
    }
  }
  const title = options.title ? `<title>${escapeXml(options.title)}</title>` : ''
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${full} ${full}" shape-rendering="crispEdges" role="img">${title}<rect width="${full}" height="${full}" fill="#fff"/><path fill="#000" d="${path}"/></svg>`
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
}

/** A greyscale PNG of the matrix, `scale` pixels a module, with the quiet zone. */
export async function qrPng(matrix: QrMatrix, scale = 8): Promise<Uint8Array> {
  const width = (matrix.size + QUIET * 2) * scale
  const stride = width + 1 // a filter byte (0) starts every row
  const raw = new Uint8Array(stride * width)
  for (let py = 0; py < width; py++) {
    const y = Math.floor(py / scale) - QUIET
    for (let px = 0; px < width; px++) {
      const x = Math.floor(px / scale) - QUIET
      const inside = x >= 0 && y >= 0 && x < matrix.size && y < matrix.size
      raw[py * stride + 1 + px] = inside && matrix.dark(x, y) ? 0 : 255
    }
  }
  const ihdr = new Uint8Array(13)
  const view = new DataView(ihdr.buffer)
  view.setUint32(0, width)
  view.setUint32(4, width)
  ihdr.set([8, 0, 0, 0, 0], 8) // 8-bit greyscale, deflate, no filter method, no interlace
  const idat = await deflate(raw)
  return concat([
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', new Uint8Array(0)),
  ])
}

async function deflate(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new CompressionStream('deflate'))
  return new Uint8Array(await new Response(stream).arrayBuffer())
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length)
  const view = new DataView(out.buffer)
  view.setUint32(0, data.length)
  out.set(utf8(type), 4)
  out.set(data, 8)
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)))
  return out
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

/** CRC-32 as PNG chunks use it. */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff
  for (const b of bytes) crc = CRC_TABLE[(crc ^ b) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}
