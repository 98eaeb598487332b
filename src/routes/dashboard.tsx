import { Hono } from 'hono'
import type { AppEnv } from '../env.js'

/** The merchant dashboard under /dashboard (filled in by the dashboard module). */
export const dashboardRoutes = new Hono<AppEnv>()
