/**
 * The merchant dashboard under /dashboard. Handlers run in the order they are registered: the
 * language first, then the login routes (open to everyone, they answer and stop), then the session
 * and form-token check that guards every route after it.
 */
import { Hono } from 'hono'
import { enforcePolicy } from '../auth/enforce.js'
import { loginRoutes, logoutRoutes } from '../dashboard/auth-routes.js'
import type { DashEnv } from '../dashboard/context.js'
import { linkFormRoutes } from '../dashboard/link-form-routes.js'
import { linkRoutes } from '../dashboard/link-routes.js'
import { overviewRoutes } from '../dashboard/overview-routes.js'
import { paymentRoutes } from '../dashboard/payment-routes.js'
import { dashboardLanguage, requireSession } from '../dashboard/session.js'
import { tillRoutes } from '../dashboard/till-routes.js'
import { failingEndpointsBanner } from '../dashboard/webhook-data.js'
import { webhookRoutes } from '../dashboard/webhook-routes.js'
import { forbiddenPage, notAllowedPage, tooLargePage } from './error-pages.js'

export const dashboardRoutes = new Hono<DashEnv>()

dashboardRoutes.use(dashboardLanguage())
dashboardRoutes.route('/', loginRoutes)
dashboardRoutes.use(requireSession(forbiddenPage, tooLargePage))
dashboardRoutes.use(enforcePolicy(notAllowedPage))
dashboardRoutes.use(failingEndpointsBanner())
dashboardRoutes.route('/', logoutRoutes)
dashboardRoutes.route('/', overviewRoutes)
dashboardRoutes.route('/', linkFormRoutes)
dashboardRoutes.route('/', linkRoutes)
dashboardRoutes.route('/', paymentRoutes)
dashboardRoutes.route('/', webhookRoutes)
dashboardRoutes.route('/', tillRoutes)
