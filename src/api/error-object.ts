/**
 * The zod schema of the merchant API's error answer (errors.ts), for the OpenAPI document. Nothing
 * the Worker runs imports a value from here, so its upload does not carry it.
 */
import * as z from 'zod'
import { API_ERROR_CODES } from './error-codes.js'

export const apiErrorObject = z.object({
  error: z.object({
    code: z.enum(API_ERROR_CODES),
    message: z.string().describe('what went wrong and what to do about it, in English'),
    fields: z
      .record(z.string(), z.string())
      .optional()
      .describe('one message per bad field, keyed by its path (`invoice_items[0].quantity`)'),
  }),
})
export type ApiErrorObject = z.infer<typeof apiErrorObject>
