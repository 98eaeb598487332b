/**
 * The OpenAPI 3.1 document of the merchant API, generated from the zod schemas the handlers parse
 * and answer with. Served at `/api/v1/openapi.json` and rendered at `/api/docs`.
 * Kept rather than `@hono/zod-openapi` or `hono-openapi`: docs/decisions/libraries.md, "OpenAPI".
 */
import { IDEMPOTENCY_RESPONSES } from './openapi-idempotency.js'
import { apiPaths } from './openapi-paths.js'
import { RESPONSES } from './openapi-responses.js'
import { componentSchemas } from './openapi-schemas.js'
import type { OpenApiDocument } from './openapi-types.js'

const DESCRIPTION = `The merchant API of Paylinks: create and change payment links, take a shop's orders as checkouts, read payments.

**Authentication.** Every route except this document takes an API key (\`pl_live_…\`, \`pl_test_…\`, made in the dashboard's API keys page or with \`POST /api/v1/api-keys\`) or the admin token (\`ADMIN_TOKEN\`), in \`X-API-Key: <key>\` or \`Authorization: Bearer <key>\`. A \`read\` key only reads; a \`write\` key does what its role allows (a store key: the owner's); anything else answers 403 \`forbidden\`. A revoked key, or one whose person is disabled or removed, answers 401 from the next request on.

**Amounts** are DZD as JSON numbers with at most two decimals (\`1500\`, \`1299.5\`). Paylinks keeps them as whole centimes, so what you send is exactly what you read back. **Times** are ISO 8601; answers give UTC.

**Errors** answer \`{"error": {"code", "message", "fields"}}\` with a 4xx status; \`fields\` names each bad field and its rule. A refused request changed nothing.

**Retries.** Send an \`Idempotency-Key\` header (a UUID, or your order's id; at most 255 characters) with a \`POST\`, \`PATCH\` or \`DELETE\` to make retrying it safe: the first answer is kept 24 hours for your API key, and the same request with the same key answers it again, with \`Idempotent-Replayed: true\`, without doing anything twice. The same key with another method, path or body answers 422 \`idempotency_key_reused\`; while the first request still runs, 409 \`idempotency_key_in_use\`. A refused body, a rate limit or a server error keeps nothing: send the same key again.

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
      { name: 'Products', description: 'The catalogue: products with a price, a stock and a SKU.' },
      {
        name: 'Promo codes',
        description: 'Codes a customer types for a percent or an amount off.',
      },
      {
        name: 'Checkouts',
        description: 'Checkout sessions: a shop’s order, paid once through a page of its own.',
      },
      {
        name: 'Webhook endpoints',
        description: 'Where Paylinks sends signed events (Standard Webhooks).',
      },
      { name: 'API keys', description: 'Keys for integrations and people, with a scope.' },
      { name: 'Audit log', description: 'Who did what and when.' },
      { name: 'Document', description: 'This OpenAPI document.' },
    ],
    paths: apiPaths(),
    components: {
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: 'An API key, or the admin token.',
        },
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key, or the admin token, as a bearer token.',
        },
      },
      schemas: componentSchemas(),
      responses: { ...RESPONSES, ...IDEMPOTENCY_RESPONSES },
    },
  }
}
