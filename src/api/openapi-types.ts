/**
 * The part of OpenAPI 3.1 the Paylinks document uses, typed for the builder and the docs page:
 * they are src/lib/openapi-types.ts (which src/deps.ts can import), handed on here for the API.
 */

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
export { HTTP_METHODS } from '../lib/openapi-types.js'
