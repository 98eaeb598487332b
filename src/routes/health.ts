/** `GET /healthz`: liveness, with the database reachable. */
import { sql } from 'drizzle-orm'
import { Hono } from 'hono'
import type { AppEnv } from '../deps.js'

export const healthRoutes = new Hono<AppEnv>()

healthRoutes.get('/healthz', async (c) => {
  try {
    await c.get('db').run(sql`select 1`)
    return c.json({ status: 'ok', mode: c.get('config').gatewayMode })
  } catch {
    return c.json({ status: 'error', database: 'unreachable' }, 503)
  }
})
