/**
 * The owner's settings (/dashboard/settings): the store's name, brand colour, contact details,
 * terms of sale, default language, receipt footer, the till link's lifetime, and the logo. Stored
 * in the database over the environment's defaults; every page shows a change at once (the
 * branding's version, src/data/brand-store.ts). Each change is in the audit log, by field name.
 */
import { Hono } from 'hono'
import { type SettingsDefaults, SettingsPage } from '../../views/dashboard/settings-page.js'
import { requirementOf } from '../auth/policy.js'
import { allows } from '../auth/principal.js'
import { recordAudit } from '../data/audit.js'
import { getBranding, replaceLogo, saveBranding } from '../data/branding.js'
import { getSetting, setSetting } from '../data/settings.js'
import { resolveBrand } from '../domain/brand.js'
import { type LogoProblem, readLogo } from '../domain/logo-image.js'
import { LOGO_FORM_PATH } from '../http/body-limits.js'
import { toHex } from '../lib/bytes.js'
import { readForm } from '../lib/form-body.js'
import { notAllowedPage } from '../routes/error-pages.js'
import { type DashC, type DashEnv, dashContext } from './context.js'
import type { DashKey } from './messages.js'
import {
  CUSTOMER_FEE_PERCENT_KEY,
  changedFields,
  parseSettingsForm,
  readSettingsForm,
  type SettingsField,
  type SettingsForm,
  type SettingsProblem,
  settingsToForm,
  TILL_LINK_MINUTES_KEY,
} from './settings-form.js'

export const settingsRoutes = new Hono<DashEnv>()

const PAGE = '/dashboard/settings'

const PROBLEM_KEYS: Record<SettingsProblem['code'], DashKey> = {
  too_long: 'stErrTooLong',
  not_text: 'stErrNotText',
  color_format: 'stErrColorFormat',
  color_contrast: 'stErrColorContrast',
  phone: 'stErrPhone',
  email: 'stErrEmail',
  url: 'stErrUrl',
  language: 'stErrLanguage',
  minutes: 'stErrMinutes',
  fee_percent: 'stErrFeePercent',
}

const LOGO_KEYS: Record<LogoProblem | 'logo_missing', DashKey> = {
  logo_missing: 'stErrLogoMissing',
  logo_empty: 'stErrLogoEmpty',
  logo_too_large: 'stErrLogoTooLarge',
  logo_type: 'stErrLogoType',
  logo_broken: 'stErrLogoBroken',
  logo_size: 'stErrLogoSize',
}

const DONE: Record<string, DashKey> = {
  saved: 'stSaved',
  logo: 'stLogoSaved',
  'logo-removed': 'stLogoRemoved',
}

async function renderPage(
  c: DashC,
  status: 200 | 400 | 413,
  state: {
    form?: SettingsForm
    errors?: Partial<Record<SettingsField, string>>
    logoError?: string
  },
) {
  const db = c.get('db')
  const row = await getBranding(db)
  const config = c.get('config')
  const defaults: SettingsDefaults = {
    merchantName: config.merchantName,
    termsUrl: config.merchantTermsUrl ?? null,
    language: config.defaultLanguage,
  }
  const form =
    state.form ??
    settingsToForm(
      row,
      await getSetting(db, TILL_LINK_MINUTES_KEY),
      await getSetting(db, CUSTOMER_FEE_PERCENT_KEY),
    )
  const done = DONE[c.req.query('done') ?? '']
  return c.html(
    <SettingsPage
      ctx={c.req.method === 'POST' ? { ...dashContext(c), switchPath: PAGE } : dashContext(c)}
      form={form}
      errors={state.errors ?? {}}
      defaults={defaults}
      logo={resolveBrand(row, config).logo}
      logoError={state.logoError}
      notice={done && status === 200 ? c.get('dt')(done) : undefined}
    />,
    status,
  )
}

