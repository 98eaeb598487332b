/** The audit log operation of the OpenAPI document, as routes.ts serves it. */

import { json, responseRef } from '../openapi-responses.js'
import { queryParameters } from '../openapi-schemas.js'
import type { OpenApiPathItem } from '../openapi-types.js'
import { listAuditQuery } from './schemas.js'

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

const read = {
  '401': responseRef('Unauthorized'),
  '403': responseRef('Forbidden'),
  '429': responseRef('Throttled'),
}

/** The path /api/v1/audit. */
export function auditPaths(): Record<string, OpenApiPathItem> {
  return {
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
