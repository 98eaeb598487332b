/**
 * The part of OpenAPI 3.1 the Paylinks document uses, typed for the builder and the docs page:
 * the types are src/lib/openapi-types.ts (which src/deps.ts can import), the methods' list is here.
 */
import type { HttpMethod } from '../lib/openapi-types.js'

export type {
  HttpMethod,
  JsonSchema,
  OpenApiDocument,
  OpenApiMediaType,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiPathItem,
  OpenApiResponse,
  OpenApiResponseOrRef,
} from '../lib/openapi-types.js'

/** The methods the docs page lists, in its order. */
export const HTTP_METHODS = [
  'get',
  'post',
  'patch',
  'delete',
] as const satisfies readonly HttpMethod[]
