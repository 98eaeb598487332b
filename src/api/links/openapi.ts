/** The link operations of the OpenAPI document, as routes.ts serves them. */

import { createLinkExamples, linkExample, updateLinkExamples } from '../openapi-examples.js'
import { json, responseRef } from '../openapi-responses.js'
import { idParameter, queryParameters, schemaRef } from '../openapi-schemas.js'
import type { OpenApiPathItem } from '../openapi-types.js'
import { listLinksQuery } from './schemas.js'

const body = (schema: string, examples: Record<string, { summary: string; value: unknown }>) => ({
  required: true,
  content: { 'application/json': { schema: schemaRef(schema), examples } },
})

/** The paths under /api/v1/links. */
export function linkPaths(): Record<string, OpenApiPathItem> {
  return {
    '/api/v1/links': {
      get: {
        operationId: 'listLinks',
        summary: 'List links',
        description:
          'Newest first, with what each link has collected (`paid_count`, `paid_total`); `q` searches the titles.',
        tags: ['Links'],
        parameters: queryParameters(listLinksQuery, { limit: 20 }),
        responses: {
          '200': {
            description: 'A page of links.',
            content: json('LinkList', { data: [linkExample], has_more: false, next_cursor: null }),
          },
          '400': responseRef('BadRequest'),
          '401': responseRef('Unauthorized'),
          '403': responseRef('Forbidden'),
          '429': responseRef('Throttled'),
        },
      },
      post: {
        operationId: 'createLink',
        summary: 'Create a link',
        description:
          'Give `title` and exactly one kind of pricing: `amount` (fixed), `amount_min`/`amount_max` (open; the minimum defaults to 50 DZD), `invoice_id` with `amount` (an existing gateway invoice), or `invoice_items` (Paylinks creates the gateway invoice; the amount is their total). Rate limited.',
        tags: ['Links'],
        requestBody: body('CreateLinkBody', createLinkExamples),
        responses: {
          '201': {
            description: 'The new link.',
            headers: {
              Location: { description: 'The URL of the new link.', schema: { type: 'string' } },
            },
            content: json('Link', linkExample),
          },
          '400': responseRef('BadRequest'),
          '401': responseRef('Unauthorized'),
          '403': responseRef('Forbidden'),
          '413': responseRef('PayloadTooLarge'),
          '415': responseRef('UnsupportedMediaType'),
          '429': responseRef('RateLimited'),
          '502': responseRef('GatewayError'),
        },
      },
    },
    '/api/v1/links/{id}': {
      get: {
        operationId: 'getLink',
        summary: 'Read a link',
        tags: ['Links'],
        parameters: [idParameter('link', linkExample.id)],
        responses: {
          '200': { description: 'The link.', content: json('Link', linkExample) },
          '401': responseRef('Unauthorized'),
          '403': responseRef('Forbidden'),
          '404': responseRef('NotFound'),
          '429': responseRef('Throttled'),
        },
      },
      patch: {
        operationId: 'updateLink',
        summary: 'Change a link',
        description:
          'Takes the fields of the create body, all optional; fields left out are kept, `null` clears an optional one. Naming a pricing field replaces the pricing fields it cannot stand with (`amount` drops an open range, new `invoice_items` drop the invoice id and create a new gateway invoice). `metadata` is merged into the stored keys: a key set to `""` is removed, `null` removes every key; payments already made keep the metadata they were made with. Rate limited.',
        tags: ['Links'],
        parameters: [idParameter('link', linkExample.id)],
        requestBody: body('UpdateLinkBody', updateLinkExamples),
        responses: {
          '200': { description: 'The changed link.', content: json('Link', linkExample) },
          '400': responseRef('BadRequest'),
          '401': responseRef('Unauthorized'),
          '403': responseRef('Forbidden'),
          '404': responseRef('NotFound'),
          '409': responseRef('LinkBelongsToCheckout'),
          '413': responseRef('PayloadTooLarge'),
          '415': responseRef('UnsupportedMediaType'),
          '429': responseRef('RateLimited'),
          '502': responseRef('GatewayError'),
        },
      },
      delete: {
        operationId: 'deleteLink',
        summary: 'Delete an unused link',
        description:
          'Only a link on which no payment was ever started (in any state) is deleted. A link with payments is kept for its records: switch it off with `PATCH {"active": false}`. Rate limited.',
        tags: ['Links'],
        parameters: [idParameter('link', linkExample.id)],
        responses: {
          '204': { description: 'Deleted.' },
          '401': responseRef('Unauthorized'),
          '403': responseRef('Forbidden'),
          '404': responseRef('NotFound'),
          '409': responseRef('LinkHasPayments'),
          '429': responseRef('RateLimited'),
        },
      },
    },
  }
}
