/**
 * The shop's checkouts in the dashboard: the list (newest first, by state and by the shop's
 * reference, a page at a time) and canceling an open one, which switches its page off (migration
 * 0025's trigger) in the one conditional UPDATE of closeCheckout.
 */
import { Hono } from 'hono'
import { CHECKOUT_STATUSES, type CheckoutStatus } from '../../db/schema.js'
import { CheckoutsPage } from '../../views/dashboard/checkouts-page.js'
import { DashMessagePage } from '../../views/dashboard/layout.js'
import { auditRequest } from '../auth/audit-request.js'
import { allows } from '../auth/principal.js'
import { closeCheckout, getCheckoutById, listCheckouts } from '../data/checkouts.js'
import { decodeCursor } from '../data/paging.js'
import { type DashC, type DashEnv, dashContext } from './context.js'

const PAGE_SIZE = 50
/** A checkout's reference is at most 100 characters (product.md, "Shops"). */
const REFERENCE_MAX = 100

export const checkoutRoutes = new Hono<DashEnv>()

/** `?status=`: a checkout state, '' for all, null for anything else (refused, listing nothing). */
function statusFilter(text: string | undefined): CheckoutStatus | '' | null {
  const s = (text ?? '').trim()
  if (s === '') return ''
  return (CHECKOUT_STATUSES as readonly string[]).includes(s) ? (s as CheckoutStatus) : null
}

async function listPage(c: DashC, notice?: { text: string; kind?: 'ok' | 'error' }, code = 200) {
  const cursorText = c.req.query('cursor')
  const cursor = cursorText ? (decodeCursor(cursorText) ?? undefined) : undefined
  const status = statusFilter(c.req.query('status'))
  // The shop's reference, matched whole (it is the shop's order id, not words to search in).
  const reference = (c.req.query('reference') ?? '').trim().slice(0, REFERENCE_MAX)
  const page =
    status === null
      ? { items: [], nextCursor: null }
      : await listCheckouts(c.get('db'), {
          limit: PAGE_SIZE,
          ...(cursor ? { cursor } : {}),
          ...(status ? { status } : {}),
          ...(reference ? { reference } : {}),
        })
  const params = new URLSearchParams()
  if (status) params.set('status', status)
  if (reference) params.set('reference', reference)
  const base = `/dashboard/checkouts${params.size > 0 ? `?${params}` : ''}`
  const more = (next: string) =>
    `${base}${params.size > 0 ? '&' : '?'}cursor=${encodeURIComponent(next)}`
  const done = c.req.query('done') === 'canceled'
  return c.html(
    <CheckoutsPage
      ctx={dashContext(c)}
      checkouts={page.items}
      filters={{ status, reference }}
      nextHref={page.nextCursor ? more(page.nextCursor) : null}
      firstHref={cursor ? base : null}
      canCancel={allows(c.get('principal')!, 'links.write')}
      notice={notice ?? (done ? { text: c.get('dt')('checkoutCanceledNotice') } : undefined)}
    />,
    status === null ? 400 : (code as 200 | 409),
  )
}

checkoutRoutes.get('/checkouts', (c) => listPage(c))

checkoutRoutes.post('/checkouts/:id/cancel', async (c) => {
  const id = c.req.param('id')
  // One conditional UPDATE: a checkout paid, expired or being paid meanwhile stays as it is.
  const closed = await closeCheckout(c.get('db'), id, 'canceled', c.get('clock')())
  if (closed) {
    await auditRequest(c, {
      action: 'checkout_canceled',
      target: { kind: 'checkout', id: closed.id },
      detail: { reference: closed.reference, amount: closed.amount },
    })
    return c.redirect('/dashboard/checkouts?done=canceled', 303)
  }
  const dt = c.get('dt')
  if (!(await getCheckoutById(c.get('db'), id))) {
    return c.html(
      <DashMessagePage
        ctx={dashContext(c)}
        title={dt('checkoutNotFound')}
        text={dt('checkoutNotFound')}
        action={{ href: '/dashboard/checkouts', label: dt('navCheckouts') }}
      />,
      404,
    )
  }
  return listPage(c, { text: dt('checkoutCannotCancel'), kind: 'error' }, 409)
})
