/**
 * The simulator's own hold on request bodies: every POST (JSON of both interfaces, the card page's
 * forms, the fault switches) and the GET bodies of `get_products` are read up to one limit, since a
 * standalone simulator is as public as its port.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { bodyLimit } from '../lib/bounded-body.js'

/** The largest body the simulator reads: its bodies are a few hundred bytes. */
export const SIMULATOR_BODY_LIMIT = 64 * 1024

/** The simulator's 413 answer, in the direct interface's error shape. */
export function bodyTooLarge(c: Context): Response {
  return c.json(
    { status: 'error', message: `The body is larger than ${SIMULATOR_BODY_LIMIT} bytes.` },
    413,
  )
}

/** Reads each request's body up to the limit before any route does, and puts it back in memory. */
export function holdSimulatorBody(): MiddlewareHandler {
  return bodyLimit(SIMULATOR_BODY_LIMIT, bodyTooLarge)
}
