/**
 * The till (point of sale) under /dashboard/till: the cashier types an amount, Charge makes a
 * single-use link that expires in minutes (`till_link_minutes`) and shows it as a QR code; the
 * screen follows the sale live — an event stream on Node, told by the confirmation itself, or a
 * small JSON status the page polls (Workers) — until the check endpoint has settled it. Cancel
 * turns the link off. The page always comes back to the cashier's open sale on reload.
 */
import { Hono } from 'hono'
import * as z from 'zod'
import { TillPage } from '../../views/dashboard/till-page.js'
import { TillPresetsPage } from '../../views/dashboard/till-presets-page.js'
import { TillReportPage } from '../../views/dashboard/till-report-page.js'
import { principalLabel } from '../auth/principal.js'
import { maySeeSale } from '../auth/visibility.js'
import { recordAudit } from '../data/audit.js'
import { setSetting } from '../data/settings.js'
import {
  getSale,
  openSaleOf,
  readTillLinkMinutes,
  readTillPresets,
  type Sale,
  salesBetween,
  TILL_PRESETS_KEY,
} from '../data/till.js'
import { listUsers } from '../data/users.js'
import { algiersDayStart, algiersNextDayStart, toAlgiersIso } from '../domain/algiers-time.js'
import {
  MAX_PRESETS,
  parsePresetLines,
  parseTillAmount,
  readPresets,
  tillLinkMinutes,
} from '../domain/till-sale.js'
import { formatAmount } from '../i18n/index.js'
import { readForm } from '../lib/form-body.js'
import { localHostOf } from '../lib/local-address.js'
import { centimesToDzdNumber } from '../lib/money.js'
import { createLinkFromBody, updateLinkFromBody } from '../links/service.js'
import { qrMatrix, qrSvg } from '../qr/qr.js'
import { type DashC, type DashEnv, dashContext } from './context.js'
import { placeProblems, translateProblems } from './link-form-routes.js'
import type { DashKey } from './messages.js'
import { summariseSales } from './till-report.js'
import { type SaleView, saleView } from './till-sale.js'

export const tillRoutes = new Hono<DashEnv>()

const TILL = '/dashboard/till'
const NOTE_MAX = 100

const AMOUNT_MESSAGES: Record<string, DashKey> = {
  amount_required: 'errRequired',
  bad_dzd: 'errAmountText',
  amount_too_low: 'errMinAmount',
  amount_too_high: 'errMaxAmount',
}

function current(c: DashC, sale: Sale): SaleView {
  const ctx = { t: c.get('dt'), lang: c.get('dashLang') }
  return saleView(ctx, sale, c.get('config').publicUrl, c.get('clock')())
}

/**
 * Sale `id` when the request's principal may see it: its own cashier, a manager or the owner
 * (src/auth/visibility.ts). Another cashier's sale is answered as one that does not exist.
 */
async function saleFor(c: DashC, id: string): Promise<Sale | null> {
  const sale = await getSale(c.get('db'), id)
  return sale && maySeeSale(c.get('principal')!, sale.link.createdBy) ? sale : null
}

async function renderTill(
  c: DashC,
  state: { sale?: SaleView; amount?: string; note?: string; errors?: Record<string, string> },
  status: 200 | 400 = 200,
) {
  const ctx = { ...dashContext(c), switchPath: state.sale ? `${TILL}?sale=${state.sale.id}` : TILL }
  const qr = state.sale ? qrSvg(qrMatrix(state.sale.url), { title: state.sale.url }) : undefined
  // The cashier is told, as on a link's page and its poster, when the QR code leads nowhere.
  const publicUrl = c.get('config').publicUrl
  return c.html(
    <TillPage
      ctx={ctx}
      sale={state.sale}
      qr={qr}
      amount={state.amount ?? ''}
      note={state.note ?? ''}
      errors={state.errors ?? {}}
      live={c.get('paymentChanges') && c.get('saleEvents') ? 'stream' : 'poll'}
      presets={state.sale ? [] : readPresets(await readTillPresets(c.get('db')))}
      minutes={tillLinkMinutes(await readTillLinkMinutes(c.get('db')))}
      localHost={localHostOf(publicUrl)}
    />,
    status,
  )
}

