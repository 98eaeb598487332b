/**
 * The audit log's Detail column: what an act recorded (src/data/audit.ts), told in the page's
 * language. Each action has its renderer (DETAILS, typed by every action, so a new action does
 * not build until it has one); the renderer reads the keys it knows and words them: amounts as
 * money (the detail holds centimes), field names as the forms' labels, methods, roles and second
 * steps translated, addresses and ids as they are, isolated left to right. Keys it leaves, or does
 * not know, follow as `label: value`, the label translated when the key is a known one. The
 * stored detail stays as recorded: the API and any export hand it on raw.
 */
import type { Child } from 'hono/jsx'
import type { PaymentStatus, Role } from '../../db/schema.js'
import type { Language } from '../../src/config.js'
import type { DashKey } from '../../src/dashboard/messages.js'
import type { SettingsField } from '../../src/dashboard/settings-form.js'
import { TILL_PRESETS_KEY } from '../../src/data/till.js'
import type { AuditAction } from '../../src/domain/audit-actions.js'
import { formatAmount, perLanguage } from '../../src/i18n/index.js'
import type { DashContext } from './layout.js'
import { paymentStatusLabel } from './parts.js'

/** One line of a detail: a label and its value, or a sentence alone. */
export type DetailLine = { label?: string; value: Child }

/** What a renderer reads the detail with. */
export interface DetailReader {
  ctx: DashContext
  /** The value of `key`, which is then shown (a key not read is shown after, as `key: value`). */
  take(key: string): unknown
  /** The value of `key`, only looked at: it is still shown after if nothing takes it. */
  detail(key: string): unknown
  /** The line of a key as every action shows it (its label and value), or none when it is absent. */
  line(key: string): DetailLine[]
  /** People's and keys' names by id, to name who a key acts for. */
  names: ReadonlyMap<string, string>
}

type Render = (r: DetailReader) => DetailLine[]

const LISTS = perLanguage(
  (locale) => new Intl.ListFormat(locale, { type: 'conjunction', style: 'long' }),
)

/** An id, an address or a URL: as it is, left to right in any page. */
function Ltr(props: { value: string }) {
  return <bdi dir="ltr">{props.value}</bdi>
}

/** Text someone typed (a title, a name): its own direction. */
function Typed(props: { value: string }) {
  return <bdi>{props.value}</bdi>
}

const isText = (v: unknown): v is string => typeof v === 'string'
const isWhole = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v)
const texts = (v: unknown): string[] | null =>
  Array.isArray(v) && v.every(isText) ? (v as string[]) : null

/** The entry of `table` for `value`, when it has one (never one of Object's own names). */
function known<T>(table: Readonly<Record<string, T>>, value: unknown): T | undefined {
  return isText(value) && Object.hasOwn(table, value) ? table[value] : undefined
}

/** A list of words in the page's language: "a, b and c". */
function list(lang: Language, words: string[]): string {
  return LISTS(lang).format(words)
}

/** The field names of the link form and body (the API's), as the link's page labels them. */
const LINK_FIELDS: Record<string, DashKey> = {
  title: 'fieldTitle',
  description: 'fieldDescription',
  amount: 'colAmount',
  amount_min: 'auFieldAmountMin',
  amount_max: 'auFieldAmountMax',
  invoice_id: 'detailInvoice',
  invoice_items: 'detailItems',
  max_payments: 'detailMaxPayments',
  expires_at: 'detailExpiresAt',
  language: 'detailLanguage',
  memo: 'detailMemo',
  success_message: 'detailSuccessMessage',
  success_url: 'detailSuccessUrl',
  active: 'colStatus',
  inactive_message: 'detailInactiveMessage',
}

/** The settings form's fields, as it labels them. */
const SETTINGS_FIELDS: Record<SettingsField, DashKey> = {
  merchantName: 'stFieldName',
  brandColor: 'stFieldColor',
  contactPhone: 'stFieldPhone',
  contactEmail: 'stFieldEmail',
  contactAddress: 'stFieldAddress',
  termsUrl: 'stFieldTermsUrl',
  termsAr: 'stFieldTermsAr',
  termsFr: 'stFieldTermsFr',
  termsEn: 'stFieldTermsEn',
  defaultLanguage: 'stFieldLanguage',
  receiptFooter: 'stFieldFooter',
  tillLinkMinutes: 'stFieldTillMinutes',
  customerFeePercent: 'stFeePercent',
}