const audit = (
  c: DashC,
  action: 'settings_changed' | 'logo_changed',
  detail: Record<string, unknown>,
) =>
  recordAudit(c.get('db'), {
    at: c.get('clock')(),
    action,
    actor: c.get('principal') ?? null,
    target: { kind: 'settings', id: action === 'logo_changed' ? 'logo' : 'branding' },
    detail,
    address: c.get('clientIp')(c),
  })

settingsRoutes.get('/settings', (c) => renderPage(c, 200, {}))

settingsRoutes.post('/settings', async (c) => {
  const form = readSettingsForm(await readForm(c))
  const parsed = parseSettingsForm(form)
  if (!parsed.ok) {
    const t = c.get('dt')
    const errors: Partial<Record<SettingsField, string>> = {}
    for (const [field, problem] of Object.entries(parsed.problems)) {
      errors[field as SettingsField] = t(PROBLEM_KEYS[problem.code], problem as never)
    }
    return renderPage(c, 400, { form, errors })
  }
  const db = c.get('db')
  const now = c.get('clock')()
  const before = await getBranding(db)
  const tillBefore = await getSetting(db, TILL_LINK_MINUTES_KEY)
  const feeBefore = await getSetting(db, CUSTOMER_FEE_PERCENT_KEY)
  const changed = changedFields(before, tillBefore, parsed.branding, parsed.tillLinkMinutes, {
    before: feeBefore,
    after: parsed.customerFeeHundredths,
  })
  if (changed.length > 0) {
    await saveBranding(db, parsed.branding, now)
    await setSetting(db, TILL_LINK_MINUTES_KEY, String(parsed.tillLinkMinutes), now)
    await setSetting(db, CUSTOMER_FEE_PERCENT_KEY, String(parsed.customerFeeHundredths), now)
    await audit(c, 'settings_changed', { fields: changed })
  }
  return c.redirect(`${PAGE}?done=saved`, 303)
})

settingsRoutes.post('/settings/logo', async (c) => {
  // The body was held to LOGO_FORM_BODY_LIMIT before it was read (requireSession).
  const file = (await readForm(c)).logo
  const refuse = (problem: LogoProblem | 'logo_missing') =>
    renderPage(c, 400, { logoError: c.get('dt')(LOGO_KEYS[problem]) })
  if (!(file instanceof File)) return refuse('logo_missing')
  const bytes = new Uint8Array(await file.arrayBuffer())
  // What the bytes are decides, never the declared type or the file's name.
  const checked = readLogo(bytes)
  if (!checked.ok) return refuse(checked.problem)
  const sha256 = toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)))
  const { contentType, width, height } = checked.image
  await replaceLogo(c.get('db'), { sha256, contentType, bytes, width, height }, c.get('clock')())
  await audit(c, 'logo_changed', {
    change: 'set',
    type: contentType,
    width,
    height,
    bytes: bytes.length,
  })
  return c.redirect(`${PAGE}?done=logo#logo`, 303)
})

/**
 * The logo's form over LOGO_FORM_BODY_LIMIT (a phone's photo, say), refused by the session check
 * before any route runs: the settings page again, the limit and what to do beside the field.
 * The route policy has not run yet, so it is applied here; nothing was read or stored.
 */
export function logoTooLargePage(c: DashC): Response | Promise<Response> {
  const principal = c.get('principal')
  const needs = requirementOf('POST', LOGO_FORM_PATH)
  const allowed =
    principal !== undefined &&
    (needs === 'signed-in' || (needs !== 'unlisted' && allows(principal, needs)))
  if (!allowed) return notAllowedPage(c)
  return renderPage(c, 413, { logoError: c.get('dt')(LOGO_KEYS.logo_too_large) })
}

settingsRoutes.post('/settings/logo/delete', async (c) => {
  await replaceLogo(c.get('db'), null, c.get('clock')())
  await audit(c, 'logo_changed', { change: 'removed' })
  return c.redirect(`${PAGE}?done=logo-removed#logo`, 303)
})
