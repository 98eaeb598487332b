/** The API key operations of the OpenAPI document, as routes.ts serves them. */

import { json, responseRef } from '../openapi-responses.js'
import { idParameter, schemaRef } from '../openapi-schemas.js'
import type { OpenApiPathItem } from '../openapi-types.js'

const keyExample = {
  id: 'key_4Tq8ZbW1xYv2LmNa',
  name: 'Shop site',
  prefix: 'pl_live_7Hc2',
  scope: 'write',
  user_id: null,
  created_by: null,
  created_at: '2026-01-15T10:00:00.000Z',
  last_used_at: '2026-01-15T10:05:00.000Z',
  revoked_at: null,
}
const withKey = {
  ...keyExample,
  last_used_at: null,
  key: 'pl_live_7Hc2pQ9sR4tU6vWx8yZa1bC3dE5fG7hJ9kL2mN4p',
}

const keyTags = ['API keys']
const read = {
  '401': responseRef('Unauthorized'),
  '403': responseRef('Forbidden'),
  '429': responseRef('Throttled'),
}

/** The paths under /api/v1/api-keys. */
export function apiKeyPaths(): Record<string, OpenApiPathItem> {
  return {
    '/api/v1/api-keys': {
      get: {
        operationId: 'listApiKeys',
        summary: 'List API keys',
        description: 'Every key, newest first, revoked ones too; never the key itself.',
        tags: keyTags,
        responses: {
          '200': {
            description: 'Every key.',
            content: json('ApiKeyList', { data: [keyExample] }),
          },
          ...read,
        },
      },
      post: {
        operationId: 'createApiKey',
        summary: 'Create an API key',
        description:
          'The answer holds the key, shown this once; Paylinks keeps only its hash. Send it as `X-API-Key` or `Authorization: Bearer`.',
        tags: keyTags,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: schemaRef('CreateApiKeyBody'),
              example: { name: 'Shop site', scope: 'write' },
            },
          },
        },
        responses: {
          '201': {
            description: 'The new key, with the key itself.',
            content: json('ApiKeyWithSecret', withKey),
          },
          '400': responseRef('BadRequest'),
          '413': responseRef('PayloadTooLarge'),
          '415': responseRef('UnsupportedMediaType'),
          ...read,
          '429': responseRef('RateLimited'),
        },
      },
    },
    '/api/v1/api-keys/{id}': {
      delete: {
        operationId: 'revokeApiKey',
        summary: 'Revoke an API key',
        description:
          'From the next request on, the key is refused (401). The key stays listed, with `revoked_at`.',
        tags: keyTags,
        parameters: [idParameter('API key', keyExample.id)],
        responses: {
          '200': {
            description: 'The revoked key.',
            content: json('ApiKey', { ...keyExample, revoked_at: '2026-01-16T09:00:00.000Z' }),
          },
          '404': {
            description: 'No such key.',
            content: json('Error', {
              error: { code: 'not_found', message: 'No API key has this id.' },
            }),
          },
          ...read,
          '429': responseRef('RateLimited'),
        },
      },
    },
  }
}