/** A webhook endpoint's fields: the API's names and the dashboard's form values alike. */
const WEBHOOK_FIELDS: Record<string, DashKey> = {
  url: 'whFieldUrl',
  description: 'fieldDescription',
  event_types: 'whColEvents',
  eventTypes: 'whColEvents',
  enabled: 'whColSending',
}

/** Field names in the labels of `fields` (a name not in it shows as it is). */
function fieldNames(r: DetailReader, fields: Record<string, DashKey>, value: unknown): Child {
  const names = texts(value)
  if (!names) return shown(r.ctx, value)
  return list(
    r.ctx.lang,
    names.map((name) => {
      const label = known(fields, name)
      return label ? r.ctx.t(label) : name
    }),
  )
}

/** The line of `fields` with the labels of one form. */
const changed =
  (fields: Record<string, DashKey>) =>
  (r: DetailReader): DetailLine[] => {
    const value = r.take('fields')
    if (value === undefined) return []
    if (Array.isArray(value) && value.length === 0) return []
    return [{ label: r.ctx.t('auLblFields'), value: fieldNames(r, fields, value) }]
  }

/** One of a few codes, in the page's language; another value as it is. */
const oneOf =
  (keys: Record<string, DashKey>) =>
  (ctx: DashContext, value: unknown): Child => {
    const key = known(keys, value)
    return key ? ctx.t(key) : shown(ctx, value)
  }

const ROLES: Record<Role, DashKey> = {
  owner: 'role_owner',
  manager: 'role_manager',
  cashier: 'role_cashier',
  viewer: 'role_viewer',
}
const role = oneOf(ROLES)

/** A role's name as text (for a sentence). */
function roleText(ctx: DashContext, value: unknown): string {
  const key = known(ROLES, value)
  if (key) return ctx.t(key)
  return isText(value) ? value : ctx.t('none')
}

const PAYMENT_STATUS: Record<PaymentStatus, true> = {
  initiated: true,
  pending: true,
  paid: true,
  failed: true,
  canceled: true,
  expired: true,
  error: true,
}

/** Money: the detail holds centimes. */
function money(ctx: DashContext, value: unknown): Child {
  return isWhole(value) ? <bdi>{formatAmount(value, ctx.lang)}</bdi> : shown(ctx, value)
}

function ltr(ctx: DashContext, value: unknown): Child {
  return isText(value) ? <Ltr value={value} /> : shown(ctx, value)
}

function code(ctx: DashContext, value: unknown): Child {
  return isText(value) ? <code dir="ltr">{value}</code> : shown(ctx, value)
}

/**
 * Any value, readably: text in its own direction, yes or no, a list joined, an object as its
 * `key: value` pairs (keys translated when known).
 */
function shown(ctx: DashContext, value: unknown): Child {
  if (value === null || value === undefined) return ctx.t('none')
  if (isText(value)) return <Typed value={value} />
  if (typeof value === 'boolean') return ctx.t(value ? 'auYes' : 'auNo')
  if (typeof value === 'number') return String(value)
  if (Array.isArray(value)) {
    const words = texts(value)
    if (words) return <Typed value={list(ctx.lang, words)} />
    return value.map((v, i) => [i > 0 ? ctx.t('auSeparator') : '', shown(ctx, v)])
  }
  if (typeof value === 'object')
    return Object.entries(value).map(([k, v], i) => [
      i > 0 ? ctx.t('auSeparator') : '',
      `${keyLabel(ctx, k)}${ctx.t('auColon')}`,
      shown(ctx, v),
    ])
  return String(value)
}

