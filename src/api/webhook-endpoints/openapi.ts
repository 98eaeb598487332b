/** The webhook endpoint operations of the OpenAPI document, as src/api/webhook-endpoints/routes.ts serves them. */
import { json, responseRef } from '../openapi-responses.js'
import { idParameter, queryParameters, schemaRef } from '../openapi-schemas.js'
import type { OpenApiPathItem } from '../openapi-types.js'
import { listDeliveriesQuery } from './schemas.js'

const endpointExample = {
  id: 'we_8fQ2mZk1LrT0aB7c',
  url: 'https://shop.example.dz/hooks/paylinks',
  description: 'Order system',
  event_types: ['payment.failed', 'payment.paid'],
  enabled: true,
  failing: false,
  failing_since: null,
  consecutive_failures: 0,
  previous_secret_expires_at: null,
  created_at: '2026-01-15T10:00:00.000Z',
  updated_at: '2026-01-15T10:00:00.000Z',
}
const withSecret = { ...endpointExample, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }
const deliveryExample = {
  id: 'msg_5f0c3a2b9d8e4f6a7b1c2d3e4f5a6b7c',
  type: 'payment.paid',
  payment_id: 'pay_3kTq9ZbW1xYv2LmN',
  link_id: 'lnk_7HcD2pQ9sR4tU6vW',
  state: 'delivered',
  attempts: 1,
  next_attempt_at: null,
  last_attempt_at: '2026-01-15T10:05:00.000Z',
  last_status: 200,
  last_response: 'ok',
  last_duration_ms: 84,
  last_error: null,
  delivered_at: '2026-01-15T10:05:00.000Z',
  created_at: '2026-01-15T10:05:00.000Z',
}

const body = (schema: string, example: unknown) => ({
  required: true,
  content: { 'application/json': { schema: schemaRef(schema), example } },
})
const tags = ['Webhook endpoints']
const id = [idParameter('webhook endpoint', endpointExample.id)]
const read = {
  '401': responseRef('Unauthorized'),
  '403': responseRef('Forbidden'),
  '429': responseRef('Throttled'),
}
const write = {
  '400': responseRef('BadRequest'),
  '401': responseRef('Unauthorized'),
  '403': responseRef('Forbidden'),
  '413': responseRef('PayloadTooLarge'),
  '415': responseRef('UnsupportedMediaType'),
  '429': responseRef('RateLimited'),
}

