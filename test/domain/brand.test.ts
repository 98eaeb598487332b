/**
 * The branding's pure rules: the brand colour's contrast with the pay button's white text (WCAG
 * AA, 4.5:1) both ways, the environment's values as defaults, and what an uploaded logo's bytes
 * are found to be whatever it claims (PNG, JPEG and WebP accepted; SVG, HTML, truncated, padded,
 * empty, oversized and polyglot files refused).
 */
import { describe, expect, it } from 'vitest'
import { parseConfig } from '../../src/config.js'
import {
  brandColorProblem,
  contrastRatio,
  merchantTermsHref,
  resolveBrand,
} from '../../src/domain/brand.js'
import { LOGO_MAX_BYTES, readLogo } from '../../src/domain/logo-image.js'
import { jpegHeaders, jpegWithScan, pngLogo, webpExtended, webpHeaders } from '../support/images.js'

const text = (s: string) => new TextEncoder().encode(s)

describe('brand colour', () => {
  it('measures contrast as WCAG does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5)
    expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5)
    // The default button blue: 6.5:1 with white.
    expect(contrastRatio('#0b5cad', '#ffffff')).toBeGreaterThan(6)
  })

  it('accepts colours white text reads well on, and refuses the others', () => {
    for (const ok of ['#0b5cad', '#1f6f43', '#000000', '#b42318', '#767676', '#5B21B6'])
      expect(brandColorProblem(ok), ok).toBeNull()
    // #777777 is 4.48:1, just under AA; yellow, light grey and white far under.
    for (const low of ['#777777', '#ffd400', '#cccccc', '#ffffff', '#00ff00'])
      expect(brandColorProblem(low), low).toBe('contrast')
  })

  it('refuses anything but #rrggbb', () => {
    for (const bad of ['0b5cad', '#0b5', '#0b5cadff', 'blue', '#0b5cag', 'red;}body{x', ''])
      expect(brandColorProblem(bad), bad).toBe('format')
  })
})

describe('branding over the environment', () => {
  const config = parseConfig({
    MERCHANT_NAME: 'Env Shop',
    MERCHANT_TERMS_URL: 'https://env.example/terms',
    DEFAULT_LANGUAGE: 'fr',
  })

  it('uses the environment for every field not stored', () => {
    const brand = resolveBrand(null, config)
    expect(brand).toMatchObject({
      version: 0,
      name: 'Env Shop',
      termsUrl: 'https://env.example/terms',
      defaultLanguage: 'fr',
      color: null,
      logo: null,
    })
    expect(merchantTermsHref(brand, 'en')).toBe('https://env.example/terms')
  })

  it('prefers stored values, and stored terms text to any URL', () => {
    const brand = resolveBrand(
      {
        id: 1,
        version: 3,
        merchantName: 'Stored Shop',
        brandColor: '#1f6f43',
        contactPhone: '+213 550 12 34 56',
        contactEmail: null,
        contactAddress: '  ',
        termsUrl: null,
        termsAr: null,
        termsFr: 'Conditions',
        termsEn: null,
        defaultLanguage: 'ar',
        receiptFooter: 'Merci',
        logoHash: 'a'.repeat(64),
        logoType: 'image/webp',
        logoWidth: 120,
        logoHeight: 40,
        updatedAt: 1,
      },
      config,
    )
    expect(brand).toMatchObject({
      version: 3,
      name: 'Stored Shop',
      defaultLanguage: 'ar',
      contacts: { phone: '+213 550 12 34 56', email: null, address: null },
      logo: { src: `/brand/logo/${'a'.repeat(64)}.webp`, width: 120, height: 40 },
    })
    expect(merchantTermsHref(brand, 'en')).toBe('/terms?lang=en#merchant')
  })
})

