/** The direct interface (`{siteUrl}/…`, credential `encrypted_sk` added by the client). */
import type { ClientContext } from '../core/context.js'
import { type DirectInvoices, directInvoices } from './invoices.js'
import { type DirectOperations, directOperations } from './operations.js'
import { type DirectProducts, directProducts } from './products.js'

export interface DirectInterface {
  operations: DirectOperations
  products: DirectProducts
  invoices: DirectInvoices
}

/** Every resource of the direct interface over one client context. */
export function createDirect(ctx: ClientContext): DirectInterface {
  return {
    operations: directOperations(ctx),
    products: directProducts(ctx),
    invoices: directInvoices(ctx),
  }
}
