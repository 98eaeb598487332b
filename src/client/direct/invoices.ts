/** Direct interface: merchant invoices (create, update, list under `merchant/invoices/`). */
import * as z from 'zod'
import { type ClientContext, encryptedSk, sendSite } from '../core/context.js'
import { normalise, normaliseList } from '../core/normalise.js'
import { isObject, type Json, type JsonObject } from '../core/parse.js'
import { objectBody } from '../core/response.js'
import type { CallOptions } from '../core/transport.js'
import type { Query } from '../core/url.js'
import { amountNumber, count, identifier, price, text, validate } from '../core/validate.js'

const status = () =>
  z.enum(['PENDING', 'PAID', 'CANCELLED'], { error: 'must be PENDING, PAID or CANCELLED' })
const newItem = () =>
  z.strictObject({ description: text(), quantity: count(1), unit_price: price() })

export const createInvoiceSchema = z.strictObject({
  amount: amountNumber(),
  items: z.array(newItem(), { error: 'must be a list' }).optional(),
  existing_item_ids: z
    .array(z.strictObject({ item_id: identifier(), quantity: count(1) }), {
      error: 'must be a list',
    })
    .optional(),
  status: status().optional(),
})

export const updateInvoiceSchema = z.strictObject({
  invoice_id: identifier(),
  amount: amountNumber().optional(),
  status: status().optional(),
  items_to_add: z.array(newItem(), { error: 'must be a list' }).optional(),
  items_to_remove: z.array(identifier(), { error: 'must be a list' }).optional(),
  items_to_update: z
    .array(
      z.strictObject({
        item_id: identifier(),
        quantity: count(1).optional(),
        unit_price: price().optional(),
      }),
      { error: 'must be a list' },
    )
    .optional(),
})

export const listInvoicesSchema = z
  .record(
    z.string(),
    z.union([z.string(), z.number(), z.boolean()], {
      error: 'must be a string, number or boolean',
    }),
    { error: 'must be an object of query parameters' },
  )
  .refine((q) => !('encrypted_sk' in q), {
    message: 'encrypted_sk is added by the client from its secretKey',
  })

/** Invoice creation: total `amount`, new `items` and/or `existing_item_ids`, optional status. */
export type CreateInvoiceRequest = z.input<typeof createInvoiceSchema>
/** Invoice update: `invoice_id`, then any of amount, status and item changes. */
export type UpdateInvoiceRequest = z.input<typeof updateInvoiceSchema>
/** Filters and paging of the invoice list: not documented, sent as given in the query. */
export type ListInvoicesQuery = Record<string, string | number | boolean>

/** An invoice item, from a free description or from a catalog item (`item_id`, `name`). */
export interface InvoiceItem {
  id?: string
  description?: string
  item_id?: string
  name?: string
  quantity?: number
  unit_price?: number
  total_price?: number
  [key: string]: unknown
}

export interface Invoice {
  id?: string
  amount?: number
  status?: string
  created_at?: string
  updated_at?: string
  items: InvoiceItem[]
  total_items?: number
  subtotal?: number
  [key: string]: unknown
}

/** The answer of invoice creation (and of update, whose body is not documented). */
export interface InvoiceResult {
  success?: boolean
  message?: string
  invoice?: Invoice
  [key: string]: unknown
}

export interface DirectInvoices {
  /** `POST merchant/invoices/create/`. Never retried. */
  create(body: CreateInvoiceRequest, options?: CallOptions): Promise<InvoiceResult>
  /** `POST merchant/invoices/update/`. Never retried. */
  update(body: UpdateInvoiceRequest, options?: CallOptions): Promise<InvoiceResult>
  /** `GET merchant/invoices/` with `encrypted_sk` and the given filters in the query. */
  list(query?: ListInvoicesQuery, options?: CallOptions): Promise<Json>
}

const ITEM = {
  id: 'string',
  description: 'string',
  item_id: 'string',
  name: 'string',
  quantity: 'integer',
  unit_price: 'number',
  total_price: 'number',
} as const
const INVOICE = {
  id: 'string',
  amount: 'number',
  status: 'string',
  created_at: 'string',
  updated_at: 'string',
  total_items: 'integer',
  subtotal: 'number',
} as const

/** Reads an invoice leniently (numbers given as text become numbers). */
export function parseInvoice(value: unknown): Invoice {
  const invoice = normalise(value, INVOICE)
  return { ...invoice, items: normaliseList(invoice.items, ITEM) } as Invoice
}

function parseResult(body: JsonObject): InvoiceResult {
  const result = normalise(body, { success: 'boolean', message: 'string' }) as InvoiceResult
  if (isObject(body.invoice)) result.invoice = parseInvoice(body.invoice)
  return result
}

/** The `invoices` resource of the direct interface. */
export function directInvoices(ctx: ClientContext): DirectInvoices {
  const post = async (path: string, fields: JsonObject, options?: CallOptions) => {
    const body = { encrypted_sk: encryptedSk(ctx), ...fields }
    const res = await sendSite(ctx, 'POST', path, { body, idempotent: false, options })
    return parseResult(objectBody(res, path))
  }
  return {
    create: async (body, options) =>
      post('merchant/invoices/create/', validate(createInvoiceSchema, body), options),
    update: async (body, options) =>
      post('merchant/invoices/update/', validate(updateInvoiceSchema, body), options),
    async list(query = {}, options) {
      const filters = validate(listInvoicesSchema, query)
      const q: Query = { encrypted_sk: encryptedSk(ctx), ...filters }
      const res = await sendSite(ctx, 'GET', 'merchant/invoices/', {
        query: q,
        idempotent: true,
        options,
      })
      return res.data as Json
    },
  }
}
