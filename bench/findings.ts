/** Plain sentences on what this run's numbers say, computed from them (so they never go stale). */
import type { Breakdown } from './breakdown.js'
import type { VerifyResult } from './verify.js'

export interface FindingsInput {
  pageRatio: number
  healthRatio: number
  webhookRatio: number
  webhookRps: number
  parts: Breakdown
  verifiers: VerifyResult
}

const us = (v: number) => `${Math.round(v)} µs`
const ratio = (v: number) => v.toFixed(3)
const count = (v: number) => Math.round(v).toLocaleString('en-US')

/** The findings, one paragraph each. */
export function findings(f: FindingsInput): string[] {
  const p = f.parts
  const rest = p.page - p.linkBySlug - p.csrfToken
  const fromHook = p.verify + p.sha256 + p.inboxInsert + p.paymentLookup
  const v = f.verifiers
  return [
    `Goals: the checkout page reaches ${ratio(f.pageRatio)} of bare Hono (goal 0.5) and webhook ingestion ${ratio(f.webhookRatio)} (goal 0.2). Even \`/healthz\` — the middleware stack (dependencies into the context, request id and log line, security headers with a per-request CSP nonce) and one \`select 1\` — reaches only ${ratio(f.healthRatio)}: the hello-world does next to nothing per request, so a page that reads the database and renders HTML stays far below half of it.`,
    `Checkout page, in process: ${us(p.page)} per request. Reading the link with its paid totals (a drizzle query prepared once, with two correlated sums) takes ${us(p.linkBySlug)}, against ${us(p.linkBySlugPrepared)} for the bare row through better-sqlite3. The form token is shared by every visitor of a link for ten minutes (${us(p.csrfToken)}; a fresh WebCrypto HMAC would be ${us(p.freshToken)}), and the page is rendered once per link version and language, each request only swapping in its own CSP nonce and captcha challenge; routing, middleware, headers and the Response take the remaining ${us(rest)}. Formatting an amount costs ${us(p.formatAmount)} (one Intl formatter per language).`,
    `Webhooks: ${count(f.webhookRps)} events/s. In process a delivery spends ${us(p.verify)} verifying the RSA signature, ${us(p.sha256)} hashing the body, ${us(p.inboxInsert)} writing the inbox row and ${us(p.paymentLookup)} finding the payment (${us(fromHook)} together); the rest is HTTP, parsing, and the confirmation after the 200 (a check on the simulator, which shares the process here, and a conditional UPDATE).`,
    `Verifiers: node:crypto's \`verify\` does ${count(v.nodeCryptoPerSecond)}/s on the event loop; WebCrypto does ${count(v.webCryptoPerSecond)}/s awaited one at a time and ${count(v.webCryptoConcurrentPerSecond)}/s with 32 in flight, off the event loop on libuv's thread pool. Under concurrent webhooks WebCrypto is as fast and keeps the loop free, and it is the API Workers has, so Paylinks keeps it.`,
  ]
}