/** The paths under /api/v1/webhook-endpoints. */
export function webhookEndpointPaths(): Record<string, OpenApiPathItem> {
  return {
    '/api/v1/webhook-endpoints': {
      get: {
        operationId: 'listWebhookEndpoints',
        summary: 'List webhook endpoints',
        tags,
        responses: {
          '200': {
            description: 'Every endpoint, newest first.',
            content: json('WebhookEndpointList', { data: [endpointExample] }),
          },
          ...read,
        },
      },
      post: {
        operationId: 'createWebhookEndpoint',
        summary: 'Register a webhook endpoint',
        description:
          'Events are POSTed signed by Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`) as `{"type", "timestamp", "data"}`. `payment.paid`, `payment.failed`, `payment.canceled`, `payment.expired`: `data` is the payment object (with its `checkout_id`, `ref` and `metadata`) and `data.link`. `link.completed`: the link object. `checkout.completed`: the checkout object, with its paid payment as `data.payment` (sent after that payment’s `payment.paid`). `checkout.expired`: the checkout object, `data.payment` null. `data.status` is the status the event announces. The answer holds the signing `secret`, shown this once. Outside simulator mode the URL must be https and must not point at a private address. At most 20 endpoints.',
        tags,
        requestBody: body('CreateWebhookEndpointBody', {
          url: endpointExample.url,
          description: 'Order system',
          event_types: ['payment.paid', 'payment.failed', 'checkout.completed', 'checkout.expired'],
        }),
        responses: {
          '201': {
            description: 'The new endpoint, with its secret.',
            content: json('WebhookEndpointWithSecret', withSecret),
          },
          ...write,
          '409': {
            description: 'Already 20 endpoints.',
            content: json('Error', {
              error: {
                code: 'endpoint_limit',
                message: 'At most 20 webhook endpoints; delete one first.',
              },
            }),
          },
        },
      },
    },
    '/api/v1/webhook-endpoints/{id}': {
      get: {
        operationId: 'getWebhookEndpoint',
        summary: 'Read a webhook endpoint',
        tags,
        parameters: id,
        responses: {
          '200': {
            description: 'The endpoint.',
            content: json('WebhookEndpoint', endpointExample),
          },
          '404': responseRef('NotFound'),
          ...read,
        },
      },
      patch: {
        operationId: 'updateWebhookEndpoint',
        summary: 'Change a webhook endpoint',
        description:
          'Fields left out are kept. A disabled endpoint gets no new events; its pending ones wait.',
        tags,
        parameters: id,
        requestBody: body('UpdateWebhookEndpointBody', { enabled: false }),
        responses: {
          '200': {
            description: 'The endpoint.',
            content: json('WebhookEndpoint', endpointExample),
          },
          '404': responseRef('NotFound'),
          ...write,
        },
      },
      delete: {
        operationId: 'deleteWebhookEndpoint',
        summary: 'Delete a webhook endpoint',
        description: 'With its deliveries and their log.',
        tags,
        parameters: id,
        responses: {
          '204': { description: 'Deleted.' },
          '401': responseRef('Unauthorized'),
          '403': responseRef('Forbidden'),
          '404': responseRef('NotFound'),
          '429': responseRef('RateLimited'),
        },
      },
    },
    '/api/v1/webhook-endpoints/{id}/rotate-secret': {
      post: {
        operationId: 'rotateWebhookEndpointSecret',
        summary: 'Rotate the signing secret',
        description:
          'A new secret, shown this once. For 24 hours both sign each request (two signatures in `webhook-signature`, space-separated), so the receiver can switch without losing an event.',
        tags,
        parameters: id,
        responses: {
          '200': {
            description: 'The endpoint with its new secret.',
            content: json('WebhookEndpointWithSecret', withSecret),
          },
          '401': responseRef('Unauthorized'),
          '403': responseRef('Forbidden'),
          '404': responseRef('NotFound'),
          '429': responseRef('RateLimited'),
        },
      },
    },
    '/api/v1/webhook-endpoints/{id}/deliveries': {
      get: {
        operationId: 'listWebhookDeliveries',
        summary: "List an endpoint's deliveries",
        description: 'Newest first, with the outcome of the last attempt.',
        tags,
        parameters: [...id, ...queryParameters(listDeliveriesQuery)],
        responses: {
          '200': {
            description: 'A page of deliveries.',
            content: json('WebhookDeliveryList', {
              data: [deliveryExample],
              has_more: false,
              next_cursor: null,
            }),
          },
          '400': responseRef('BadRequest'),
          '404': responseRef('NotFound'),
          ...read,
        },
      },
    },
    '/api/v1/webhook-endpoints/{id}/deliveries/{eventId}/redeliver': {
      post: {
        operationId: 'redeliverWebhook',
        summary: 'Send a delivery again',
        description: 'The same event id and body, signed anew, as soon as the sender runs.',
        tags,
        parameters: [
          ...id,
          {
            name: 'eventId',
            in: 'path',
            required: true,
            description: 'The delivery (event) id, msg_….',
            schema: { type: 'string' },
            example: deliveryExample.id,
          },
        ],
        responses: {
          '202': {
            description: 'The delivery, due now.',
            content: json('WebhookDelivery', deliveryExample),
          },
          '401': responseRef('Unauthorized'),
          '403': responseRef('Forbidden'),
          '404': responseRef('NotFound'),
          '429': responseRef('RateLimited'),
        },
      },
    },
  }
}
