/**
 * What every resource needs from the client: transport settings, base URLs and credentials, with
 * the checks that must pass before a call of each interface is sent.
 */
import { fromBase64 } from '../../lib/bytes.js'
import { isValidSecretSeed } from '../../lib/strkey.js'
import { GatewayConfigurationError, ValidationError } from './errors.js'
import {
  type CallOptions,
  type GetWithBody,
  send,
  type TransportResponse,
  type TransportSettings,
} from './transport.js'
import { joinUrl, type Query } from './url.js'

export interface ClientContext {
  settings: TransportSettings
  siteUrl: string
  apiUrl: string | undefined
  apiKey: string | undefined
  secretKey: string | undefined
  sandbox: boolean
  operationDetailPath: 'operation-detail' | 'operation-details'
  checkAmountUnit: 'centimes' | 'dzd'
  getWithBody: GetWithBody | undefined
}

export interface CallSpec {
  query?: Query
  body?: unknown
  idempotent: boolean
  options?: CallOptions | undefined
  /** Values about a person that no error may quote (see TransportRequest). */
  personal?: readonly string[] | undefined
}

/** Sends a call of the API-key interface (`{apiUrl}/…` with `X-API-Key`). */
export function sendV1(
  ctx: ClientContext,
  method: 'GET' | 'POST',
  path: string,
  spec: CallSpec,
): Promise<TransportResponse> {
  if (!ctx.apiUrl)
    throw new GatewayConfigurationError(
      'The API-key interface needs apiUrl (the gateway base URL ending with /v1): pass it to createGatewayClient.',
    )
  if (!ctx.apiKey)
    throw new GatewayConfigurationError(
      'The API-key interface needs apiKey (sent as X-API-Key): pass it to createGatewayClient.',
    )
  return send(ctx.settings, {
    method,
    url: joinUrl(ctx.apiUrl, path),
    headers: { 'X-API-Key': ctx.apiKey },
    ...spec,
  })
}

/** Sends a call of the direct interface (`{siteUrl}/…`); the caller adds `encrypted_sk`. */
export function sendSite(
  ctx: ClientContext,
  method: 'GET' | 'POST',
  path: string,
  spec: CallSpec,
): Promise<TransportResponse> {
  return send(ctx.settings, { method, url: joinUrl(ctx.siteUrl, path), ...spec })
}

// An RSA ciphertext is at least 512 bits; anything shorter cannot be an encrypted secret key.
const MIN_CIPHERTEXT_BYTES = 64

/**
 * The `encrypted_sk` value: a plain seed whose checksum is valid, or an RSA-encrypted key in
 * base64 (accepted opaque). Checked before every direct call so a typo never reaches the wire.
 */
export function encryptedSk(ctx: ClientContext): string {
  const key = ctx.secretKey
  if (!key)
    throw new GatewayConfigurationError(
      'The direct interface needs secretKey (sent as encrypted_sk): pass it to createGatewayClient.',
    )
  if (isValidSecretSeed(key)) return key
  const looksLikeSeed = /^S[A-Z2-7]*$/.test(key) && key.length <= 60
  const ciphertext = looksLikeSeed ? null : fromBase64(key)
  if (/^[A-Za-z0-9+/_-]+=*$/.test(key) && ciphertext && ciphertext.length >= MIN_CIPHERTEXT_BYTES)
    return key
  throw new ValidationError(
    {
      encrypted_sk: [
        'must be a secret seed (S…, 56 characters, valid checksum) or an RSA-encrypted key in base64',
      ],
    },
    'Invalid secretKey',
  )
}
