/** The operations of the OpenAPI document, path by path: each resource's, then this document's. */

import { apiKeyPaths } from './api-keys/openapi.js'
import { auditPaths } from './audit/openapi.js'
import { checkoutPaths } from './checkouts/openapi.js'
import { linkPaths } from './links/openapi.js'
import { withIdempotencyKeys } from './openapi-idempotency.js'
import type { OpenApiPathItem } from './openapi-types.js'
import { paymentPaths } from './payments/openapi.js'
import { productPaths } from './products/openapi.js'
import { promoCodePaths } from './promo-codes/openapi.js'
import { webhookEndpointPaths } from './webhook-endpoints/openapi.js'

/** Every path of the API, keyed as the app serves it; every write takes an Idempotency-Key. */
export function apiPaths(): Record<string, OpenApiPathItem> {
  return withIdempotencyKeys({
    ...linkPaths(),
    ...paymentPaths(),
    ...productPaths(),
    ...promoCodePaths(),
    ...checkoutPaths(),
    ...webhookEndpointPaths(),
    ...apiKeyPaths(),
    ...auditPaths(),
    '/api/v1/openapi.json': {
      get: {
        operationId: 'getOpenApiDocument',
        summary: 'This document',
        description: 'OpenAPI 3.1; needs no token.',
        tags: ['Document'],
        security: [],
        responses: {
          '200': {
            description: 'The OpenAPI document.',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
        },
      },
    },
  })
}