/** What a key means wherever it is found: its label and how its value is shown. */
const KEYS: Record<string, { label: DashKey; show?: (ctx: DashContext, value: unknown) => Child }> =
  {
    title: { label: 'fieldTitle' },
    amount: { label: 'colAmount', show: money },
    email: { label: 'pplEmail', show: ltr },
    role: { label: 'pplRole', show: role },
    // The form's label: "Address" alone is the log's own column, the client's IP address.
    url: { label: 'whFieldUrl', show: ltr },
    event_types: {
      label: 'whColEvents',
      show: (ctx, v) => {
        const types = texts(v)
        return types
          ? types.map((type, i) => [
              i > 0 ? ctx.t('auSeparator') : '',
              <code dir="ltr">{type}</code>,
            ])
          : shown(ctx, v)
      },
    },
    event_id: { label: 'whColEvent', show: code },
    enabled: {
      label: 'whColSending',
      show: (ctx, v) => (typeof v === 'boolean' ? ctx.t(v ? 'whOn' : 'whOff') : shown(ctx, v)),
    },
    name: { label: 'keysColName' },
    prefix: { label: 'auLblPrefix', show: code },
    scope: {
      label: 'keysColScope',
      show: oneOf({ read: 'keysRead', write: 'keysWrite' }),
    },
    sessions: { label: 'auLblSessions' },
    method: {
      label: 'auLblMethod',
      show: oneOf({
        password: 'auMethod_password',
        admin_token: 'auKind_admin',
        invite: 'auMethod_invite',
      }),
    },
    second: {
      label: 'auLblSecond',
      show: oneOf({
        totp: 'auSecond_totp',
        recovery: 'auSecond_recovery',
        enrolled: 'auSecond_enrolled',
      }),
    },
    link_id: { label: 'fieldLink', show: ltr },
    link: { label: 'fieldLink', show: ltr },
    payment_id: { label: 'whColPayment', show: ltr },
    status: {
      label: 'filterStatus',
      show: (ctx, v) =>
        known(PAYMENT_STATUS, v) ? paymentStatusLabel(ctx, v as PaymentStatus) : shown(ctx, v),
    },
    from: { label: 'filterFrom', show: ltr },
    to: { label: 'filterTo', show: ltr },
    fields: {
      label: 'auLblFields',
      show: (ctx, v) => {
        const names = texts(v)
        if (!names) return shown(ctx, v)
        const all: Record<string, DashKey> = {
          ...LINK_FIELDS,
          ...SETTINGS_FIELDS,
          ...WEBHOOK_FIELDS,
        }
        return list(
          ctx.lang,
          names.map((n) => {
            const label = known(all, n)
            return label ? ctx.t(label) : n
          }),
        )
      },
    },
    export: { label: 'auLblFile', show: ltr },
  }

/** A key's label: the translated one when the key is known, else the key itself. */
function keyLabel(ctx: DashContext, key: string): string {
  const view = known(KEYS, key)
  return view ? ctx.t(view.label) : key
}

/** The line of a key as any action shows it. */
function keyLine(ctx: DashContext, key: string, value: unknown): DetailLine {
  return { label: keyLabel(ctx, key), value: (known(KEYS, key)?.show ?? shown)(ctx, value) }
}

/** Shows every key as any action does. */
const asKeys: Render = () => []

/** A sentence when `key` holds `value`; another value is left to be shown as it is. */
function when(r: DetailReader, key: string, value: unknown, text: DashKey): DetailLine[] {
  if (r.detail(key) !== value) return []
  r.take(key)
  return [{ value: r.ctx.t(text) }]
}

/** A link's acts: its title and the fields sent; a till sale says so, with its amount. */
const linkAct: Render = (r) => {
  const source = r.take('source')
  const till = source === 'till' ? [{ value: r.ctx.t('auTillSale') }] : r.line('source')
  return [...till, ...r.line('title'), ...r.line('amount'), ...changed(LINK_FIELDS)(r)]
}

/** A checkout made or expired through the API: the shop's reference and the amount. */
const checkoutAct: Render = (r) => {
  const reference = r.take('reference')
  const lines = isText(reference)
    ? [{ label: r.ctx.t('colRef'), value: <Ltr value={reference} /> }]
    : []
  return [...lines, ...r.line('amount')]
}

/**
 * A webhook endpoint's acts: its address first, then what changed; sending turned on or off says
 * only that (the field's name would repeat its label).
 */
const endpointAct: Render = (r) => {
  const url = r.line('url')
  const fields = texts(r.detail('fields'))
  if (fields?.length === 1 && fields[0] === 'enabled' && r.detail('enabled') !== undefined) {
    r.take('fields')
    return [...url, ...r.line('enabled')]
  }
  return [...url, ...changed(WEBHOOK_FIELDS)(r)]
}

