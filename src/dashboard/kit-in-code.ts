/** The dashboard's kit from the code (Node, and the Worker's build, which writes it to assets). */
import { DASHBOARD_SCRIPTS } from '../../views/dashboard/scripts.js'
import { DASHBOARD_CSS } from '../../views/dashboard/styles.js'
import type { DashboardKit, LoadDashboardKit } from './kit.js'
import { type DASH_TABLES, dashTranslator } from './messages.js'

const KITS = {
  en: { t: dashTranslator('en'), css: DASHBOARD_CSS, scripts: DASHBOARD_SCRIPTS },
  fr: { t: dashTranslator('fr'), css: DASHBOARD_CSS, scripts: DASHBOARD_SCRIPTS },
  ar: { t: dashTranslator('ar'), css: DASHBOARD_CSS, scripts: DASHBOARD_SCRIPTS },
} satisfies Record<keyof typeof DASH_TABLES, DashboardKit>

/** The kit of a language, from the tables, the stylesheet and the scripts in the code. */
export const dashboardKitInCode: LoadDashboardKit = (lang) => KITS[lang]
