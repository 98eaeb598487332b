/**
 * Turns the API's zod schemas into OpenAPI components and parameters with zod's own
 * `z.toJSONSchema`: request bodies as they are sent (`io: 'input'`), answers as they are produced.
 */
import * as z from 'zod'
import { apiKeyList, apiKeyObject, apiKeyWithSecret } from './api-keys/object-schemas.js'
import { createApiKeyBody } from './api-keys/schemas.js'
import { auditEntryObject, auditList } from './audit/object-schemas.js'
import { checkoutList, checkoutObject } from './checkouts/object-schemas.js'
import { createCheckoutBody } from './checkouts/schemas.js'
import { apiErrorObject } from './error-object.js'
import { linkList, linkObject } from './links/object-schemas.js'
import { createLinkBody, updateLinkBody } from './links/schemas.js'
import { FIELD_NOTES } from './openapi-notes.js'
import type { JsonSchema, OpenApiParameter } from './openapi-types.js'
import { paymentList, paymentObject } from './payments/object-schemas.js'
import { productList, productObject } from './products/object-schemas.js'
import { createProductBody, updateProductBody } from './products/schemas.js'
import { promoCodeList, promoCodeObject } from './promo-codes/object-schemas.js'
import { createPromoCodeBody, updatePromoCodeBody } from './promo-codes/schemas.js'
import {
  deliveryList,
  deliveryObject,
  webhookEndpointList,
  webhookEndpointObject,
  webhookEndpointWithSecret,
} from './webhook-endpoints/object-schemas.js'
import { createEndpointBody, updateEndpointBody } from './webhook-endpoints/schemas.js'

type Meta = { id: string; description: string }

const COMPONENT = '#/components/schemas/'

/** A reference to a schema of `components.schemas`. */
export const schemaRef = (id: string): JsonSchema => ({ $ref: `${COMPONENT}${id}` })

// Each schema stands alone inside the document: no dialect or id of its own.
function tidy(schema: JsonSchema): JsonSchema {
  const { $schema: _s, $id: _i, ...rest } = schema
  return rest
}

// Answers may gain fields in later versions; clients must not reject an unknown one.
const openObjects = (ctx: { jsonSchema: JsonSchema }) => {
  if (ctx.jsonSchema.type === 'object' && ctx.jsonSchema.additionalProperties === false)
    delete ctx.jsonSchema.additionalProperties
}

function generate(entries: [z.ZodType, Meta][], io: 'input' | 'output') {
  const registry = z.registry<Meta>()
  for (const [schema, meta] of entries) registry.add(schema, meta)
  const { schemas } = z.toJSONSchema(registry, {
    io,
    target: 'draft-2020-12',
    uri: (id) => `${COMPONENT}${id}`,
    ...(io === 'output' ? { override: openObjects } : {}),
  })
  return Object.fromEntries(
    Object.entries(schemas).map(([id, s]) => [id, withNotes(id, tidy(s as JsonSchema))]),
  )
}

// A field's own description (from zod) wins; a note only fills the gap.
function withNotes(id: string, schema: JsonSchema): JsonSchema {
  const notes = FIELD_NOTES[id]
  const properties = schema.properties as Record<string, JsonSchema> | undefined
  if (!notes || !properties) return schema
  for (const [name, field] of Object.entries(properties)) {
    const note = notes[name]
    if (note && typeof field.description !== 'string') field.description = note
  }
  return schema
}

