/**
 * What the dashboard's webhook pages read beyond the outbox's own queries: each endpoint's latest
 * delivery and the attempts of a page of deliveries, one query each; and the failing endpoints
 * for the banner every signed-in page shows.
 */
import { asc, inArray, sql } from 'drizzle-orm'
import type { MiddlewareHandler } from 'hono'
import {
  type Delivery,
  type DeliveryAttempt,
  deliveries,
  deliveryAttempts,
} from '../../db/schema.js'
import type { Db } from '../data/db.js'
import { listFailingEndpoints } from '../outbound-webhooks/endpoints.js'
import type { DashEnv } from './context.js'

/**
 * The latest delivery of each endpoint, by endpoint id. One query: a lookup per endpoint on
 * (endpoint_id, id), and there are at most MAX_ENDPOINTS endpoints.
 */
export async function latestDeliveries(db: Db): Promise<Map<string, Delivery>> {
  const rows = await db
    .select()
    .from(deliveries)
    .where(
      inArray(
        deliveries.id,
        sql`(SELECT (SELECT max(d.id) FROM ${deliveries} AS d WHERE d.endpoint_id = e.id) FROM webhook_endpoints AS e)`,
      ),
    )
  return new Map(rows.map((d) => [d.endpointId ?? '', d]))
}

/** The attempts of these deliveries, oldest first, by delivery id. */
export async function attemptsByDelivery(
  db: Db,
  ids: number[],
): Promise<Map<number, DeliveryAttempt[]>> {
  const out = new Map<number, DeliveryAttempt[]>()
  if (ids.length === 0) return out
  const rows = await db
    .select()
    .from(deliveryAttempts)
    .where(inArray(deliveryAttempts.deliveryId, ids))
    .orderBy(asc(deliveryAttempts.id))
  for (const row of rows) {
    const list = out.get(row.deliveryId) ?? []
    list.push(row)
    out.set(row.deliveryId, list)
  }
  return out
}

/**
 * Puts the failing endpoints where the layout's banner finds them, for every signed-in request.
 * It costs one query on webhook_endpoints, a table of at most MAX_ENDPOINTS (20) rows: read whole,
 * it is cheaper than an index to keep.
 */
export function failingEndpointsBanner(): MiddlewareHandler<DashEnv> {
  return async (c, next) => {
    const failing = await listFailingEndpoints(c.get('db'))
    c.set(
      'failingEndpoints',
      failing.map((e) => ({ id: e.id, url: e.url })),
    )
    await next()
  }
}
