/** The API key and audit log operations of the OpenAPI document, as src/api/api-keys/routes.ts serves them. */

import { json, responseRef } from '../openapi-responses.js'
import { idParameter, queryParameters, schemaRef } from '../openapi-schemas.js'
import type { OpenApiPathItem } from '../openapi-types.js'
import { listAuditQuery } from './schemas.js'

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
const auditExample = {
  id: 42,
  at: '2026-01-15T10:00:00.000Z',
  actor: { kind: 'user', id: 'usr_8fQ2mZk1LrT0aB7c', label: 'amina@shop.example.dz' },
  action: 'link_created',
  group: 'links',
  target: { kind: 'link', id: 'lnk_7HcD2pQ9sR4tU6vW' },
  detail: { title: 'Atelier poterie' },
  address: '198.51.100.7',
}

const keyTags = ['API keys']
const read = {
  '401': responseRef('Unauthorized'),
  '403': responseRef('Forbidden'),
  '429': responseRef('Throttled'),
}

/** The paths under /api/v1/api-keys and /api/v1/audit. */
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
    '/api/v1/audit': {
      get: {
        operationId: 'listAudit',
        summary: 'Read the audit log',
        description:
          'Who did what and when: sign-ins, links, webhook endpoints, API keys, exports. Newest first; filter by group, actor and days (Algiers time). Entries hold ids and names, never a secret or customer data.',
        tags: ['Audit log'],
        parameters: queryParameters(listAuditQuery, { group: 'links', from: '2026-01-01' }),
        responses: {
          '200': {
            description: 'A page of entries.',
            content: json('AuditList', {
              data: [auditExample],
              has_more: false,
              next_cursor: null,
            }),
          },
          '400': responseRef('BadRequest'),
          ...read,
        },
      },
    },
  }
}
