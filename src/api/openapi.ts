/**
 * The OpenAPI 3.1 document of the merchant API, generated from the zod schemas the handlers parse
 * and answer with. Served at `/api/v1/openapi.json` and rendered at `/api/docs`.
 */
import { apiPaths } from './openapi-paths.js'
import { RESPONSES } from './openapi-responses.js'
import { componentSchemas } from './openapi-schemas.js'
import type { OpenApiDocument } from './openapi-types.js'

const DESCRIPTION = `The merchant API of Paylinks: create and change payment links, read payments.

**Authentication.** Every route except this document takes the admin token (\`ADMIN_TOKEN\`) in \`X-API-Key: <token>\` or \`Authorization: Bearer <token>\`.

**Amounts** are DZD as JSON numbers with at most two decimals (\`1500\`, \`1299.5\`). Paylinks keeps them as whole centimes, so what you send is exactly what you read back. **Times** are ISO 8601; answers give UTC.

**Errors** answer \`{"error": {"code", "message", "fields"}}\` with a 4xx status; \`fields\` names each bad field and its rule. A refused request changed nothing.

**Lists** are newest first, a page at a time: pass \`next_cursor\` back as \`cursor\` while \`has_more\` is true.

**A link with payments is never deleted**, only switched off with \`PATCH {"active": false}\`; \`DELETE\` removes a link only while no payment was ever started on it.`

// The document depends only on the code and the public URL, and generating it takes a few
// milliseconds of CPU (much of a Worker's budget), so the last one built is kept. Nobody mutates it.
let last: { publicUrl: string; doc: OpenApiDocument } | undefined

/** The whole document, with `publicUrl` as its server. */
export function openApiDocument(publicUrl: string): OpenApiDocument {
  if (last?.publicUrl !== publicUrl) last = { publicUrl, doc: build(publicUrl) }
  return last.doc
}

function build(publicUrl: string): OpenApiDocument {
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: { title: 'Paylinks merchant API', version: '1.0.0', description: DESCRIPTION },
    servers: [{ url: publicUrl.replace(/\/+$/, ''), description: 'This Paylinks' }],
    security: [{ apiKey: [] }, { bearer: [] }],
    tags: [
      { name: 'Links', description: 'Payment links: fixed, open or invoice amounts.' },
      { name: 'Payments', description: 'Payments made, or tried, on links.' },
      {
        name: 'Webhook endpoints',
        description: 'Where Paylinks sends signed events (Standard Webhooks).',
      },
      { name: 'Document', description: 'This OpenAPI document.' },
    ],
    paths: apiPaths(),
    components: {
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: 'The admin token.',
        },
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'The admin token as a bearer token.',
        },
      },
      schemas: componentSchemas(),
      responses: RESPONSES,
    },
  }
}