tillRoutes.get('/till', async (c) => {
  const db = c.get('db')
  const id = c.req.query('sale')
  if (id !== undefined) {
    const sale = await saleFor(c, id)
    if (sale) return renderTill(c, { sale: current(c, sale) })
  }
  if (c.req.query('new') === undefined) {
    const open = await openSaleOf(db, principalLabel(c.get('principal')!), c.get('clock')())
    if (open) return renderTill(c, { sale: current(c, open) })
  }
  return renderTill(c, {})
})

tillRoutes.post('/till/sales', async (c) => {
  const form = await readForm(c)
  const amountText = typeof form.amount === 'string' ? form.amount.slice(0, 64) : ''
  const note = typeof form.note === 'string' ? form.note.trim().slice(0, NOTE_MAX * 4) : ''
  const t = c.get('dt')
  const errors: Record<string, string> = {}
  const amount = parseTillAmount(amountText)
  if (!amount.ok) errors.amount = t(AMOUNT_MESSAGES[amount.code] ?? 'errAmountText')
  if (note.length > NOTE_MAX) errors.note = t('errMaxChars', { max: NOTE_MAX })
  if (!amount.ok || errors.note) return renderTill(c, { amount: amountText, note, errors }, 400)
  const principal = c.get('principal')!
  const now = c.get('clock')()
  const minutes = tillLinkMinutes(await readTillLinkMinutes(c.get('db')))
  const result = await createLinkFromBody(
    c.var,
    {
      title: t('tillSaleTitle'),
      description: note === '' ? null : note,
      amount: centimesToDzdNumber(amount.centimes),
      max_payments: 1,
      expires_at: toAlgiersIso(now + minutes * 60_000),
      language: c.get('config').defaultLanguage,
    },
    { source: 'till', createdBy: principalLabel(principal) },
  )
  if (!result.ok) {
    // The note is the link's description; the amount was checked above, so little is left.
    const problems = result.kind === 'invalid' ? placeProblems(result.problems, []) : {}
    const shown = translateProblems(problems, t)
    const refused: Record<string, string> = shown.description
      ? { note: shown.description }
      : { amount: shown.amount ?? t('errInvalid') }
    return renderTill(c, { amount: amountText, note, errors: refused }, 400)
  }

  await recordAudit(c.get('db'), {
    at: now,
    action: 'link_created',
    actor: principal,
    target: { kind: 'link', id: result.link.id },
    detail: { source: 'till', amount: amount.centimes },
  })
  return c.redirect(`${TILL}?sale=${encodeURIComponent(result.link.id)}`, 303)
})

tillRoutes.post('/till/sales/:id/cancel', async (c) => {
  const db = c.get('db')
  const sale = await saleFor(c, c.req.param('id'))
  if (!sale) return c.redirect(TILL, 303)
  // A paid sale stays as it is; anything else stops taking payments.
  if (sale.link.active && current(c, sale).state !== 'paid') {
    await updateLinkFromBody(c.var, sale.link.id, { active: false })
    await recordAudit(db, {
      at: c.get('clock')(),
      action: 'link_deactivated',
      actor: c.get('principal')!,
      target: { kind: 'link', id: sale.link.id },
      detail: { source: 'till' },
    })
  }
  return c.redirect(`${TILL}?new`, 303)
})

/** The sale's state as JSON: what the page polls where no event stream is (Workers). */
tillRoutes.get('/till/sales/:id/status', async (c) => {
  const sale = await saleFor(c, c.req.param('id'))
  if (!sale) return c.json({ error: 'not_found' }, 404)
  c.header('Cache-Control', 'no-store')
  return c.json(current(c, sale))
})

/**
 * The sale's state as Server-Sent Events (Node, src/dashboard/till-events.ts): one event now, then
 * one at each change. 404 where the runtime has no word of changes (Workers).
 */
