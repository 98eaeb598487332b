/** The dashboard's typed Hono environment and the per-request context its views take. */
import type { Context } from 'hono'
import type { DashContext } from '../../views/dashboard/layout.js'
import { principalLabel, principalRole } from '../auth/principal.js'
import { permissionsOf } from '../auth/roles.js'
import type { Language } from '../config.js'
import type { AppVariables } from '../deps.js'
import type { DashScripts } from './kit.js'
import type { DashTranslate } from './messages.js'

/** The app's variables plus what the dashboard middleware adds. */
export type DashVariables = AppVariables & {
  dashLang: Language
  dt: DashTranslate
  /** The dashboard's stylesheet (from the runtime's kit). */
  dashCss: string
  /** The pages' scripts (from the runtime's kit). */
  dashScripts: DashScripts
  /** The verified session token (signed-in requests only). */
  session?: string
  /** The form token bound to the session. */
  csrf?: string
  /** The signed-out browser's id its sign-in forms' tokens are bound to (session.ts). */
  presession?: string
  /** Webhook endpoints failing now, for the layout's banner (signed-in requests only). */
  failingEndpoints?: { id: string; url: string }[]
}

export interface DashEnv {
  Variables: DashVariables
}

export type DashC = Context<DashEnv>

/** The context every dashboard view takes: language, translator, nonce, banner, form token. */
export function dashContext(c: DashC): DashContext {
  const url = new URL(c.req.url)
  // The switcher reloads this page in another language; a one-off notice (`done`, `out`) is not repeated.
  url.searchParams.delete('lang')
  url.searchParams.delete('done')
  url.searchParams.delete('out')
  const principal = c.get('principal')
  return {
    permissions: principal ? permissionsOf(principalRole(principal)) : undefined,
    who: principal ? principalLabel(principal) : undefined,
    lang: c.get('dashLang'),
    t: c.get('dt'),
    css: c.get('dashCss'),
    scripts: c.get('dashScripts'),
    nonce: c.get('secureHeadersNonce') ?? '',
    testMode: c.get('config').gatewayMode !== 'live',
    merchantName: c.get('brand').current().name,
    switchPath: url.pathname + (url.searchParams.size > 0 ? `?${url.searchParams}` : ''),
    csrf: c.get('csrf'),
    failingEndpoints: c.get('failingEndpoints'),
  }
}
