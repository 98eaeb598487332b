/**
 * The merchant dashboard under /dashboard. Handlers run in the order they are registered: the
 * language first, then the sign-in and invitation routes (open to everyone, they answer and stop),
 * then the session and form-token check that guards every route after it.
 */
import { Hono } from 'hono'
import { enforcePolicy } from '../auth/enforce.js'
import { accountRoutes } from '../dashboard/account-routes.js'
import { auditRoutes } from '../dashboard/audit-routes.js'
import { loginRoutes, logoutRoutes } from '../dashboard/auth-routes.js'
import { checkoutRoutes } from '../dashboard/checkout-routes.js'
import type { DashEnv } from '../dashboard/context.js'
import { inviteRoutes } from '../dashboard/invite-routes.js'
import { keyRoutes } from '../dashboard/key-routes.js'
import { linkFormRoutes } from '../dashboard/link-form-routes.js'
import { linkRoutes } from '../dashboard/link-routes.js'
import { overviewRoutes } from '../dashboard/overview-routes.js'
import { paymentRoutes } from '../dashboard/payment-routes.js'
import { peopleRoutes } from '../dashboard/people-routes.js'
import { productImageTooLargePage, productRoutes } from '../dashboard/product-routes.js'
import { promoCodeRoutes } from '../dashboard/promo-code-routes.js'
import { dashboardLanguage, requireSession } from '../dashboard/session.js'
import { logoTooLargePage, settingsRoutes } from '../dashboard/settings-routes.js'
import { tillRoutes } from '../dashboard/till-routes.js'
import { failingEndpointsBanner } from '../dashboard/webhook-data.js'
import { webhookRoutes } from '../dashboard/webhook-routes.js'
import { isImageFormPath, LOGO_FORM_PATH } from '../http/body-limits.js'
import { forbiddenPage, notAllowedPage, tooLargePage } from './error-pages.js'

export const dashboardRoutes = new Hono<DashEnv>()

dashboardRoutes.use(dashboardLanguage())
dashboardRoutes.route('/', loginRoutes)
dashboardRoutes.route('/', inviteRoutes)
// A phone photo sent as the logo or a product's image is refused beside its field, any other form
// over its limit here.
dashboardRoutes.use(
  requireSession(forbiddenPage, (c) =>
    c.req.path === LOGO_FORM_PATH
      ? logoTooLargePage(c)
      : isImageFormPath(c.req.path)
        ? productImageTooLargePage(c)
        : tooLargePage(c),
  ),
)
dashboardRoutes.use(enforcePolicy(notAllowedPage))
dashboardRoutes.use(failingEndpointsBanner())
dashboardRoutes.route('/', logoutRoutes)
dashboardRoutes.route('/', overviewRoutes)
dashboardRoutes.route('/', linkFormRoutes)
dashboardRoutes.route('/', linkRoutes)
dashboardRoutes.route('/', productRoutes)
dashboardRoutes.route('/', promoCodeRoutes)
dashboardRoutes.route('/', paymentRoutes)
dashboardRoutes.route('/', checkoutRoutes)
dashboardRoutes.route('/', webhookRoutes)
dashboardRoutes.route('/', peopleRoutes)
dashboardRoutes.route('/', accountRoutes)
dashboardRoutes.route('/', settingsRoutes)
dashboardRoutes.route('/', keyRoutes)
dashboardRoutes.route('/', auditRoutes)
dashboardRoutes.route('/', tillRoutes)
