/**
 * What the Worker reads from its static assets instead of carrying it in the upload: the
 * dashboard's words, stylesheet and scripts, the e-mails' texts, the /terms page's texts, and the
 * merchant API's OpenAPI document and docs page. wrangler runs
 * scripts/build-worker-assets.ts before each build ([build] in wrangler.toml), which writes them
 * from the same code Node uses; assets do not count toward the upload's size limit
 * (docs/decisions/performance.md, "The Worker upload"). They are read through the ASSETS binding
 * only: with `run_worker_first` every request reaches the Worker, never an asset directly.
 */
import type { Fetcher } from '@cloudflare/workers-types/index.ts'
import { type ApiDocs, apiDocsFrom } from '../../api/api-docs-source.js'
import type { Language } from '../../config.js'
import type { DashboardKit, DashScripts, LoadDashboardKit } from '../../dashboard/kit.js'
import type { DashMessages, DashTranslate } from '../../dashboard/messages.js'
import type { LoadTermsTexts, TermsTexts } from '../../i18n/terms.js'
import { translator } from '../../lib/translate.js'
import type { LoadMailWords, MailWords } from '../../mail/messages.js'

/** Where each thing is in the assets (the build script writes the same paths). */
export const WORKER_ASSET_PATHS = {
  openApi: '/api/openapi.json',
  docsPage: '/api/docs.html',
  dashboardWords: (lang: Language) => `/dashboard/words-${lang}.json`,
  dashboardCss: '/dashboard/styles.css',
  dashboardScripts: '/dashboard/scripts.json',
  mailWords: (lang: Language) => `/mail/words-${lang}.json`,
  termsTexts: (lang: Language) => `/terms/texts-${lang}.json`,
}

/** Reads an asset's text; a missing binding or asset is an error of the deployment, thrown. */
export type ReadAsset = (path: string) => Promise<string>

/** Reads assets through the `ASSETS` binding. */
export function assetReader(assets: Fetcher | undefined): ReadAsset {
  return async (path) => {
    if (!assets) throw new Error('No ASSETS binding: wrangler.toml [assets] is missing')
    // The binding serves by path; the host is not looked at.
    const res = await assets.fetch(`https://assets.invalid${path}`)
    if (!res.ok) throw new Error(`Static asset ${path} answered ${res.status}`)
    return res.text()
  }
}

/** Reads `path` once; a failed read is tried again by the next caller. */
function once<T>(read: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined
  return () => {
    value ??= read().catch((error: unknown) => {
      value = undefined
      throw error
    })
    return value
  }
}

/** What `make` gives for each language, made on first use and kept for the isolate. */
function oncePerLanguage<T>(make: (lang: Language) => Promise<T>): (lang: Language) => Promise<T> {
  const made = new Map<Language, () => Promise<T>>()
  return (lang) => {
    let value = made.get(lang)
    if (!value) {
      value = once(() => make(lang))
      made.set(lang, value)
    }
    return value()
  }
}

/** The dashboard's kit: each language's words, the stylesheet and scripts, read once per isolate. */
export function assetsDashboardKit(read: ReadAsset): LoadDashboardKit {
  const css = once(() => read(WORKER_ASSET_PATHS.dashboardCss))
  const scripts = once(
    async () => JSON.parse(await read(WORKER_ASSET_PATHS.dashboardScripts)) as DashScripts,
  )
  return oncePerLanguage(async (lang) => {
    const [words, stylesheet, pageScripts] = await Promise.all([
      read(WORKER_ASSET_PATHS.dashboardWords(lang)),
      css(),
      scripts(),
    ])
    const t: DashTranslate = translator(JSON.parse(words) as DashMessages)
    return { t, css: stylesheet, scripts: pageScripts } satisfies DashboardKit
  })
}

/** The OpenAPI document and docs page, read on first use. */
export function assetsApiDocs(read: ReadAsset): ApiDocs {
  return apiDocsFrom(async () => {
    const [documentJson, pageHtml] = await Promise.all([
      read(WORKER_ASSET_PATHS.openApi),
      read(WORKER_ASSET_PATHS.docsPage),
    ])
    return { documentJson, pageHtml }
  })
}

/** A JSON asset per language, each read on first use and kept for the isolate. */
function perLanguageJson<T>(
  read: ReadAsset,
  path: (lang: Language) => string,
): (lang: Language) => Promise<T> {
  return oncePerLanguage(async (lang) => JSON.parse(await read(path(lang))) as T)
}

/** The e-mails' texts in each language (mail is sent in the background). */
export function assetsMailWords(read: ReadAsset): LoadMailWords {
  return perLanguageJson<MailWords>(read, WORKER_ASSET_PATHS.mailWords)
}

/** The /terms page's texts in each language (the checkout does not show them). */
export function assetsTermsTexts(read: ReadAsset): LoadTermsTexts {
  return perLanguageJson<TermsTexts>(read, WORKER_ASSET_PATHS.termsTexts)
}
