/** The promo code operations of the OpenAPI document, as routes.ts serves them. */

import {
  createPromoCodeExamples,
  promoCodeExample,
  updatePromoCodeExamples,
} from '../openapi-examples.js'
import { json, responseRef } from '../openapi-responses.js'
import { idParameter, queryParameters, schemaRef } from '../openapi-schemas.js'
import type { OpenApiPathItem } from '../openapi-types.js'
import { listPromoCodesQuery } from './schemas.js'

const body = (schema: string, examples: Record<string, { summary: string; value: unknown }>) => ({
  required: true,
  content: { 'application/json': { schema: schemaRef(schema), examples } },
})

/** The paths under /api/v1/promo-codes. */
export function promoCodePaths(): Record<string, OpenApiPathItem> {
  return {
    '/api/v1/promo-codes': {
      get: {
        operationId: 'listPromoCodes',
        summary: 'List promo codes',
        description: 'Newest first; `active` keeps the codes switched on or off.',
        tags: ['Promo codes'],
        parameters: queryParameters(listPromoCodesQuery, { limit: 20 }),
        responses: {
          '200': {
            description: 'A page of promo codes.',
            content: json('PromoCodeList', {
              data: [promoCodeExample],
              has_more: false,
              next_cursor: null,
            }),
          },
          '400': responseRef('BadRequest'),
          '401': responseRef('Unauthorized'),
          '403': responseRef('Forbidden'),
          '429': responseRef('Throttled'),
        },
      },
      post: {
        operationId: 'createPromoCode',
        summary: 'Create a promo code',
        description:
          'Give `code` (unique whatever its case) and exactly one of `percent_off` and `amount_off` (DZD). A link or checkout takes codes with `allow_promo_codes: true`. Rate limited.',
        tags: ['Promo codes'],
        requestBody: body('CreatePromoCodeBody', createPromoCodeExamples),
        responses: {
          '201': {
            description: 'The new promo code.',
            headers: {
              Location: {
                description: 'The URL of the new promo code.',
                schema: { type: 'string' },
              },
            },
            content: json('PromoCode', promoCodeExample),
          },
          '400': responseRef('BadRequest'),
          '401': responseRef('Unauthorized'),
          '403': responseRef('Forbidden'),
          '409': responseRef('PromoCodeTaken'),
          '413': responseRef('PayloadTooLarge'),
          '415': responseRef('UnsupportedMediaType'),
          '429': responseRef('RateLimited'),
        },
      },
    },
    '/api/v1/promo-codes/{id}': {
      get: {
        operationId: 'getPromoCode',
        summary: 'Read a promo code',
        tags: ['Promo codes'],
        parameters: [idParameter('promo code', promoCodeExample.id)],
        responses: {
          '200': { description: 'The promo code.', content: json('PromoCode', promoCodeExample) },
          '401': responseRef('Unauthorized'),
          '403': responseRef('Forbidden'),
          '404': responseRef('NotFound'),
          '429': responseRef('Throttled'),
        },
      },
      patch: {
        operationId: 'updatePromoCode',
        summary: 'Change a promo code',
        description:
          'Takes the fields of the create body, all optional; fields left out are kept, `null` clears an optional one. To switch the kind of discount, send the new one and `null` for the other. `active: false` switches the code off. Rate limited.',
        tags: ['Promo codes'],
        parameters: [idParameter('promo code', promoCodeExample.id)],
        requestBody: body('UpdatePromoCodeBody', updatePromoCodeExamples),
        responses: {
          '200': {
            description: 'The changed promo code.',
            content: json('PromoCode', promoCodeExample),
          },
          '400': responseRef('BadRequest'),
          '401': responseRef('Unauthorized'),
          '403': responseRef('Forbidden'),
          '404': responseRef('NotFound'),
          '409': responseRef('PromoCodeTaken'),
          '413': responseRef('PayloadTooLarge'),
          '415': responseRef('UnsupportedMediaType'),
          '429': responseRef('RateLimited'),
        },
      },
    },
  }
}
