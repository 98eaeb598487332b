/**
 * The part of OpenAPI 3.1 the Paylinks document uses, typed for the builder (src/api), the docs
 * page and the dependencies' types (src/deps.ts), with the list of methods the types are made
 * from.
 */

/** A JSON Schema (2020-12, OpenAPI 3.1's dialect). */
export type JsonSchema = { [key: string]: unknown }

export interface OpenApiParameter {
  name: string
  in: 'path' | 'query' | 'header'
  required: boolean
  description?: string
  schema: JsonSchema
  style?: 'form' | 'simple'
  explode?: boolean
  example?: unknown
}

export interface OpenApiMediaType {
  schema: JsonSchema
  example?: unknown
  examples?: Record<string, { summary: string; value: unknown }>
}

export interface OpenApiResponse {
  description: string
  headers?: Record<string, { description: string; schema: JsonSchema }>
  content?: Record<string, OpenApiMediaType>
}

/** A response, or a reference to one in `components.responses`. */
export type OpenApiResponseOrRef = OpenApiResponse | { $ref: string }

export interface OpenApiOperation {
  operationId: string
  summary: string
  description?: string
  tags: string[]
  parameters?: OpenApiParameter[]
  requestBody?: { required: boolean; content: Record<string, OpenApiMediaType> }
  responses: Record<string, OpenApiResponseOrRef>
  security?: Record<string, string[]>[]
}

/** The HTTP methods the document's paths use, in the order the docs page lists them. */
export const HTTP_METHODS = ['get', 'post', 'patch', 'delete'] as const

export type HttpMethod = (typeof HTTP_METHODS)[number]

export type OpenApiPathItem = Partial<Record<HttpMethod, OpenApiOperation>>

export interface OpenApiDocument {
  openapi: '3.1.0'
  jsonSchemaDialect: string
  info: { title: string; version: string; description: string }
  servers: { url: string; description?: string }[]
  security: Record<string, string[]>[]
  tags: { name: string; description: string }[]
  paths: Record<string, OpenApiPathItem>
  components: {
    securitySchemes: Record<string, Record<string, string>>
    schemas: Record<string, JsonSchema>
    responses: Record<string, OpenApiResponse>
  }
}
