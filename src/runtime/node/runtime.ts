/**
 * The pieces of Paylinks that Node does faster than the Web APIs the shared code uses: the
 * gateway's RSA signatures checked with node:crypto on a thread of their own, in batches, SHA-256
 * without a promise, a change stamp for the read cache from SQLite itself, webhook inbox writes
 * grouped into shared commits, gzip (and raw deflate) for prepared pages, the body-on-GET sender
 * and receipt PDFs; outbound webhooks connected to the addresses their check passed (which fetch
 * cannot do); the dashboard's words and the API's document from the code (the Worker reads them
 * from assets).
 * The simulator's module is imported only when simulator mode asks for it, so a sandbox or live
 * process never loads it.
 */
import { createHash } from 'node:crypto'
import { brotliCompressSync, constants, deflateRawSync, gzipSync } from 'node:zlib'
import { apiDocsFrom } from '../../api/api-docs-source.js'
import type { RuntimeParts } from '../../app/assemble.js'
import type { Config } from '../../config.js'
import { saleEventStream } from '../../dashboard/till-events.js'
import type { ChangeStamp } from '../../data/read-cache.js'
import type { EncodePage } from '../../http/compress-pages.js'
import { termsTextsInCode } from '../../i18n/terms.js'
import { type DeflateRaw, gzipSplice } from '../../lib/gzip-splice.js'
import { consoleLogger } from '../../log.js'
import { createPaymentChanges } from '../../payments/changes.js'
import { nodeClientIp } from './client-address.js'
import type { SqliteHandle } from './database.js'
import { nodeDeclaredBodyLength } from './declared-length.js'
import { nodeGetWithBody } from './get-with-body.js'
import { groupCommitInbox } from './inbox.js'
import { renderJsxWithoutAsyncHooks } from './jsx-without-async-hooks.js'
import { type NodeMail, nodeMail } from './mail.js'
import { pinnedWebhookFetch } from './pinned-fetch.js'
import { nodeReceiptPdf } from './receipt-pdf.js'
import { resolveHost } from './resolve-host.js'
import { processSignatureCheck } from './signature-thread.js'

/** SHA-256 of the UTF-8 text, lower-case hex. */
export function sha256HexSync(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

/**
 * A stamp that changes with every row this connection writes (`total_changes()`, which reads no
 * file) and with every commit by another connection to the same file (`PRAGMA data_version`, which
 * takes the file's read locks: a few microseconds, so it is read at most every `otherWritersMs`).
 * Paylinks writes through one connection, so its own changes show at once; a change made by another
 * process on the same file shows within `otherWritersMs`.
 */
export function sqliteChangeStamp(handle: SqliteHandle, otherWritersMs = 100): ChangeStamp {
  const changes = handle.sqlite.prepare('SELECT total_changes()').pluck()
  const version = handle.sqlite.prepare('PRAGMA data_version').pluck()
  let knownVersion = 0
  let readAt = Number.NEGATIVE_INFINITY
  return () => {
    const now = performance.now()
    if (now - readAt >= otherWritersMs) {
      knownVersion = version.get() as number
      readAt = now
    }
    return [changes.get() as number, knownVersion]
  }
}

/**
 * A page's body compressed with zlib (brotli at quality 5: most of the gain of 11 at a fraction of
 * its time); bodies under 1 KiB are sent as they are.
 */
export const zlibEncodesPages: EncodePage = {
  codings: ['br', 'gzip'],
  async encode(response, coding) {
    const body = new Uint8Array(await response.arrayBuffer())
    if (body.length < 1024) return new Response(body, response)
    const encoded =
      coding === 'br'
        ? brotliCompressSync(body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: 5,
              [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          })
        : gzipSync(body, { level: 6 })
    const res = new Response(encoded, response)
    res.headers.set('Content-Encoding', coding)
    res.headers.delete('Content-Length')
    return res
  },
}

/** Raw deflate at zlib's best level; a part that more blocks follow ends on a sync flush. */
const deflateRaw: DeflateRaw = (bytes, final) =>
  deflateRawSync(bytes, final ? { level: 9 } : { level: 9, finishFlush: constants.Z_SYNC_FLUSH })

/** What `assemble` takes from Node beyond the database, configuration and logger. */
export function nodeRuntimeParts(
  handle: SqliteHandle,
): Pick<
  RuntimeParts,
  | 'getWithBody'
  | 'verifySignature'
  | 'sha256Hex'
  | 'changeStamp'
  | 'recordDelivery'
  | 'declaredBodyLength'
  | 'gzip'
  | 'spliceGzip'
  | 'encodePage'
  | 'loadSimulator'
  | 'receiptPdf'
  | 'resolveHost'
  | 'webhookFetch'
  | 'dashboardKit'
  | 'termsTexts'
  | 'apiDocs'
  | 'paymentChanges'
  | 'saleEvents'
> {
  renderJsxWithoutAsyncHooks()
  return {
    dashboardKit: (lang) =>
      import('../../dashboard/kit-in-code.js').then((kit) => kit.dashboardKitInCode(lang)),
    termsTexts: termsTextsInCode,
    apiDocs: apiDocsFrom(() =>
      import('../../api/api-docs-templates.js').then((docs) => docs.apiDocsTemplates()),
    ),
    resolveHost,
    webhookFetch: pinnedWebhookFetch(),
    loadSimulator: () => import('../../simulator/index.js'),
    gzip: (bytes) => gzipSync(bytes, { level: 9 }),
    encodePage: zlibEncodesPages,
    spliceGzip: (before, after) => gzipSplice(before, after, deflateRaw),
    recordDelivery: groupCommitInbox(handle),
    declaredBodyLength: nodeDeclaredBodyLength,
    getWithBody: nodeGetWithBody,
    verifySignature: processSignatureCheck(),
    sha256Hex: sha256HexSync,
    changeStamp: sqliteChangeStamp(handle),
    receiptPdf: nodeReceiptPdf(),
    paymentChanges: createPaymentChanges(),
    saleEvents: saleEventStream,
  }
}

/**
 * What `assemble` takes from Node for this configuration and database (the same step as the
 * Worker's `runtimeParts`, src/runtime/worker/runtime.ts): the pieces above, the client's address
 * as TRUST_PROXY says, and e-mail (with SMTP_URL, paid payments queue their e-mails in the
 * outbox; without, nothing is queued).
 */
export async function runtimeParts(
  config: Config,
  handle: SqliteHandle,
): Promise<{ parts: RuntimeParts; mail: NodeMail }> {
  const runtime = nodeRuntimeParts(handle)
  const mail = await nodeMail({
    db: handle.db,
    config,
    log: consoleLogger,
    clock: Date.now,
    receiptPdf: runtime.receiptPdf,
  })
  const parts: RuntimeParts = {
    db: handle.db,
    config,
    log: consoleLogger,
    clientIp: nodeClientIp(config.trustProxy),
    ...runtime,
    ...mail.parts,
  }
  return { parts, mail }
}
