/** What every part of one simulator instance shares: its options, state, clock and ids. */

import type { Faults } from './faults.js'
import type { Ids } from './ids.js'
import type { SimState } from './state.js'
import type { WebhookDispatcher } from './webhooks.js'
import type { Centimes } from './wire/amounts.js'

/** The parts of a callback `message`, for a custom `messageFormat`. */
export interface MessageParts {
  /** The values of the return URL's own query parameters, in order. */
  queryValues: string[]
  paymentStatus: string
  amount: Centimes
}

/**
 * How `message` is built. `'inferred'` (default) is `gateway-facts.md`'s reading: query values,
 * then the status, then the amount in DZD as its shortest text (`100`); `'decimal'` writes the
 * amount with two decimals (`100.00`); a function builds it any other way.
 */
export type MessageFormat = 'inferred' | 'decimal' | ((parts: MessageParts) => string)

export interface SimConfig {
  /** Absolute URL of the simulator's root as a browser reaches it, without a trailing slash. */
  publicUrl: string
  /** The path part of `publicUrl` ('' or e.g. '/_sim'): links in pages are built from it. */
  basePath: string
  apiKey: string
  /** Accepted secret seeds; null accepts every checksum-valid seed. */
  secretSeeds: readonly string[] | null
  merchantAccount: string
  signingKeyPem: string
  publicKeyPem: string
  sessionTtlMs: number
  webhookRetryDelaysMs: readonly number[]
  webhookTimeoutMs: number
  messageFormat: MessageFormat
  creationStatus: string
  /** How long a `hang` fault holds a request that nobody aborts. */
  hangCapMs: number
  /** After this long an operation's history status moves from `processing` to `completed`. */
  operationProcessingMs: number
}

export interface SimContext {
  config: SimConfig
  state: SimState
  faults: Faults
  ids: Ids
  clock: () => number
  /** Waits; rejects early when the signal aborts. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>
  webhooks: WebhookDispatcher
}
