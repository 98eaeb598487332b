/** The product operations of the OpenAPI document, as routes.ts serves them. */

import {
  createProductExamples,
  productExample,
  updateProductExamples,
} from '../openapi-examples.js'
import { json, responseRef } from '../openapi-responses.js'
import { idParameter, queryParameters, schemaRef } from '../openapi-schemas.js'
import type { OpenApiPathItem } from '../openapi-types.js'
import { listProductsQuery } from './schemas.js'

const body = (schema: string, examples: Record<string, { summary: string; value: unknown }>) => ({
  required: true,
  content: { 'application/json': { schema: schemaRef(schema), examples } },
})

/** The paths under /api/v1/products. */
export function productPaths(): Record<string, OpenApiPathItem> {
  return {
    '/api/v1/products': {
      get: {
        operationId: 'listProducts',
        summary: 'List products',
        description:
          'Newest first; `active` keeps the products on sale or the archived ones, `q` finds a part of the name or of the SKU.',
        tags: ['Products'],
        parameters: queryParameters(listProductsQuery, { limit: 20 }),
        responses: {
          '200': {
            description: 'A page of products.',
            content: json('ProductList', {
              data: [productExample],
              has_more: false,
              next_cursor: null,
            }),
          },
          '400': responseRef('BadRequest'),
          '401': responseRef('Unauthorized'),
          '403': responseRef('Forbidden'),
          '429': responseRef('Throttled'),
        },
      },
      post: {
        operationId: 'createProduct',
        summary: 'Create a product',
        description:
          'Give `name` and `price` (DZD); `stock` left out or `null` is unlimited; `sku`, when given, is unique whatever its case. The image is uploaded in the dashboard. Rate limited.',
        tags: ['Products'],
        requestBody: body('CreateProductBody', createProductExamples),
        responses: {
          '201': {
            description: 'The new product.',
            headers: {
              Location: { description: 'The URL of the new product.', schema: { type: 'string' } },
            },
            content: json('Product', productExample),
          },
          '400': responseRef('BadRequest'),
          '401': responseRef('Unauthorized'),
          '403': responseRef('Forbidden'),
          '409': responseRef('SkuInUse'),
          '413': responseRef('PayloadTooLarge'),
          '415': responseRef('UnsupportedMediaType'),
          '429': responseRef('RateLimited'),
        },
      },
    },
    '/api/v1/products/{id}': {
      get: {
        operationId: 'getProduct',
        summary: 'Read a product',
        tags: ['Products'],
        parameters: [idParameter('product', productExample.id)],
        responses: {
          '200': { description: 'The product.', content: json('Product', productExample) },
          '401': responseRef('Unauthorized'),
          '403': responseRef('Forbidden'),
          '404': responseRef('NotFound'),
          '429': responseRef('Throttled'),
        },
      },
      patch: {
        operationId: 'updateProduct',
        summary: 'Change a product',
        description:
          'Takes the fields of the create body, all optional; fields left out are kept, `null` clears an optional one (`stock: null`: unlimited). `active: false` archives the product. Rate limited.',
        tags: ['Products'],
        parameters: [idParameter('product', productExample.id)],
        requestBody: body('UpdateProductBody', updateProductExamples),
        responses: {
          '200': { description: 'The changed product.', content: json('Product', productExample) },
          '400': responseRef('BadRequest'),
          '401': responseRef('Unauthorized'),
          '403': responseRef('Forbidden'),
          '404': responseRef('NotFound'),
          '409': responseRef('SkuInUse'),
          '413': responseRef('PayloadTooLarge'),
          '415': responseRef('UnsupportedMediaType'),
          '429': responseRef('RateLimited'),
        },
      },
      delete: {
        operationId: 'deleteProduct',
        summary: 'Delete a product never sold',
        description:
          'Only a product never sold is deleted. A product sold once is kept for its records: archive it with `PATCH {"active": false}`. Rate limited.',
        tags: ['Products'],
        parameters: [idParameter('product', productExample.id)],
        responses: {
          '204': { description: 'Deleted.' },
          '401': responseRef('Unauthorized'),
          '403': responseRef('Forbidden'),
          '404': responseRef('NotFound'),
          '409': responseRef('ProductSold'),
          '429': responseRef('RateLimited'),
        },
      },
    },
  }
}