/** An API key: its name and prefix, its scope, whom it acts for, and why it was revoked. */
const keyAct: Render = (r) => {
  const lines = [...r.line('name'), ...r.line('prefix'), ...r.line('scope')]
  const owner = r.take('user_id')
  if (owner !== undefined) {
    const name = isText(owner) ? r.names.get(owner) : undefined
    lines.push({
      label: r.ctx.t('keysColOwner'),
      value:
        owner === null ? r.ctx.t('keysStore') : name ? <Ltr value={name} /> : ltr(r.ctx, owner),
    })
  }
  return [...lines, ...when(r, 'reason', 'person_removed', 'auKeyPersonRemoved')]
}

/** The payments export: the file, its filters (or none) and whether a search narrowed it. */
const exportAct: Render = (r) => {
  const lines = r.line('export')
  const filters = r.take('filters')
  if (filters && typeof filters === 'object' && !Array.isArray(filters)) {
    const entries = Object.entries(filters)
    if (entries.length === 0) lines.push({ value: r.ctx.t('auNoFilters') })
    for (const [key, value] of entries) lines.push(keyLine(r.ctx, key, value))
  } else if (filters !== undefined) lines.push(keyLine(r.ctx, 'filters', filters))
  // Without a search, nothing to say.
  if (r.detail('search') === false) r.take('search')
  return [...lines, ...when(r, 'search', true, 'auSearchKept')]
}

/** The settings: the fields changed, the two-factor rule, or the till's items. */
const settingsAct: Render = (r) => {
  const lines = changed(SETTINGS_FIELDS)(r)
  const required = r.take('require_two_factor')
  if (typeof required === 'boolean')
    lines.push({ value: r.ctx.t(required ? 'pplRequireOn' : 'pplRequireOff') })
  else if (required !== undefined) lines.push(keyLine(r.ctx, 'require_two_factor', required))
  if (r.detail('key') === TILL_PRESETS_KEY) {
    r.take('key')
    lines.push({ label: r.ctx.t('tillPresetsTitle'), value: shown(r.ctx, r.take('items')) })
  }
  return lines
}

/** A product's fields as its form names them, for "fields changed". */
const PRODUCT_FIELDS: Record<string, DashKey> = {
  name: 'prFieldName',
  description: 'prFieldDescription',
  price: 'prFieldPrice',
  stock: 'prFieldStock',
  sku: 'prFieldSku',
  active: 'prColStatus',
}

/** A product's acts: its name and the fields sent. */
const productAct: Render = (r) => [...r.line('name'), ...changed(PRODUCT_FIELDS)(r)]

/** A promo code's fields as its form names them, for "fields changed". */
const PROMO_CODE_FIELDS: Record<string, DashKey> = {
  code: 'pcFieldCode',
  percent_off: 'pcFieldPercent',
  amount_off: 'pcFieldAmount',
  min_amount: 'pcFieldMin',
  max_redemptions: 'pcFieldMax',
  expires_at: 'pcFieldExpires',
  active: 'pcColStatus',
}

/** A promo code's acts: its code and the fields sent. */
const promoCodeAct: Render = (r) => [...r.line('code'), ...changed(PROMO_CODE_FIELDS)(r)]

/** A product's image: a new one (its format, size and weight) or its removal. */
const productImageAct: Render = (r) => {
  const name = r.line('name')
  const change = r.take('change')
  if (change === 'removed') return [...name, { value: r.ctx.t('prImageRemoved') }]
  return [...name, ...imageParts(r, 'auProductImage')]
}

