/** The payment operations of the OpenAPI document, as routes.ts serves them. */

import { declinedPaymentExample, paymentExample } from '../openapi-examples.js'
import { json, responseRef } from '../openapi-responses.js'
import { idParameter, queryParameters } from '../openapi-schemas.js'
import type { OpenApiPathItem } from '../openapi-types.js'
import { listPaymentsQuery } from './schemas.js'

/** The paths under /api/v1/payments. */
export function paymentPaths(): Record<string, OpenApiPathItem> {
  return {
    '/api/v1/payments': {
      get: {
        operationId: 'listPayments',
        summary: 'List payments',
        description:
          'Newest first. Filters combine: `status`, `link_id`, an inclusive range on the creation time with `from` and `to` (a date alone is a whole day in Algiers time, UTC+01:00), and a search text `q`.',
        tags: ['Payments'],
        parameters: queryParameters(listPaymentsQuery, { status: ['paid'], from: '2030-03-01' }),
        responses: {
          '200': {
            description: 'A page of payments.',
            content: json('PaymentList', {
              data: [paymentExample, declinedPaymentExample],
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
    },
    '/api/v1/payments/{id}': {
      get: {
        operationId: 'getPayment',
        summary: 'Read a payment',
        tags: ['Payments'],
        parameters: [idParameter('payment', paymentExample.id)],
        responses: {
          '200': { description: 'The payment.', content: json('Payment', paymentExample) },
          '401': responseRef('Unauthorized'),
          '403': responseRef('Forbidden'),
          '404': responseRef('NotFound'),
          '429': responseRef('Throttled'),
        },
      },
    },
  }
}
