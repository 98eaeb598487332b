/** The dashboard pages' scripts by name, as the kit carries them (src/dashboard/kit.ts). */
import type { DashScripts } from '../../src/dashboard/kit.js'
import { SHARE_SCRIPT } from './link-share.js'
import { MENU_SCRIPT } from './menu-script.js'
import { TILL_SCRIPT } from './till-script.js'

export const DASHBOARD_SCRIPTS: DashScripts = {
  till: TILL_SCRIPT,
  share: SHARE_SCRIPT,
  menu: MENU_SCRIPT,
}
