/** The answers the operations of the OpenAPI document share: JSON bodies and the error answers. */

import { GUESS_LIMITS } from '../security/token-guessing.js'
import { MAX_BODY_BYTES } from './body.js'
import { errorExample, unprocessableExample } from './openapi-examples.js'
import { schemaRef } from './openapi-schemas.js'
import type { OpenApiMediaType, OpenApiResponse, OpenApiResponseOrRef } from './openapi-types.js'
import { LINK_WRITE_LIMITS } from './rate-limit.js'

const { perIp, perToken } = LINK_WRITE_LIMITS
const { perAddress } = GUESS_LIMITS
const retryAfter = {
  'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer', minimum: 1 } },
}
const wrongTokens = `after ${perAddress.failures} wrong tokens from one client address in ${perAddress.windowMs / 60_000} minutes, every token from that address (the right one too) is refused until the window ends`

/** A JSON body of the named component schema, with an example. */
export function json(schema: string, example?: unknown): Record<string, OpenApiMediaType> {
  return {
    'application/json': {
      schema: schemaRef(schema),
      ...(example === undefined ? {} : { example }),
    },
  }
}

const error = (description: string, code: string, message: string): OpenApiResponse => ({
  description,
  content: json('Error', { error: { code, message } }),
})

/** Reusable answers, referenced from the operations as `#/components/responses/<name>`. */
export const RESPONSES = {
  Unauthorized: {
    ...error(
      'No key, or neither a usable API key nor the admin token (a revoked key, or one whose person is disabled).',
      'unauthorized',
      'Send an API key (or the admin token) in the X-API-Key header or as Authorization: Bearer <key>.',
    ),
    headers: {
      'WWW-Authenticate': {
        description: 'Always `Bearer realm="paylinks"`.',
        schema: { type: 'string' },
      },
    },
  },
  Forbidden: error(
    "The key's scope or its role does not allow this: a `read` key changes nothing, and a person's key does only what the person's role allows.",
    'forbidden',
    'This key or its role does not allow this (needs links.write).',
  ),
  NotFound: error('No such link, payment or checkout.', 'not_found', 'No link has this id.'),
  BadRequest: {
    description:
      'Malformed JSON (`invalid_json`), fields that break a rule (`invalid_body`, `invalid_query`), or an empty or over-long `Idempotency-Key` (`invalid_header`); `fields` names each one. Nothing was changed.',
    content: json('Error', errorExample),
  },
  UnsupportedMediaType: error(
    'The body is not sent as JSON.',
    'unsupported_media_type',
    'Send the body as JSON with the header Content-Type: application/json.',
  ),
  PayloadTooLarge: error(
    `The body is over ${MAX_BODY_BYTES} bytes.`,
    'payload_too_large',
    `The request body must be at most ${MAX_BODY_BYTES} bytes.`,
  ),
  RateLimited: {
    ...error(
      `Too many link changes: at most ${perIp} a minute from one client address, ${perToken} a minute for the token. Or too many wrong tokens: ${wrongTokens}.`,
      'rate_limited',
      `Too many link changes from this address: at most ${perIp} a minute. Retry after the time in Retry-After.`,
    ),
    headers: retryAfter,
  },
  Throttled: {
    ...error(
      `Too many wrong tokens: ${wrongTokens}.`,
      'rate_limited',
      'Too many wrong tokens from this address: every token is refused for a while. Retry after the time in Retry-After.',
    ),
    headers: retryAfter,
  },
  LinkBelongsToCheckout: error(
    'The link is the page of a checkout (`source` `checkout`): it changes with its checkout only.',
    'link_belongs_to_checkout',
    'This link is the page of a checkout and changes with it: read or expire the checkout instead.',
  ),
  LinkHasPayments: error(
    'The link has payments, so it is kept; switch it off instead. (A checkout’s link answers `link_belongs_to_checkout`.)',
    'link_has_payments',
    'This link has payments and is never deleted; deactivate it with PATCH {"active": false}.',
  ),
  ProductSold: error(
    'The product has been sold, so it is kept; archive it instead.',
    'product_sold',
    'This product has been sold and is never deleted; archive it with PATCH {"active": false}.',
  ),
  SkuInUse: {
    description: 'Another product has this SKU (whatever its case); nothing was stored.',
    content: json('Error', {
      error: {
        code: 'sku_in_use',
        message: 'Another product has this SKU.',
        fields: { sku: 'sku is already the SKU of another product (whatever its case)' },
      },
    }),
  },
  PromoCodeTaken: {
    description: 'Another promo code has this code (whatever its case); nothing was stored.',
    content: json('Error', {
      error: {
        code: 'promo_code_taken',
        message: 'Another promo code has this code.',
        fields: { code: 'code is already another promo code (whatever its case)' },
      },
    }),
  },
  UnprocessableCheckout: {
    description:
      'The body is well formed but asks for what this Paylinks does not have: a `product_id` no product of the catalogue has, or an archived one. `fields` names each one; nothing was stored.',
    content: json('Error', unprocessableExample),
  },
  CheckoutNotExpirable: {
    description:
      'The checkout is not open (`checkout_not_open`: completed, expired or canceled), or a customer is paying it (`checkout_payment_in_progress`: retry after `Retry-After`, when the card page’s session is over; the payment may complete it meanwhile). Nothing was changed.',
    headers: {
      'Retry-After': {
        description: 'With `checkout_payment_in_progress`: seconds to wait.',
        schema: { type: 'integer', minimum: 1 },
      },
    },
    content: {
      'application/json': {
        schema: schemaRef('Error'),
        examples: {
          checkout_not_open: {
            summary: 'The checkout is not open.',
            value: {
              error: {
                code: 'checkout_not_open',
                message: 'This checkout is completed; only an open checkout can be expired.',
              },
            },
          },
          checkout_payment_in_progress: {
            summary: 'A customer is paying the checkout.',
            value: {
              error: {
                code: 'checkout_payment_in_progress',
                message:
                  'A payment of this checkout is under way; it is not expired while the customer may still pay. Retry after the time in Retry-After, or let it complete.',
              },
            },
          },
        },
      },
    },
  },
  GatewayError: error(
    'The gateway did not create the invoice for `invoice_items`; nothing was stored. Safe to retry.',
    'gateway_error',
    'The gateway did not create the invoice; try again.',
  ),
} satisfies Record<string, OpenApiResponse>

/** A reference to one of RESPONSES. */
export function responseRef(name: keyof typeof RESPONSES): OpenApiResponseOrRef {
  return { $ref: `#/components/responses/${name}` }
}