/** An uploaded image's format, size and weight, on one line under `label`. */
function imageParts(r: DetailReader, label: DashKey): DetailLine[] {
  const { t } = r.ctx
  const type = r.take('type')
  const [width, height, bytes] = [r.take('width'), r.take('height'), r.take('bytes')]
  const parts: string[] = []
  if (isText(type)) parts.push(type.replace(/^image\//, '').toUpperCase())
  if (isWhole(width) && isWhole(height)) parts.push(t('auPixels', { width, height }))
  if (isWhole(bytes)) parts.push(t('auKilobytes', { n: Math.max(1, Math.round(bytes / 1024)) }))
  // Each part isolated: a Latin format name and numbers keep their order in an Arabic line.
  const value = parts.map((part, i) => [i > 0 ? t('auSeparator') : '', <bdi>{part}</bdi>])
  return [{ label: t(label), value }]
}

/** The logo: a new one (its format, size and weight) or its removal. */
const logoAct: Render = (r) => {
  const { t } = r.ctx
  const change = r.take('change')
  if (change === 'removed') return [{ value: t('stLogoRemoved') }]
  if (change !== 'set') return change === undefined ? [] : [keyLine(r.ctx, 'change', change)]
  const type = r.take('type')
  const [width, height, bytes] = [r.take('width'), r.take('height'), r.take('bytes')]
  const parts: string[] = []
  if (isText(type)) parts.push(type.replace(/^image\//, '').toUpperCase())
  if (isWhole(width) && isWhole(height)) parts.push(t('auPixels', { width, height }))
  if (isWhole(bytes)) parts.push(t('auKilobytes', { n: Math.max(1, Math.round(bytes / 1024)) }))
  // Each part isolated: a Latin format name and numbers keep their order in an Arabic line.
  const value = parts.map((part, i) => [i > 0 ? t('auSeparator') : '', <bdi>{part}</bdi>])
  return [{ label: t('auLogoSet'), value }]
}

/** Every action's renderer. */
export const DETAILS: Record<AuditAction, Render> = {
  login: asKeys,
  login_failed: (r) => [...r.line('method'), ...when(r, 'step', 'code', 'auFailedCode')],
  logout: asKeys,
  logout_everywhere: asKeys,
  store_logout_everywhere: asKeys,
  password_changed: asKeys,
  twofactor_enabled: asKeys,
  twofactor_disabled: asKeys,
  recovery_code_used: (r) => {
    const left = r.detail('left')
    if (!isWhole(left)) return []
    r.take('left')
    return [{ value: r.ctx.t('accCodesText', { n: left }) }]
  },
  recovery_codes_renewed: asKeys,
  invite_created: asKeys,
  invite_revoked: asKeys,
  invite_accepted: asKeys,
  role_changed: (r) => {
    const lines = r.line('email')
    const [from, to] = [r.take('from'), r.take('to')]
    lines.push({
      label: r.ctx.t('pplRole'),
      value: r.ctx.t('eventMoved', { from: roleText(r.ctx, from), to: roleText(r.ctx, to) }),
    })
    return lines
  },
  user_removed: asKeys,
  key_created: keyAct,
  key_revoked: keyAct,
  link_created: linkAct,
  link_updated: linkAct,
  link_deactivated: linkAct,
  link_activated: linkAct,
  link_deleted: linkAct,
  product_created: productAct,
  product_updated: productAct,
  product_archived: productAct,
  product_unarchived: productAct,
  product_deleted: productAct,
  product_image_changed: productImageAct,
  promo_code_created: promoCodeAct,
  promo_code_updated: promoCodeAct,
  promo_code_deactivated: promoCodeAct,
  promo_code_activated: promoCodeAct,
  checkout_canceled: asKeys,
  payment_canceled: asKeys,
  checkout_created: checkoutAct,
  checkout_expired: checkoutAct,
  webhook_endpoint_created: asKeys,
  webhook_endpoint_updated: endpointAct,
  webhook_endpoint_deleted: asKeys,
  webhook_secret_rotated: asKeys,
  delivery_redelivered: asKeys,
  settings_changed: settingsAct,
  logo_changed: logoAct,
  export_downloaded: exportAct,
}

/** The lines of an entry's detail: its action's renderer, then the keys it left. */
export function detailLines(
  ctx: DashContext,
  action: string,
  detail: Record<string, unknown> | null,
  names: ReadonlyMap<string, string>,
): DetailLine[] {
  const values = detail && typeof detail === 'object' && !Array.isArray(detail) ? detail : {}
  const taken = new Set<string>()
  const take = (key: string) => {
    taken.add(key)
    return known(values, key)
  }
  const reader: DetailReader = {
    ctx,
    names,
    take,
    detail: (key) => known(values, key),
    line: (key) => {
      const value = take(key)
      return value === undefined ? [] : [keyLine(ctx, key, value)]
    },
  }
  const render = known<Render>(DETAILS, action) ?? asKeys
  const lines = render(reader)
  for (const [key, value] of Object.entries(values))
    if (!taken.has(key) && value !== null) lines.push(keyLine(ctx, key, value))
  return lines
}
