/** The checkout operations of the OpenAPI document, as routes.ts serves them. */

import {
  checkoutExample,
  completedCheckoutExample,
  createCheckoutExamples,
  expiredCheckoutExample,
} from '../openapi-examples.js'
import { json, responseRef } from '../openapi-responses.js'
import { idParameter, queryParameters, schemaRef } from '../openapi-schemas.js'
import type { OpenApiPathItem } from '../openapi-types.js'
import { listCheckoutsQuery } from './schemas.js'

const TAGS = ['Checkouts']

/** The paths under /api/v1/checkouts. */
export function checkoutPaths(): Record<string, OpenApiPathItem> {
  return {
    '/api/v1/checkouts': {
      get: {
        operationId: 'listCheckouts',
        summary: 'List checkouts',
        description: 'Newest first; `reference` finds the checkouts of one of your orders.',
        tags: TAGS,
        parameters: queryParameters(listCheckoutsQuery, {
          status: 'completed',
          reference: 'CMD-1042',
          limit: 20,
        }),
        responses: {
          '200': {
            description: 'A page of checkouts.',
            content: json('CheckoutList', {
              data: [completedCheckoutExample],
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
        operationId: 'createCheckout',
        summary: 'Create a checkout',
        description:
          'A checkout is one order paid once: send the customer to its `url`. Give `success_url` and either `amount` or `line_items` (the amount is their total). It takes at most one paid payment; a declined customer may try again until `expires_at`. Once the payment is confirmed, the customer goes on to `success_url` with `checkout_id=chk_…` added to its query, and `checkout.completed` is sent to your webhook endpoints; mark the order paid from that event (or by reading the checkout), not from the customer’s return. Send an `Idempotency-Key` (your order id) so a retried create makes one checkout. Rate limited with the link changes.',
        tags: TAGS,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: schemaRef('CreateCheckoutBody'),
              examples: createCheckoutExamples,
            },
          },
        },
        responses: {
          '201': {
            description: 'The new checkout.',
            headers: {
              Location: { description: 'The URL of the new checkout.', schema: { type: 'string' } },
            },
            content: json('Checkout', checkoutExample),
          },
          '400': responseRef('BadRequest'),
          '401': responseRef('Unauthorized'),
          '403': responseRef('Forbidden'),
          '413': responseRef('PayloadTooLarge'),
          '415': responseRef('UnsupportedMediaType'),
          '422': responseRef('UnprocessableCheckout'),
          '429': responseRef('RateLimited'),
        },
      },
    },
    '/api/v1/checkouts/{id}': {
      get: {
        operationId: 'getCheckout',
        summary: 'Read a checkout',
        tags: TAGS,
        parameters: [idParameter('checkout', checkoutExample.id)],
        responses: {
          '200': {
            description: 'The checkout.',
            content: json('Checkout', completedCheckoutExample),
          },
          '401': responseRef('Unauthorized'),
          '403': responseRef('Forbidden'),
          '404': responseRef('NotFound'),
          '429': responseRef('Throttled'),
        },
      },
    },
    '/api/v1/checkouts/{id}/expire': {
      post: {
        operationId: 'expireCheckout',
        summary: 'Expire an open checkout',
        description:
          'Closes an open checkout before its time (the order was canceled in your shop): its page takes no payment from now on, and `checkout.expired` is sent. A checkout a customer is paying is not expired (409 `checkout_payment_in_progress`, with `Retry-After`): the payment may still complete it. Takes no body. Rate limited with the link changes.',
        tags: TAGS,
        parameters: [idParameter('checkout', checkoutExample.id)],
        responses: {
          '200': {
            description: 'The expired checkout.',
            content: json('Checkout', expiredCheckoutExample),
          },
          '401': responseRef('Unauthorized'),
          '403': responseRef('Forbidden'),
          '404': responseRef('NotFound'),
          '409': responseRef('CheckoutNotExpirable'),
          '429': responseRef('RateLimited'),
        },
      },
    },
  }
}
