/**
 * The audit log page (/dashboard/audit): newest first, a page at a time, filtered by kind of act,
 * by who acted and by Algiers days. A bad filter is named and nothing is listed.
 */
import { asc } from 'drizzle-orm'
import { Hono } from 'hono'
import { users } from '../../db/schema.js'
import { type AuditFilters, AuditPage } from '../../views/dashboard/audit-page.js'
import { listApiKeys } from '../data/api-keys.js'
import {
  type AuditFilter,
  decodeAuditCursor,
  encodeAuditCursor,
  listAudit,
} from '../data/audit-read.js'
import { algiersDayStart, algiersNextDayStart } from '../domain/algiers-time.js'
import { AUDIT_ACTIONS, AUDIT_GROUPS, type AuditGroup } from '../domain/audit-actions.js'
import { type DashC, type DashEnv, dashContext } from './context.js'

const PAGE_SIZE = 50
const ACTOR = /^(?:admin|[A-Za-z0-9_]{1,64})$/

/** The filters as typed, and what they mean; `invalid` names the ones that are not filters. */
function parseFilters(c: DashC): { values: AuditFilters; filter: AuditFilter; invalid: string[] } {
  const q = (name: string) => (c.req.query(name) ?? '').trim()
  const values: AuditFilters = {
    group: q('group'),
    actor: q('actor'),
    from: q('from'),
    to: q('to'),
  }
  const filter: AuditFilter = {}
  const invalid: string[] = []
  if (values.group !== '') {
    if ((AUDIT_GROUPS as string[]).includes(values.group))
      filter.actions = AUDIT_ACTIONS[values.group as AuditGroup]
    else invalid.push('group')
  }
  if (values.actor !== '') {
    if (ACTOR.test(values.actor))
      filter.actor = values.actor === 'admin' ? { kind: 'admin' } : { id: values.actor }
    else invalid.push('actor')
  }
  if (values.from !== '') {
    const from = algiersDayStart(values.from)
    if (from === null) invalid.push('from')
    else filter.from = from
  }
  if (values.to !== '') {
    const to = algiersNextDayStart(values.to)
    if (to === null) invalid.push('to')
    else filter.to = to
  }
  const cursor = q('cursor')
  if (cursor !== '') {
    const after = decodeAuditCursor(cursor)
    if (after) filter.after = after
    else invalid.push('cursor')
  }
  return { values, filter, invalid }
}

/** The query string of the filters (empty ones left out), with `extra`. */
function filterQuery(values: AuditFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries({ ...values, ...extra })) if (v !== '') params.set(k, v)
  return params.size > 0 ? `?${params}` : ''
}

export const auditRoutes = new Hono<DashEnv>()

auditRoutes.get('/audit', async (c) => {
  const db = c.get('db')
  const { values, filter, invalid } = parseFilters(c)
  const [keys, people] = await Promise.all([
    listApiKeys(db),
    db.select({ id: users.id, email: users.email }).from(users).orderBy(asc(users.email)),
  ])
  const rows = invalid.length > 0 ? [] : await listAudit(db, filter, PAGE_SIZE + 1)
  const entries = rows.slice(0, PAGE_SIZE)
  const last = entries.at(-1)
  return c.html(
    <AuditPage
      ctx={dashContext(c)}
      values={values}
      invalid={invalid}
      entries={entries}
      actors={[
        ...people.map((p) => ({ id: p.id, label: p.email })),
        ...keys.map((k) => ({ id: k.id, label: `${k.name} (${k.prefix}…)` })),
      ]}
      nextHref={
        rows.length > PAGE_SIZE && last
          ? `/dashboard/audit${filterQuery(values, { cursor: encodeAuditCursor(last) })}`
          : null
      }
      firstHref={filter.after ? `/dashboard/audit${filterQuery(values)}` : null}
    />,
    invalid.length > 0 ? 400 : 200,
  )
})
