/** `/api/v1/audit`: the audit log, newest first, filtered like the dashboard's page. */
import { Hono } from 'hono'
import { decodeAuditCursor, encodeAuditCursor, listAudit } from '../../data/audit-read.js'
import type { AppEnv } from '../../deps.js'
import { algiersDayStart, algiersNextDayStart } from '../../domain/algiers-time.js'
import { AUDIT_ACTIONS } from '../../domain/audit-actions.js'
import { invalidFields } from '../errors.js'
import { parseQuery } from '../query.js'
import { toAuditObject } from './objects.js'
import { listAuditQuery } from './schemas.js'

export const auditApiRoutes = new Hono<AppEnv>()

auditApiRoutes.get('/audit', async (c) => {
  const query = parseQuery(c, listAuditQuery)
  if (!query.ok) return invalidFields(c, 'invalid_query', query.fields)
  const q = query.value
  const limit = q.limit ?? 50
  const rows = await listAudit(
    c.get('db'),
    {
      ...(q.group ? { actions: AUDIT_ACTIONS[q.group] } : {}),
      ...(q.actor ? { actor: q.actor === 'admin' ? { kind: 'admin' } : { id: q.actor } } : {}),
      ...(q.from ? { from: algiersDayStart(q.from)! } : {}),
      ...(q.to ? { to: algiersNextDayStart(q.to)! } : {}),
      ...(q.cursor ? { after: decodeAuditCursor(q.cursor)! } : {}),
    },
    limit + 1,
  )
  const page = rows.slice(0, limit)
  const more = rows.length > limit
  const last = page.at(-1)
  return c.json({
    data: page.map(toAuditObject),
    has_more: more,
    next_cursor: more && last ? encodeAuditCursor(last) : null,
  })
})
