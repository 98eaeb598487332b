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

  it('computes the CRC-32 that PNG chunks need', () => {
    expect(crc32(new TextEncoder().encode('IEND'))).toBe(0xae426082)
  })
})