tillRoutes.get('/till/sales/:id/events', async (c) => {
  const changes = c.get('paymentChanges')
  const events = c.get('saleEvents')
  if (!changes || !events) return c.json({ error: 'no_stream', poll: 'status' }, 404)
  const id = c.req.param('id')
  const first = await saleFor(c, id)
  if (!first) return c.json({ error: 'not_found' }, 404)
  const db = c.get('db')
  const read = async () => {
    const sale = await getSale(db, id)
    return sale ? current(c, sale) : null
  }
  const body = events(changes, id, read, current(c, first))
  return c.body(body, 200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Accel-Buffering': 'no',
  })
})

/**
 * What the report calls each maker of a sale: a sale keeps its maker's label (`links.created_by`,
 * the person's e-mail, or the admin token's), so each person is named by their display name, the
 * admin token in the page's language, and the e-mail of a person removed since, or without a
 * name, stays as it is.
 */
async function cashierNames(c: DashC): Promise<Map<string, string>> {
  const names = new Map<string, string>([
    [principalLabel({ kind: 'admin' }), c.get('dt')('auditAdminToken')],
  ])
  for (const user of await listUsers(c.get('db'))) {
    const name = user.name.trim()
    if (name !== '') names.set(user.email, name)
  }
  return names
}

const reportQuery = z.object({
  day: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
})

/** Today's till sales (an Algiers day; `?day=YYYY-MM-DD` another), per cashier and per outcome. */
tillRoutes.get('/till/report', async (c) => {
  const query = reportQuery.safeParse(c.req.query())
  const now = c.get('clock')()
  const today = toAlgiersIso(now).slice(0, 10)
  const day = query.success ? (query.data.day ?? today) : today
  const from = algiersDayStart(day)
  const to = algiersNextDayStart(day)
  const ctx = dashContext(c)
  if (!query.success || from === null || to === null) {
    return c.html(
      <TillReportPage
        ctx={ctx}
        day={today}
        summary={null}
        error={ctx.t('badFilter', { field: 'day' })}
        nameOf={(cashier) => cashier}
      />,
      400,
    )
  }
  const sales = await salesBetween(c.get('db'), from, to)
  const names = await cashierNames(c)
  return c.html(
    <TillReportPage
      ctx={ctx}
      day={day}
      summary={summariseSales(sales, now)}
      error={undefined}
      nameOf={(cashier) => names.get(cashier) ?? cashier}
    />,
  )
})

const PRESET_LINE_CHARS = 80

/** The preset items the till offers, as lines to edit (`links.write`). */
tillRoutes.get('/till/presets', async (c) => {
  const presets = readPresets(await readTillPresets(c.get('db')))
  const ctx = dashContext(c)
  const text = presets
    .map((p) => `${p.name}; ${formatAmount(p.price, 'en').replace(/[^\d.]/g, '')}`)
    .join('\n')
  return c.html(
    <TillPresetsPage
      ctx={ctx}
      text={text}
      error={undefined}
      saved={c.req.query('done') === 'saved'}
    />,
  )
})

tillRoutes.post('/till/presets', async (c) => {
  const form = await readForm(c)
  const text = typeof form.presets === 'string' ? form.presets : ''
  const ctx = { ...dashContext(c), switchPath: '/dashboard/till/presets' }
  const parsed =
    text.length > PRESET_LINE_CHARS * MAX_PRESETS * 2
      ? { ok: false as const, line: 1 }
      : parsePresetLines(text)
  if (!parsed.ok) {
    return c.html(
      <TillPresetsPage
        ctx={ctx}
        text={text.slice(0, PRESET_LINE_CHARS * MAX_PRESETS * 2)}
        error={ctx.t('tillPresetsBadLine', { line: parsed.line, max: MAX_PRESETS })}
        saved={false}
      />,
      400,
    )
  }
  await setSetting(c.get('db'), TILL_PRESETS_KEY, JSON.stringify(parsed.presets), c.get('clock')())
  await recordAudit(c.get('db'), {
    at: c.get('clock')(),
    action: 'settings_changed',
    actor: c.get('principal')!,
    detail: { key: TILL_PRESETS_KEY, items: parsed.presets.length },
  })
  return c.redirect('/dashboard/till/presets?done=saved', 303)
})