/** `components.schemas`: bodies, objects, pages and the error. */
export function componentSchemas(): Record<string, JsonSchema> {
  return {
    ...generate(
      [
        [
          createLinkBody,
          { id: 'CreateLinkBody', description: 'A new link: `title` and one kind of pricing.' },
        ],
        [
          updateLinkBody,
          {
            id: 'UpdateLinkBody',
            description: 'The fields to change; `null` clears an optional one.',
          },
        ],
        [
          createCheckoutBody,
          {
            id: 'CreateCheckoutBody',
            description: 'A new checkout: `success_url` and `amount` or `line_items`.',
          },
        ],
        [
          createEndpointBody,
          { id: 'CreateWebhookEndpointBody', description: 'A new webhook endpoint.' },
        ],
        [
          updateEndpointBody,
          { id: 'UpdateWebhookEndpointBody', description: 'The fields to change.' },
        ],
        [createApiKeyBody, { id: 'CreateApiKeyBody', description: 'A new API key.' }],
        [
          createProductBody,
          { id: 'CreateProductBody', description: 'A new product: `name` and `price`.' },
        ],
        [
          updateProductBody,
          {
            id: 'UpdateProductBody',
            description: 'The fields to change; `null` clears an optional one.',
          },
        ],
        [
          createPromoCodeBody,
          {
            id: 'CreatePromoCodeBody',
            description: 'A new promo code: `code` and `percent_off` or `amount_off`.',
          },
        ],
        [
          updatePromoCodeBody,
          {
            id: 'UpdatePromoCodeBody',
            description: 'The fields to change; `null` clears an optional one.',
          },
        ],
      ],
      'input',
    ),
    ...generate(
      [
        [linkObject, { id: 'Link', description: 'A payment link.' }],
        [paymentObject, { id: 'Payment', description: 'A payment on a link.' }],
        [linkList, { id: 'LinkList', description: 'A page of links, newest first.' }],
        [paymentList, { id: 'PaymentList', description: 'A page of payments, newest first.' }],
        [productObject, { id: 'Product', description: 'A product of the catalogue.' }],
        [productList, { id: 'ProductList', description: 'A page of products, newest first.' }],
        [promoCodeObject, { id: 'PromoCode', description: 'A promo code.' }],
        [
          promoCodeList,
          { id: 'PromoCodeList', description: 'A page of promo codes, newest first.' },
        ],
        [
          checkoutObject,
          { id: 'Checkout', description: 'A checkout session: one order, paid once.' },
        ],
        [checkoutList, { id: 'CheckoutList', description: 'A page of checkouts, newest first.' }],
        [apiErrorObject, { id: 'Error', description: 'What every 4xx (and 5xx) answers.' }],
        [webhookEndpointObject, { id: 'WebhookEndpoint', description: 'Where signed events go.' }],
        [
          webhookEndpointWithSecret,
          {
            id: 'WebhookEndpointWithSecret',
            description: 'An endpoint with its signing secret, shown once.',
          },
        ],
        [
          webhookEndpointList,
          { id: 'WebhookEndpointList', description: 'Every webhook endpoint.' },
        ],
        [
          deliveryObject,
          {
            id: 'WebhookDelivery',
            description: 'One event for one endpoint, and how its delivery went.',
          },
        ],
        [
          deliveryList,
          { id: 'WebhookDeliveryList', description: 'A page of deliveries, newest first.' },
        ],
        [apiKeyObject, { id: 'ApiKey', description: 'An API key (never the key itself).' }],
        [
          apiKeyWithSecret,
          { id: 'ApiKeyWithSecret', description: 'A new API key with the key, shown once.' },
        ],
        [apiKeyList, { id: 'ApiKeyList', description: 'Every API key.' }],
        [auditEntryObject, { id: 'AuditEntry', description: 'One act in the audit log.' }],
        [auditList, { id: 'AuditList', description: 'A page of the audit log, newest first.' }],
      ],
      'output',
    ),
  }
}

/**
 * The query parameters of a strict zod object, one per key. A list schema is sent as one
 * comma-separated value (`style: form, explode: false`), which the parser also accepts repeated.
 */
export function queryParameters(
  query: z.ZodObject,
  examples: Record<string, unknown> = {},
): OpenApiParameter[] {
  return Object.entries(query.shape).map(([name, field]) => {
    const { description, ...schema } = tidy(z.toJSONSchema(field as z.ZodType, { io: 'input' }))
    const parameter: OpenApiParameter = {
      name,
      in: 'query',
      required: !(field as z.ZodType).safeParse(undefined).success,
      schema,
    }
    if (typeof description === 'string') parameter.description = description
    if (schema.type === 'array') Object.assign(parameter, { style: 'form', explode: false })
    if (name in examples) parameter.example = examples[name]
    return parameter
  })
}

/** The `{id}` path parameter. */
export function idParameter(what: string, example: string): OpenApiParameter {
  return {
    name: 'id',
    in: 'path',
    required: true,
    description: `The ${what}'s id.`,
    schema: { type: 'string' },
    example,
  }
}
