/**
 * Writes the Worker's static assets (wrangler.toml's [assets] directory): the dashboard's words in
 * each language, its stylesheet and its pages' scripts, the e-mails' and the /terms page's texts
 * in each language, and the merchant API's OpenAPI document and docs page, made by the same code
 * Node uses, which the upload then does not carry (src/runtime/worker/assets.ts). wrangler runs it before
 * every build of the Worker ([build] in wrangler.toml), so the assets always match the code
 * uploaded.
 *
 *   npx tsx scripts/build-worker-assets.ts
 *
 * Several builds may run at once (the Worker tests do): each file is written whole under another
 * name and renamed into place, and left alone when its bytes are already there.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { apiDocsTemplates } from '../src/api/api-docs-templates.js'
import { LANGUAGES } from '../src/config.js'
import { DASH_TABLES } from '../src/dashboard/messages.js'
import { TERMS_TEXTS } from '../src/i18n/terms.js'
import { MAIL_TABLES } from '../src/mail/messages.js'
import { WORKER_ASSET_PATHS } from '../src/runtime/worker/assets.js'
import { DASHBOARD_SCRIPTS } from '../views/dashboard/scripts.js'
import { DASHBOARD_CSS } from '../views/dashboard/styles.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
/** wrangler.toml's `[assets] directory`. */
export const WORKER_ASSETS_DIR = join(ROOT, '.worker-assets')

/** Every asset the Worker reads: path under the directory, and its text. */
export async function workerAssets(): Promise<Map<string, string>> {
  const docs = await apiDocsTemplates()
  const files = new Map<string, string>([
    [WORKER_ASSET_PATHS.openApi, docs.documentJson],
    [WORKER_ASSET_PATHS.docsPage, docs.pageHtml],
    [WORKER_ASSET_PATHS.dashboardCss, DASHBOARD_CSS],
    [WORKER_ASSET_PATHS.dashboardScripts, JSON.stringify(DASHBOARD_SCRIPTS)],
  ])
  for (const lang of LANGUAGES) {
    files.set(WORKER_ASSET_PATHS.dashboardWords(lang), JSON.stringify(DASH_TABLES[lang]))
    files.set(WORKER_ASSET_PATHS.mailWords(lang), JSON.stringify(MAIL_TABLES[lang]))
    files.set(WORKER_ASSET_PATHS.termsTexts(lang), JSON.stringify(TERMS_TEXTS[lang]))
  }
  return files
}

function writeIfChanged(file: string, text: string): void {
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return
  mkdirSync(dirname(file), { recursive: true })
  const temporary = `${file}.${process.pid}.tmp`
  writeFileSync(temporary, text)
  renameSync(temporary, file)
}

/** Writes every asset to `.worker-assets`, leaving alone the files already holding their bytes. */
export async function writeWorkerAssets(): Promise<void> {
  for (const [path, text] of await workerAssets())
    writeIfChanged(join(WORKER_ASSETS_DIR, path), text)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // The production pair under `wrangler dev` (`npm run prod:worker`): each of its two Workers runs
  // this build twice as it starts; written once, when a source changed (a deploy always writes).
  if (process.env.PAYLINKS_ASSETS_IF_STALE === '1')
    await (await import('./build-worker-assets-if-stale.js')).writeIfStale(writeWorkerAssets)
  else await writeWorkerAssets()
}
