/**
 * The merchant JSON API under /api: `/api/v1/...` behind the admin token or an API key, its OpenAPI document at
 * `/api/v1/openapi.json` and a docs page at `/api/docs` (both public).
 */
import type { Context } from 'hono'
import { Hono } from 'hono'
import { apiKeyApiRoutes } from '../api/api-keys/routes.js'
import { auditApiRoutes } from '../api/audit/routes.js'
import { requireApiKey } from '../api/auth.js'
import { checkoutApiRoutes } from '../api/checkouts/routes.js'
import { apiDocsPage, openApiJson } from '../api/docs.js'
import { apiError } from '../api/errors.js'
import { idempotency } from '../api/idempotency.js'
import { linkApiRoutes } from '../api/links/routes.js'
import { paymentApiRoutes } from '../api/payments/routes.js'
import { productApiRoutes } from '../api/products/routes.js'
import { promoCodeApiRoutes } from '../api/promo-codes/routes.js'
import { webhookEndpointApiRoutes } from '../api/webhook-endpoints/routes.js'
import { enforcePolicy } from '../auth/enforce.js'
import type { AppEnv } from '../deps.js'

/** The merchant JSON API under /api. */
export const apiRoutes = new Hono<AppEnv>()

// Registered before the token check, which therefore never runs for these two.
apiRoutes.get('/v1/openapi.json', openApiJson)
apiRoutes.get('/docs', apiDocsPage)

apiRoutes.use('/v1/*', requireApiKey())
apiRoutes.use(
  '/v1/*',
  enforcePolicy((c, missing) =>
    apiError(c, 403, 'forbidden', `This key or its role does not allow this (needs ${missing}).`),
  ),
)
// After the key and the policy: a refused request claims no Idempotency-Key.
apiRoutes.use('/v1/*', idempotency())
apiRoutes.route('/v1', linkApiRoutes)
apiRoutes.route('/v1', paymentApiRoutes)
apiRoutes.route('/v1', productApiRoutes)
apiRoutes.route('/v1', promoCodeApiRoutes)
apiRoutes.route('/v1', checkoutApiRoutes)
apiRoutes.route('/v1', webhookEndpointApiRoutes)
apiRoutes.route('/v1', apiKeyApiRoutes)
apiRoutes.route('/v1', auditApiRoutes)

const methodNotAllowed = (allow: string) => (c: Context<AppEnv>) => {
  c.header('Allow', allow)
  return apiError(c, 405, 'method_not_allowed', `This route answers ${allow} only.`)
}
apiRoutes.all('/v1/links', methodNotAllowed('GET, POST'))
apiRoutes.all('/v1/links/:id', methodNotAllowed('GET, PATCH, DELETE'))
apiRoutes.all('/v1/payments', methodNotAllowed('GET'))
apiRoutes.all('/v1/payments/:id', methodNotAllowed('GET'))
apiRoutes.all('/v1/products', methodNotAllowed('GET, POST'))
apiRoutes.all('/v1/products/:id', methodNotAllowed('GET, PATCH, DELETE'))
apiRoutes.all('/v1/promo-codes', methodNotAllowed('GET, POST'))
apiRoutes.all('/v1/promo-codes/:id', methodNotAllowed('GET, PATCH'))
apiRoutes.all('/v1/checkouts', methodNotAllowed('GET, POST'))
apiRoutes.all('/v1/checkouts/:id', methodNotAllowed('GET'))
apiRoutes.all('/v1/checkouts/:id/expire', methodNotAllowed('POST'))
apiRoutes.all('/v1/webhook-endpoints', methodNotAllowed('GET, POST'))
apiRoutes.all('/v1/webhook-endpoints/:id', methodNotAllowed('GET, PATCH, DELETE'))
apiRoutes.all('/v1/api-keys', methodNotAllowed('GET, POST'))
apiRoutes.all('/v1/api-keys/:id', methodNotAllowed('DELETE'))
apiRoutes.all('/v1/audit', methodNotAllowed('GET'))
