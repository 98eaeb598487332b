/** The API-key interface (`{apiUrl}` ending with `/v1`, header `X-API-Key`). */
import type { ClientContext } from '../core/context.js'
import { type V1Bills, v1Bills } from './bills.js'
import { type V1Cib, v1Cib } from './cib.js'
import { type V1Invoices, v1Invoices } from './invoices.js'
import { type V1Operations, v1Operations } from './operations.js'
import { type V1Products, v1Products } from './products.js'
import { type V1Recharge, v1Recharge } from './recharge.js'

export interface V1Interface {
  recharge: V1Recharge
  cib: V1Cib
  bills: V1Bills
  operations: V1Operations
  products: V1Products
  invoices: V1Invoices
}

/** Every resource of the API-key interface over one client context. */
export function createV1(ctx: ClientContext): V1Interface {
  return {
    recharge: v1Recharge(ctx),
    cib: v1Cib(ctx),
    bills: v1Bills(ctx),
    operations: v1Operations(ctx),
    products: v1Products(ctx),
    invoices: v1Invoices(ctx),
  }
}
