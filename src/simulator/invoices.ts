/** Merchant invoices: free items and catalog items, totals, statuses, and their JSON. */
import * as z from 'zod'
import { CATALOG_ITEMS } from './catalog.js'
import type { SimContext } from './context.js'
import type { Invoice, InvoiceItem, InvoiceStatus, Merchant } from './state.js'
import { isoUtc } from './time.js'
import { dzdAmount } from './validation.js'
import { type Centimes, dzdNumber } from './wire/amounts.js'

const status = z.enum(['PENDING', 'PAID', 'CANCELLED'])
const quantity = z.number().int().positive()
const freeItem = z.object({
  description: z.string().trim().min(1),
  quantity,
  unit_price: dzdAmount,
})

export const createInvoiceSchema = z.object({
  amount: dzdAmount,
  items: z.array(freeItem).optional(),
  existing_item_ids: z.array(z.object({ item_id: z.string().min(1), quantity })).optional(),
  status: status.optional(),
})

export const updateInvoiceSchema = z.object({
  invoice_id: z.string().min(1),
  amount: dzdAmount.optional(),
  status: status.optional(),
  items_to_add: z.array(freeItem).optional(),
  items_to_remove: z.array(z.string().min(1)).optional(),
  items_to_update: z
    .array(
      z.object({
        item_id: z.string().min(1),
        quantity: quantity.optional(),
        unit_price: dzdAmount.optional(),
      }),
    )
    .optional(),
})

export type InvoiceResult =
  | { ok: true; invoice: Invoice }
  | { ok: false; status: 400 | 404; error: string }

const freeItems = (ctx: SimContext, items: z.infer<typeof freeItem>[] = []): InvoiceItem[] =>
  items.map((item) => ({
    id: ctx.ids.uuid(),
    itemId: null,
    name: item.description,
    quantity: item.quantity,
    unitPrice: item.unit_price,
  }))

/** Creates an invoice; a catalog item id that does not exist is a 404. */
export function createInvoice(
  ctx: SimContext,
  merchant: Merchant,
  input: z.infer<typeof createInvoiceSchema>,
): InvoiceResult {
  const items = freeItems(ctx, input.items)
  for (const ref of input.existing_item_ids ?? []) {
    const item = CATALOG_ITEMS.find((candidate) => candidate.id === ref.item_id)
    if (!item) return { ok: false, status: 404, error: `Item not found: ${ref.item_id}` }
    items.push({
      id: ctx.ids.uuid(),
      itemId: item.id,
      name: item.name,
      quantity: ref.quantity,
      unitPrice: item.unitPrice,
    })
  }
  const now = ctx.clock()
  const invoice: Invoice = {
    id: ctx.ids.uuid(),
    merchantId: merchant.id,
    amount: input.amount,
    status: input.status ?? 'PENDING',
    items,
    createdAt: now,
    updatedAt: now,
  }
  ctx.state.invoices.set(invoice.id, invoice)
  return { ok: true, invoice }
}

/** Adds, removes and updates items, changes amount and status. Without `amount`, a change of items sets it to the new subtotal. */
export function updateInvoice(
  ctx: SimContext,
  merchant: Merchant,
  input: z.infer<typeof updateInvoiceSchema>,
): InvoiceResult {
  const invoice = ctx.state.invoices.get(input.invoice_id)
  if (!invoice || invoice.merchantId !== merchant.id)
    return { ok: false, status: 404, error: 'Invoice not found' }
  let items = [...invoice.items]
  for (const id of input.items_to_remove ?? []) {
    if (!items.some((item) => item.id === id))
      return { ok: false, status: 400, error: `items_to_remove: no item ${id} on this invoice` }
    items = items.filter((item) => item.id !== id)
  }
  for (const change of input.items_to_update ?? []) {
    const index = items.findIndex((item) => item.id === change.item_id)
    if (index < 0)
      return {
        ok: false,
        status: 400,
        error: `items_to_update: no item ${change.item_id} on this invoice`,
      }
    const item = items[index]!
    items[index] = {
      ...item,
      quantity: change.quantity ?? item.quantity,
      unitPrice: change.unit_price ?? item.unitPrice,
    }
  }
  items.push(...freeItems(ctx, input.items_to_add))
  const itemsChanged = Boolean(
    input.items_to_add?.length || input.items_to_remove?.length || input.items_to_update?.length,
  )
  invoice.items = items
  invoice.amount = input.amount ?? (itemsChanged ? subtotal(items) : invoice.amount)
  invoice.status = input.status ?? invoice.status
  invoice.updatedAt = ctx.clock()
  return { ok: true, invoice }
}

/** Sets an invoice's status (a paid card payment marks its invoice PAID). */
export function setInvoiceStatus(ctx: SimContext, id: string, next: InvoiceStatus): void {
  const invoice = ctx.state.invoices.get(id)
  if (!invoice) return
  invoice.status = next
  invoice.updatedAt = ctx.clock()
}

function subtotal(items: InvoiceItem[]): Centimes {
  return items.reduce((sum, item) => sum + item.quantity * item.unitPrice, 0)
}

/** An invoice as both interfaces show it (amounts as JSON numbers of DZD). */
export function invoiceJson(invoice: Invoice): Record<string, unknown> {
  return {
    id: invoice.id,
    amount: dzdNumber(invoice.amount),
    status: invoice.status,
    created_at: isoUtc(invoice.createdAt),
    updated_at: isoUtc(invoice.updatedAt),
    items: invoice.items.map((item) => ({
      id: item.id,
      ...(item.itemId === null
        ? { description: item.name }
        : { item_id: item.itemId, name: item.name }),
      quantity: item.quantity,
      unit_price: dzdNumber(item.unitPrice),
      total_price: dzdNumber(item.quantity * item.unitPrice),
    })),
    total_items: invoice.items.length,
    subtotal: dzdNumber(subtotal(invoice.items)),
  }
}

/** A merchant's invoices, newest first, optionally of one status. */
export function merchantInvoices(
  ctx: SimContext,
  merchantId: string,
  only?: InvoiceStatus,
): Invoice[] {
  return [...ctx.state.invoices.values()]
    .filter((inv) => inv.merchantId === merchantId && (!only || inv.status === only))
    .sort((a, b) => b.createdAt - a.createdAt)
}
