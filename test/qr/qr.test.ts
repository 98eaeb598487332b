import jsQR from 'jsqr'
import { PNG } from 'pngjs'
import { describe, expect, it } from 'vitest'
import { crc32, qrMatrix, qrPng, qrSvg } from '../../src/qr/qr.js'

const URL_TEXT = 'https://pay.example.dz/l/Ab3dE5gH7jK9'

describe('QR codes', () => {
  it('encodes a PNG that an independent decoder reads back as the link URL', async () => {
    const png = PNG.sync.read(Buffer.from(await qrPng(qrMatrix(URL_TEXT), 6)))
    const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height)
    expect(code?.data).toBe(URL_TEXT)
  })

  it('draws an SVG whose dark modules are exactly those of the matrix', () => {
    const matrix = qrMatrix(URL_TEXT)
    const svg = qrSvg(matrix, { title: 'Pay <now>' })
    const drawn = new Set(
      [...svg.matchAll(/M(\d+) (\d+)h1v1h-1z/g)].map(
        (m) => `${Number(m[1]) - 4},${Number(m[2]) - 4}`,
      ),
    )
    let dark = 0
    for (let y = 0; y < matrix.size; y++)
      for (let x = 0; x < matrix.size; x++) {
        if (matrix.dark(x, y)) {
          dark++
          expect(drawn.has(`${x},${y}`)).toBe(true)
        }
      }
    expect(drawn.size).toBe(dark)
    expect(svg).toContain('<title>Pay &#60;now&#62;</title>')
    expect(svg).toContain(`viewBox="0 0 ${matrix.size + 8} ${matrix.size + 8}"`)
  })

  it('encodes links, long links and two-factor URIs that the decoder reads back, all at medium correction', async () => {
    const texts = [
      URL_TEXT,
      'http://127.0.0.1:3000/l/k3J9aQ?lang=ar',
      `https://paiement.boutique-exemple-tres-longue.dz/l/${'Zx8kQ2mN4pLs'.repeat(12)}`,
      'otpauth://totp/Boutique%20Test:owner%40example.dz?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Boutique%20Test',
    ]
    for (const text of texts) {
      const matrix = qrMatrix(text)
      const png = PNG.sync.read(Buffer.from(await qrPng(matrix, 4)))
      expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(text)
      expect(correctionLevel(matrix)).toBe('M')
    }
  })

  it('computes the CRC-32 that PNG chunks need', () => {
    expect(crc32(new TextEncoder().encode('IEND'))).toBe(0xae426082)
  })
})

/**
 * The error correction level written in a matrix's format information (ISO/IEC 18004: the copy
 * beside the top-left finder, masked with 0x5412; the level is its top two data bits).
 */
function correctionLevel(matrix: { dark(x: number, y: number): boolean }): string {
  const cells: [number, number][] = [
    [8, 0],
    [8, 1],
    [8, 2],
    [8, 3],
    [8, 4],
    [8, 5],
    [8, 7],
    [8, 8],
    [7, 8],
    [5, 8],
    [4, 8],
    [3, 8],
    [2, 8],
    [1, 8],
    [0, 8],
  ]
  let bits = 0
  cells.forEach(([x, y], i) => {
    if (matrix.dark(x, y)) bits |= 1 << i
  })
  const level = ((bits ^ 0x5412) >> 13) & 0b11
  return ['M', 'L', 'H', 'Q'][level] as string
}
