/** API-key interface: phone, internet and game recharges (`POST /recharge/…`). Never retried. */
import * as z from 'zod'
import type { ClientContext } from '../core/context.js'
import { sendV1 } from '../core/context.js'
import type { JsonObject } from '../core/parse.js'
import { objectBody } from '../core/response.js'
import type { CallOptions } from '../core/transport.js'
import { digits, text, validate } from '../core/validate.js'

export const v1PhoneRechargeSchema = z.strictObject({
  phone_number: digits(10),
  operator: z.enum(['mobilis', 'djezzy', 'ooredoo'], {
    error: 'must be one of mobilis, djezzy, ooredoo',
  }),
  amount: z
    .number({ error: 'must be a number' })
    .int('must be a whole number of DZD')
    .positive('must be greater than 0'),
})

export const v1InternetRechargeSchema = z.strictObject({
  subscription_number: text(),
  provider: z.enum(['idoom_adsl', 'idoom_4g', 'djaweb'], {
    error: 'must be one of idoom_adsl, idoom_4g, djaweb',
  }),
  package_id: text(),
})

export const v1GameRechargeSchema = z.strictObject({
  game_id: text(),
  product_id: text(),
  player_id: text(),
})

/** PhoneRechargeRequest of the API-key interface. */
export type V1PhoneRechargeRequest = z.input<typeof v1PhoneRechargeSchema>
/** InternetRechargeRequest of the API-key interface (`package_id` from the products catalog). */
export type V1InternetRechargeRequest = z.input<typeof v1InternetRechargeSchema>
/** GameRechargeRequest of the API-key interface (`game_id` is open-ended: pubg, freefire, ml…). */
export type V1GameRechargeRequest = z.input<typeof v1GameRechargeSchema>
/** OperationResponse: its fields are not described by the interface document. */
export type V1OperationResponse = JsonObject

export interface V1Recharge {
  /** `POST /recharge/phone`. */
  phone(body: V1PhoneRechargeRequest, options?: CallOptions): Promise<V1OperationResponse>
  /** `POST /recharge/internet`. */
  internet(body: V1InternetRechargeRequest, options?: CallOptions): Promise<V1OperationResponse>
  /** `POST /recharge/game`. */
  game(body: V1GameRechargeRequest, options?: CallOptions): Promise<V1OperationResponse>
}

/** The `recharge` resource of the API-key interface. */
export function v1Recharge(ctx: ClientContext): V1Recharge {
  const post = async (path: string, body: unknown, options?: CallOptions) =>
    objectBody(await sendV1(ctx, 'POST', path, { body, idempotent: false, options }), path)
  return {
    phone: async (body, options) =>
      post('recharge/phone', validate(v1PhoneRechargeSchema, body), options),
    internet: async (body, options) =>
      post('recharge/internet', validate(v1InternetRechargeSchema, body), options),
    game: async (body, options) =>
      post('recharge/game', validate(v1GameRechargeSchema, body), options),
  }
}
