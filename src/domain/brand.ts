/**
 * The merchant's branding as pages use it: what the dashboard's settings stored, each field
 * falling back to the environment's value (MERCHANT_NAME, MERCHANT_TERMS_URL, DEFAULT_LANGUAGE)
 * when it is not set, so a headless install configured by variables alone keeps working.
 */
import type { Branding } from '../../db/schema.js'
import type { Config, Language } from '../config.js'

/** The logo's content types, and the extension its address ends with. */
export const LOGO_TYPES = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' } as const
export type LogoType = keyof typeof LOGO_TYPES

export interface BrandContacts {
  phone: string | null
  email: string | null
  address: string | null
}

export interface Brand {
  /** The stored row's version (0 while nothing is stored). */
  version: number
  name: string
  /** `#rrggbb` for the pay button and accents, or null for the default blue. */
  color: string | null
  logo: { src: string; width: number; height: number } | null
  contacts: BrandContacts
  /** Where the merchant's terms of sale are: a URL, or null for `/terms`. */
  termsUrl: string | null
  /** The terms of sale as text, per language; shown at `/terms`. */
  termsText: Partial<Record<Language, string>>
  defaultLanguage: Language
  receiptFooter: string | null
}

/** The public address of a logo: its content hash makes it cacheable for a year. */
export function logoPath(hash: string, type: string): string {
  return `/brand/logo/${hash}.${LOGO_TYPES[type as LogoType] ?? 'png'}`
}

const orNull = (value: string | null | undefined) =>
  value === null || value === undefined || value.trim() === '' ? null : value

/** The branding pages show: the stored row over the environment's defaults. */
export function resolveBrand(row: Branding | null | undefined, config: Config): Brand {
  const termsText: Partial<Record<Language, string>> = {}
  if (orNull(row?.termsAr)) termsText.ar = row?.termsAr as string
  if (orNull(row?.termsFr)) termsText.fr = row?.termsFr as string
  if (orNull(row?.termsEn)) termsText.en = row?.termsEn as string
  return {
    version: row?.version ?? 0,
    name: orNull(row?.merchantName) ?? config.merchantName,
    color: orNull(row?.brandColor),
    logo:
      row?.logoHash && row.logoType && row.logoWidth && row.logoHeight
        ? {
            src: logoPath(row.logoHash, row.logoType),
            width: row.logoWidth,
            height: row.logoHeight,
          }
        : null,
    contacts: {
      phone: orNull(row?.contactPhone),
      email: orNull(row?.contactEmail),
      address: orNull(row?.contactAddress),
    },
    termsUrl: orNull(row?.termsUrl) ?? config.merchantTermsUrl ?? null,
    termsText,
    defaultLanguage: row?.defaultLanguage ?? config.defaultLanguage,
    receiptFooter: orNull(row?.receiptFooter),
  }
}

/**
 * The merchant's terms of sale in `lang`: that language's text, else the default language's, else
 * any; null when only a URL (or nothing) is set.
 */
export function termsTextIn(brand: Brand, lang: Language): { text: string; lang: Language } | null {
  const order: Language[] = [lang, brand.defaultLanguage, 'ar', 'fr', 'en']
  for (const l of order) {
    const text = brand.termsText[l]
    if (text) return { text, lang: l }
  }
  return null
}

/** Where the checkout's "terms of sale" link goes: the text at /terms, else the URL, else /terms. */
export function merchantTermsHref(brand: Brand, lang: Language): string {
  const local = `/terms?lang=${lang}#merchant`
  return termsTextIn(brand, lang) ? local : (brand.termsUrl ?? local)
}

/** WCAG 2's relative luminance of a `#rrggbb` colour. */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
}

/** WCAG 2's contrast ratio between two `#rrggbb` colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}

/** The pay button's text colour, which a brand colour must carry legibly. */
export const BUTTON_TEXT = '#ffffff'

/** WCAG AA for normal text. */
export const AA_CONTRAST = 4.5

/** Whether `color` is `#rrggbb` and the button's white text on it meets WCAG AA (4.5:1). */
export function brandColorProblem(color: string): 'format' | 'contrast' | null {
  if (!/^#[0-9a-fA-F]{6}$/.test(color)) return 'format'
  return contrastRatio(color.toLowerCase(), BUTTON_TEXT) >= AA_CONTRAST ? null : 'contrast'
}
