/**
 * `Idempotency-Key` in the OpenAPI document: the header on every write operation (POST, PATCH,
 * DELETE), its 409 and 422 answers (beside an operation's own), a bad key's 400, and `Idempotent-Replayed` on the success
 * answers, added to the resources' operations in one place as the middleware (idempotency.ts)
 * covers every write in one place.
 */
import {
  IDEMPOTENCY_KEY_HEADER,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  REPLAYED_HEADER,
} from './idempotency.js'
import { RESPONSES, responseRef } from './openapi-responses.js'
import { schemaRef } from './openapi-schemas.js'
import type {
  OpenApiOperation,
  OpenApiParameter,
  OpenApiPathItem,
  OpenApiResponse,
  OpenApiResponseOrRef,
} from './openapi-types.js'

const WRITES = ['post', 'patch', 'delete'] as const

const parameter: OpenApiParameter = {
  name: IDEMPOTENCY_KEY_HEADER,
  in: 'header',
  required: false,
  description: `Makes a retry safe: a unique string per operation (a UUID, or the order's id), at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters. The first answer under a key is kept 24 hours for this API key; the same request (method, path and body) with the same key answers it again with \`${REPLAYED_HEADER}: true\` and changes nothing. A refused body (400, 413, 415), a rate limit (429) or a server error (5xx) keeps nothing, so the same key can be sent again.`,
  schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH },
}

const replayedHeader = {
  [REPLAYED_HEADER]: {
    description: `\`true\` when this is the answer kept for the request's \`${IDEMPOTENCY_KEY_HEADER}\`, given again; absent otherwise.`,
    schema: { type: 'string', enum: ['true'] },
  },
}

/** The answers for a key in use or reused, referenced from every write operation. */
export const IDEMPOTENCY_RESPONSES = {
  IdempotencyKeyInUse: {
    description: `The first request with this \`${IDEMPOTENCY_KEY_HEADER}\` is still running; retry once it has been answered.`,
    content: {
      'application/json': {
        schema: schemaRef('Error'),
        example: {
          error: {
            code: 'idempotency_key_in_use',
            message:
              'The first request with this Idempotency-Key is still running; retry once it has been answered.',
          },
        },
      },
    },
  },
  IdempotencyKeyReused: {
    description: `This \`${IDEMPOTENCY_KEY_HEADER}\` was sent in the last 24 hours with another request (method, path or body). Nothing was changed.`,
    content: {
      'application/json': {
        schema: schemaRef('Error'),
        example: {
          error: {
            code: 'idempotency_key_reused',
            message:
              'This Idempotency-Key was sent in the last 24 hours with another request (method, path or body); send a new key for a new request.',
          },
        },
      },
    },
  },
} satisfies Record<string, OpenApiResponse>

const resolve = (response: OpenApiResponseOrRef): OpenApiResponse =>
  '$ref' in response
    ? (RESPONSES as Record<string, OpenApiResponse>)[response.$ref.split('/').pop() ?? '']!
    : response

type Examples = Record<string, { summary: string; value: unknown }>

/** A response's error examples, each under its code. */
function examplesOf(r: OpenApiResponse): Examples {
  const media = r.content?.['application/json']
  if (media?.examples) return media.examples as Examples
  const example = media?.example as { error: { code: string } }
  return { [example.error.code]: { summary: r.description, value: example } }
}

/**
 * An operation's own 409 (or 422) and the key's in one answer (OpenAPI has one per status): both
 * descriptions, the operation's headers, and each example under its code.
 */
function mergedWithKey(own: OpenApiResponseOrRef, key: OpenApiResponse): OpenApiResponse {
  const first = resolve(own)
  return {
    description: `${first.description} Or: ${key.description}`,
    ...(first.headers ? { headers: first.headers } : {}),
    content: {
      'application/json': {
        schema: schemaRef('Error'),
        examples: { ...examplesOf(first), ...examplesOf(key) },
      },
    },
  }
}

function withKey(op: OpenApiOperation): OpenApiOperation {
  const responses: Record<string, OpenApiResponseOrRef> = {}
  for (const [status, response] of Object.entries(op.responses))
    responses[status] =
      status.startsWith('2') && !('$ref' in response)
        ? { ...response, headers: { ...response.headers, ...replayedHeader } }
        : response
  responses['400'] ??= responseRef('BadRequest')
  responses['409'] = responses['409']
    ? mergedWithKey(responses['409'], IDEMPOTENCY_RESPONSES.IdempotencyKeyInUse)
    : { $ref: '#/components/responses/IdempotencyKeyInUse' }
  responses['422'] = responses['422']
    ? mergedWithKey(responses['422'], IDEMPOTENCY_RESPONSES.IdempotencyKeyReused)
    : { $ref: '#/components/responses/IdempotencyKeyReused' }
  return { ...op, parameters: [...(op.parameters ?? []), parameter], responses }
}

/** The paths with the key on every write operation. */
export function withIdempotencyKeys(
  paths: Record<string, OpenApiPathItem>,
): Record<string, OpenApiPathItem> {
  const out: Record<string, OpenApiPathItem> = {}
  for (const [path, item] of Object.entries(paths)) {
    const copy: OpenApiPathItem = { ...item }
    for (const method of WRITES) {
      const op = item[method]
      if (op) copy[method] = withKey(op)
    }
    out[path] = copy
  }
  return out
}
