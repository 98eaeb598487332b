/**
 * What every dashboard page is made with besides its data: the words of its language, the
 * stylesheet and the pages' scripts. Node has them in the code (kit-in-code.ts); the Worker reads
 * them from its static assets on first use, which keeps the three message tables, the stylesheet
 * and the scripts out of its upload (src/runtime/worker/assets.ts, docs/decisions/performance.md "The
 * Worker upload").
 */
import type { Language } from '../config.js'
import type { DashTranslate } from './messages.js'

export interface DashboardKit {
  t: DashTranslate
  /** The dashboard's stylesheet, sent inline with the page's nonce. */
  css: string
  /** The pages' scripts, sent inline with the page's nonce (views/dashboard/scripts.ts). */
  scripts: DashScripts
}

/** The scripts of the pages that have one, by name. */
export interface DashScripts {
  /** The till's keypad and sale screen. */
  till: string
  /** The copy and share buttons of the link, webhook, people and keys pages. */
  share: string
  /** The header menu's Escape key and closing, on every signed-in page. */
  menu: string
}

/** The dashboard's kit for a language, at once or once read. */
export type LoadDashboardKit = (lang: Language) => DashboardKit | Promise<DashboardKit>
