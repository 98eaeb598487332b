/**
 * Direct interface: `operation_post` (one method per kind), the operation history and the detail
 * of one operation. Submissions move money and are never retried; history and detail are reads.
 */
import * as z from 'zod'
import { type ClientContext, encryptedSk, sendSite } from '../core/context.js'
import { normalise } from '../core/normalise.js'
import type { JsonObject } from '../core/parse.js'
import { objectBody } from '../core/response.js'
import type { CallOptions } from '../core/transport.js'
import { encodePath } from '../core/url.js'
import { count, idInput, validate } from '../core/validate.js'
import { type OperationHistory, parseOperationHistory } from './history.js'
import {
  type BillOperationRequest,
  billOperationSchema,
  type GameOperationRequest,
  gameOperationSchema,
  type InternetOperationRequest,
  internetOperationSchema,
  type PhoneOperationRequest,
  phoneOperationSchema,
} from './operation-schemas.js'

/** The 200 answer of `operation_post`; unknown fields kept. */
export interface OperationResult {
  status?: string
  message?: string
  operation_id?: string
  transaction_id?: string
  transaction_status?: string
  [key: string]: unknown
}

export const historyQuerySchema = z.strictObject({
  limit: count(1).optional(),
  offset: count(0).optional(),
})

/** Query of the operation history (the gateway's default limit is 10). */
export type OperationHistoryQuery = z.input<typeof historyQuerySchema>
/** The detail of one operation: not described by the documents, returned as received. */
export type OperationDetail = JsonObject

export interface DirectOperations {
  /** Phone top-up through `POST services/operation_post`. Never retried. */
  phone(body: PhoneOperationRequest, options?: CallOptions): Promise<OperationResult>
  /** Internet (IDOOM) top-up through `POST services/operation_post`. Never retried. */
  internet(body: InternetOperationRequest, options?: CallOptions): Promise<OperationResult>
  /** Game top-up through `POST services/operation_post`. Never retried. */
  game(body: GameOperationRequest, options?: CallOptions): Promise<OperationResult>
  /** Bill payment through `POST services/operation_post`. Never retried. */
  bill(body: BillOperationRequest, options?: CallOptions): Promise<OperationResult>
  /** `GET services/operation-history/` with `encrypted_sk`, `limit` and `offset` in the query. */
  history(query?: OperationHistoryQuery, options?: CallOptions): Promise<OperationHistory>
  /** `GET services/operation-detail/{id}/` (or `operation-details`, per client option). */
  get(operationId: string, options?: CallOptions): Promise<OperationDetail>
}

const RESULT_FIELDS = {
  status: 'string',
  message: 'string',
  operation_id: 'string',
  transaction_id: 'string',
  transaction_status: 'string',
} as const

/** The `operations` resource of the direct interface. */
export function directOperations(ctx: ClientContext): DirectOperations {
  const submit = async <S extends z.ZodType>(schema: S, body: unknown, options?: CallOptions) => {
    const fields = validate(schema, body) as JsonObject
    const json = { encrypted_sk: encryptedSk(ctx), ...fields }
    const res = await sendSite(ctx, 'POST', 'services/operation_post', {
      body: json,
      idempotent: false,
      options,
    })
    return normalise(objectBody(res, 'services/operation_post'), RESULT_FIELDS) as OperationResult
  }
  return {
    phone: (body, options) => submit(phoneOperationSchema, body, options),
    internet: (body, options) => submit(internetOperationSchema, body, options),
    game: (body, options) => submit(gameOperationSchema, body, options),
    bill: (body, options) => submit(billOperationSchema, body, options),
    async history(query = {}, options) {
      const q = validate(historyQuerySchema, query)
      const res = await sendSite(ctx, 'GET', 'services/operation-history/', {
        query: { encrypted_sk: encryptedSk(ctx), limit: q.limit, offset: q.offset },
        idempotent: true,
        options,
      })
      return parseOperationHistory(objectBody(res, 'services/operation-history/'))
    },
    async get(operationId, options) {
      const { id } = validate(idInput, { id: operationId })
      const sk = encryptedSk(ctx)
      const path =
        ctx.operationDetailPath === 'operation-details'
          ? encodePath`services/operation-details/${id}/`
          : encodePath`services/operation-detail/${id}/`
      const res = await sendSite(ctx, 'GET', path, {
        query: { encrypted_sk: sk },
        idempotent: true,
        options,
      })
      return objectBody(res, path)
    },
  }
}
