/**
 * Where a request's time goes: the checkout page and a webhook taken apart, in process, one call
 * at a time (no sockets, no concurrency), in microseconds per call. Runs inside the bench server.
 */

import { verifyGatewaySignature } from '../src/client/index.js'
import { getLinkBySlug, readLinkBySlug } from '../src/data/links.js'
import { getPaymentStateByCibTransactionId } from '../src/data/payments.js'
import type { AppDeps } from '../src/deps.js'
import { formatAmount } from '../src/i18n/index.js'
import type { SqliteHandle } from '../src/runtime/node/database.js'
import { issueSharedToken, issueToken } from '../src/security/tokens.js'

export type Breakdown = Record<
  | 'page'
  | 'health'
  | 'linkBySlug'
  | 'linkCached'
  | 'linkBySlugPrepared'
  | 'csrfToken'
  | 'freshToken'
  | 'formatAmount'
  | 'verify'
  | 'verifyWebCrypto'
  | 'sha256'
  | 'inboxRecord'
  | 'paymentLookup',
  number
>

/** Mean microseconds per call of `task`, after a warm-up, over about `ms` milliseconds. */
async function micros(task: (i: number) => unknown, ms = 600): Promise<number> {
  for (let i = 0; i < 200; i++) await task(i)
  let n = 0
  const started = performance.now()
  while (performance.now() - started < ms) await task(200 + n++)
  return ((performance.now() - started) * 1000) / n
}

/** Times the pieces of the checkout page and of a webhook delivery. */
export async function breakdown(
  app: { request(path: string): Response | Promise<Response> },
  deps: AppDeps,
  sqlite: SqliteHandle,
  slug: string,
  payload: Record<string, unknown>,
): Promise<Breakdown> {
  const link = await getLinkBySlug(deps.db, slug)
  if (!link) throw new Error(`no link ${slug}`)
  const prepared = sqlite.sqlite.prepare('SELECT * FROM links WHERE slug = ?')
  const message = String(payload.message)
  const signature = String(payload.signature)
  const raw = JSON.stringify(payload)
  const cib = String(payload.cib_transaction_id)
  return {
    page: await micros(async () => (await app.request(`/l/${slug}`)).text()),
    health: await micros(async () => (await app.request('/healthz')).text()),
    linkBySlug: await micros(() => getLinkBySlug(deps.db, slug)),
    linkCached: await micros(() => readLinkBySlug(deps.db, slug, deps.linkCache)),
    linkBySlugPrepared: await micros(() => prepared.get(slug)),
    csrfToken: await micros(() =>
      issueSharedToken(deps.secrets.sessionSecret, `checkout:${slug}`, Date.now()),
    ),
    freshToken: await micros((i) => issueToken(deps.secrets.sessionSecret, `checkout:${slug}`, i)),
    formatAmount: await micros((i) => formatAmount(150_000 + i, 'fr')),
    verify: await micros(() => deps.verifySignature(message, signature)),
    verifyWebCrypto: await micros(() =>
      verifyGatewaySignature(message, signature, deps.gatewayPublicKey),
    ),
    sha256: await micros((i) => deps.sha256Hex(`${raw}${i}`)),
    inboxRecord: await micros((i) =>
      deps.recordDelivery(
        {
          signedKey: `breakdown-${i}`,
          cibTransactionId: cib,
          paymentStatus: 'success',
          payload: raw,
        },
        Date.now(),
      ),
    ),
    paymentLookup: await micros(() => getPaymentStateByCibTransactionId(deps.db, cib)),
  }
}
