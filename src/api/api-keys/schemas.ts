/**
 * The API key API's body, as a zod schema: the handlers parse with it, the OpenAPI document is
 * generated from it. The answers' objects are mapped in objects.ts, their schemas in
 * object-schemas.ts.
 */
import * as z from 'zod'
import { API_KEY_SCOPES } from '../../../db/schema.js'
import { CLEAN_TEXT_RULE, isCleanText } from '../../domain/clean-text.js'

export const createApiKeyBody = z.strictObject({
  name: z
    .string({ error: 'must be text' })
    .trim()
    .min(1, { error: 'is required' })
    .max(80, { error: 'must be at most 80 characters' })
    .refine((v) => isCleanText(v), { error: CLEAN_TEXT_RULE })
    .describe('What the key is for: "Shop site", "Accounting export".'),
  scope: z
    .enum(API_KEY_SCOPES, { error: `must be one of ${API_KEY_SCOPES.join(', ')}` })
    .describe('`read`: only reads (lists, details); `write`: everything its role allows.'),
  owner: z
    .enum(['store', 'me'], { error: 'must be store or me' })
    .optional()
    .describe(
      "`store` (default): acts with the owner's role; `me`: acts for the person behind this request, with their role, and stops when they are disabled or removed.",
    ),
})
