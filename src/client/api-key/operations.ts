/** API-key interface: operation history and details (`GET /operations`, `GET /operations/{id}`). */
import * as z from 'zod'
import type { ClientContext } from '../core/context.js'
import { sendV1 } from '../core/context.js'
import type { JsonObject } from '../core/parse.js'
import { objectBody } from '../core/response.js'
import type { CallOptions } from '../core/transport.js'
import { encodePath } from '../core/url.js'
import { count, idInput, validate } from '../core/validate.js'

const date = () => z.iso.date({ error: 'must be a date (YYYY-MM-DD)' })

export const v1OperationsQuerySchema = z
  .strictObject({
    page: count(1).optional(),
    per_page: count(1).optional(),
    type: z
      .enum(['phone', 'internet', 'game', 'cib', 'bill'], {
        error: 'must be one of phone, internet, game, cib, bill',
      })
      .optional(),
    from: date().optional(),
    to: date().optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    message: 'must not be after to',
    path: ['from'],
  })

/** Query of `GET /operations` (page 1 and 20 per page when left out). */
export type V1OperationsQuery = z.input<typeof v1OperationsQuerySchema>
/** OperationHistory: a paginated list; fields not described by the document. */
export type V1OperationHistory = JsonObject
/** OperationDetails: fields not described by the document. */
export type V1OperationDetails = JsonObject

export interface V1Operations {
  /** `GET /operations`: the account's history, filtered by type and date range. */
  list(query?: V1OperationsQuery, options?: CallOptions): Promise<V1OperationHistory>
  /** `GET /operations/{operationId}`; an unknown id throws GatewayNotFoundError. */
  get(operationId: string, options?: CallOptions): Promise<V1OperationDetails>
}

/** The `operations` resource of the API-key interface. */
export function v1Operations(ctx: ClientContext): V1Operations {
  return {
    async list(query = {}, options) {
      const q = validate(v1OperationsQuerySchema, query)
      const res = await sendV1(ctx, 'GET', 'operations', { query: q, idempotent: true, options })
      return objectBody(res, 'operations')
    },
    async get(operationId, options) {
      const { id } = validate(idInput, { id: operationId })
      const res = await sendV1(ctx, 'GET', encodePath`operations/${id}`, {
        idempotent: true,
        options,
      })
      return objectBody(res, 'operations/{operationId}')
    },
  }
}
