/** What every customer page needs from the request (drawn by views/layout.tsx). */
import type { Language } from '../config.js'
import type { Translate } from '../i18n/index.js'
import type { Brand } from './brand.js'

export interface PageContext {
  lang: Language
  t: Translate
  /** The response's CSP nonce; '' for a page allowed by hashes instead (no attribute). */
  nonce: string
  testMode: boolean
  merchantName: string
  /** The merchant's branding (logo, colour, contacts); the plain look without it. */
  brand?: Brand
  /** The current path and query without `lang`, for the language switcher; none hides it. */
  switchPath?: string
  /** Rendering a file to keep (no links back, no script). */
  download?: boolean
}
