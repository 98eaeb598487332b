import { Hono } from 'hono'
import type { AppEnv } from '../env.js'

/** The merchant JSON API under /api (filled in by the API module). */
export const apiRoutes = new Hono<AppEnv>()