describe('logo bytes', () => {
  it('accepts PNG, JPEG and WebP by their bytes, with their size', () => {
    expect(readLogo(pngLogo(160, 64))).toEqual({
      ok: true,
      image: { contentType: 'image/png', width: 160, height: 64 },
    })
    expect(readLogo(jpegHeaders(300, 100))).toEqual({
      ok: true,
      image: { contentType: 'image/jpeg', width: 300, height: 100 },
    })
    expect(readLogo(webpHeaders(120, 40))).toEqual({
      ok: true,
      image: { contentType: 'image/webp', width: 120, height: 40 },
    })
  })

  it('refuses SVG, HTML and other text whatever they are called', () => {
    const svg = text('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
    expect(readLogo(svg)).toEqual({ ok: false, problem: 'logo_type' })
    expect(readLogo(text('<!doctype html><script>alert(1)</script>'))).toEqual({
      ok: false,
      problem: 'logo_type',
    })
    expect(readLogo(text('GIF89a'))).toEqual({ ok: false, problem: 'logo_type' })
  })

  it('refuses empty, truncated, padded and polyglot files', () => {
    const png = pngLogo()
    expect(readLogo(new Uint8Array(0))).toEqual({ ok: false, problem: 'logo_empty' })
    expect(readLogo(png.subarray(0, png.length - 20))).toEqual({
      ok: false,
      problem: 'logo_broken',
    })
    expect(readLogo(png.subarray(0, 20))).toEqual({ ok: false, problem: 'logo_broken' })
    // A PNG followed by HTML (or a ZIP, or a script) is not a PNG any more.
    const polyglot = new Uint8Array([...png, ...text('<html><script>alert(1)</script></html>')])
    expect(readLogo(polyglot)).toEqual({ ok: false, problem: 'logo_broken' })
    const jpeg = jpegHeaders()
    expect(readLogo(jpeg.subarray(0, jpeg.length - 2))).toEqual({
      ok: false,
      problem: 'logo_broken',
    })
    const webp = webpHeaders()
    expect(readLogo(new Uint8Array([...webp, 0, 0]))).toEqual({ ok: false, problem: 'logo_broken' })
  })

  it('reads a JPEG through its scans to its end, and refuses bytes after its end-of-image marker', () => {
    const scanned = jpegWithScan()
    expect(readLogo(scanned)).toEqual({
      ok: true,
      image: { contentType: 'image/jpeg', width: 120, height: 40 },
    })
    const eoi = [0xff, 0xd9]
    const padded = [
      new Uint8Array([...scanned, 0, 0, 0]),
      // Appended bytes that end like a JPEG: a script, a second image, a second end marker.
      new Uint8Array([...scanned, ...text('<script>alert(1)</script>'), ...eoi]),
      new Uint8Array([...jpegHeaders(), ...jpegHeaders()]),
      new Uint8Array([...scanned, ...eoi]),
    ]
    for (const bytes of padded) {
      expect(readLogo(bytes)).toEqual({ ok: false, problem: 'logo_broken' })
    }
    // A scan that never reaches its end marker is cut off.
    expect(readLogo(scanned.subarray(0, scanned.length - 2))).toEqual({
      ok: false,
      problem: 'logo_broken',
    })
  })

  it('refuses a WebP whose RIFF size is not its length, or whose chunks do not fill it exactly', () => {
    const webp = webpHeaders()
    const withSize = (bytes: number[], size: number) => {
      const out = new Uint8Array(bytes)
      new DataView(out.buffer).setUint32(4, size, true)
      return out
    }
    // The RIFF size stretched over bytes appended after the image.
    const tail = [...text('<html>padding</html>')]
    const stretched = withSize([...webp, ...tail], webp.length + tail.length - 8)
    expect(readLogo(stretched)).toEqual({ ok: false, problem: 'logo_broken' })
    // The RIFF size shorter or longer than the file.
    expect(readLogo(withSize([...webp], webp.length - 10))).toEqual({
      ok: false,
      problem: 'logo_broken',
    })
    expect(readLogo(withSize([...webp], webp.length))).toEqual({
      ok: false,
      problem: 'logo_broken',
    })
    // A second whole chunk after a simple (VP8L) image is not a simple WebP any more.
    const extra = [...text('JUNK'), 4, 0, 0, 0, 1, 2, 3, 4]
    expect(readLogo(withSize([...webp, ...extra], webp.length + extra.length - 8))).toEqual({
      ok: false,
      problem: 'logo_broken',
    })
    // An extended WebP (VP8X, then the image's chunks) is whole when its chunks fill it.
    const extended = webpExtended(120, 40)
    expect(readLogo(extended)).toEqual({
      ok: true,
      image: { contentType: 'image/webp', width: 120, height: 40 },
    })
    const loose = withSize([...extended, 0, 0, 0, 0], extended.length + 4 - 8)
    expect(readLogo(loose)).toEqual({ ok: false, problem: 'logo_broken' })
  })

  it('refuses files over 256 KiB and images of absurd size', () => {
    expect(readLogo(pngLogo(10, 10, undefined, LOGO_MAX_BYTES))).toEqual({
      ok: false,
      problem: 'logo_too_large',
    })
    expect(readLogo(jpegHeaders(65_000, 10))).toEqual({ ok: false, problem: 'logo_size' })
    expect(readLogo(webpHeaders(16_000, 16_000))).toEqual({ ok: false, problem: 'logo_size' })
    expect(readLogo(jpegHeaders(0, 10))).toEqual({ ok: false, problem: 'logo_size' })
  })
})
