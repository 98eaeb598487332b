/**
 * The zod schemas of the merchant API's product object and of its list page. The OpenAPI document
 * is made from them; the handlers build the answers with objects.ts, which does not parse them.
 * Nothing the Worker runs imports a value from here.
 */
import * as z from 'zod'
import { dzd, page, time } from '../object-fields.js'

export const productObject = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  price: dzd,
  currency: z.literal('DZD'),
  stock: z.number().int().nullable().describe('units left to sell; null: unlimited'),
  sku: z.string().nullable(),
  active: z.boolean().describe('false: archived, kept but no longer sold'),
  image_url: z
    .string()
    .nullable()
    .describe('the image, uploaded in the dashboard (read only); null when none'),
  created_at: time,
  updated_at: time,
})
export type ProductObject = z.infer<typeof productObject>

/** A page of products, newest first. */
export const productList = page(productObject)
