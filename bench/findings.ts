/** Plain sentences on what this run's numbers say, computed from them (so they never go stale). */
import type { Breakdown } from './breakdown.js'
import { WEBHOOK_GOAL } from './constants.js'
import type { Row } from './report.js'
import type { VerifyResult } from './verify.js'

type CpuPerRequest = Row['cpu']

export interface FindingsInput {
  pageRatio: number
  pageFloorRatio: number
  pageGzipRatio: number
  webhookFloorRatio: number
  webhookFloorRps: number
  healthRatio: number
  webhookRatio: number
  webhookRps: number
  /** CPU µs per request, server and autocannon. */
  bareCpu: CpuPerRequest
  pageCpu: CpuPerRequest
  pageFloorCpu: CpuPerRequest
  webhookCpu: CpuPerRequest
  webhookFloorCpu: CpuPerRequest
  /** Bare Hono's rate in the webhook rounds. */
  bareWebhookRps: number
  cores: number
  parts: Breakdown
  verifiers: VerifyResult
}

const us = (v: number) => `${Math.round(v)} µs`
const ratio = (v: number) => v.toFixed(3)
const count = (v: number) => Math.round(v).toLocaleString('en-US')
const percent = (v: number) => `${Math.round(v * 100)} %`

/** Where the checkout page's time goes, from the CPU column: the server's and autocannon's. */
function pageCost(f: FindingsInput): string[] {
  const [page, floor, bare] = [f.pageCpu, f.pageFloorCpu, f.bareCpu]
  if (!page || !floor || !bare) return []
  return [
    `Where the page's time goes (table column): Paylinks spends ${us(page.server)} of server CPU per checkout page and autocannon ${us(page.client)} reading it; the fixed copy costs the server ${us(floor.server)} and autocannon ${us(floor.client)}; the hello-world ${us(bare.server)} and ${us(bare.client)}. Server and load generator each have about one core, so the larger of the two sets the rate: a 7 KB answer costs the load generator nearly twice a hello-world, which caps any page of this size near the fixed copy's ratio.`,
  ]
}

/**
 * What the CPU the shortest correct webhook needs allows on this machine: its server work and the
 * load generator's share the cores, so even spread perfectly over all of them the rate cannot pass
 * cores / (server + generator µs per event).
 */
function webhookCeiling(f: FindingsInput): string[] {
  const floor = f.webhookFloorCpu
  const own = f.webhookCpu
  if (!floor || !own) return []
  const allCores = (f.cores * 1e6) / (floor.server + floor.client)
  const oneThread = 1e6 / floor.server
  return [
    `Where the webhook goal stands, from the CPU each event costs (measured, table column): the shortest correct way takes ${us(floor.server)} of server CPU and ${us(floor.client)} of autocannon's per event (Paylinks: ${us(own.server)} and ${us(own.client)}). One server thread can then take at most ${count(oneThread)} events/s, ${ratio(oneThread / f.bareWebhookRps)} of bare Hono's ${count(f.bareWebhookRps)} req/s in the same rounds; with that work spread perfectly over all ${f.cores} cores, load generator included, at most ${count(allCores)} events/s, ${ratio(allCores / f.bareWebhookRps)}.`,
  ]
}

/** The findings, one paragraph each. */
export function findings(f: FindingsInput): string[] {
  const p = f.parts
  const v = f.verifiers
  return [
    `Goals: the checkout page reaches ${ratio(f.pageRatio)} of bare Hono (${ratio(f.pageGzipRatio)} gzip-compressed, as phones ask; goal 0.5) and webhook ingestion ${ratio(f.webhookRatio)} (its goal is the reference below: ${WEBHOOK_GOAL} of it). The references show where the floor is on this machine: bare Hono sending a fixed copy of the same page, bytes and headers, reaches ${ratio(f.pageFloorRatio)} — sending some 7 KB and ten headers, and reading them in the load generator, costs far more than a hello-world — and bare Hono taking the same webhooks the shortest correct way (parse, RSA check, one durable SQLite row, 200 with Paylinks's reply: its request id and the headers of a reply to a server) reaches ${ratio(f.webhookFloorRatio)} (${count(f.webhookFloorRps)} events/s). Paylinks reaches ${ratio(f.pageRatio / f.pageFloorRatio)} of the first and ${ratio(f.webhookRatio / f.webhookFloorRatio)} of the second.`,
    ...pageCost(f),
    ...webhookCeiling(f),
    `Checkout page, in process: ${us(p.page)} per request. The plain page is prepared once per link version, language and form token — bytes, gzip form, every header, a Content-Security-Policy naming the hashes of its inline style and script — and it is answered as is before the request is routed, without a promise (routed, Hono would chain the middleware, which match every path, into promises). The link comes from a read cache kept exact by SQLite's change counters (${us(p.linkCached)}, against ${us(p.linkBySlug)} for the query with its paid totals and ${us(p.linkBySlugPrepared)} for the bare row); the form token is shared by every visitor of a link for ten minutes (${us(p.csrfToken)}; a fresh WebCrypto HMAC would be ${us(p.freshToken)}). Formatting an amount costs ${us(p.formatAmount)}.`,
    `Webhooks: ${count(f.webhookRps)} events/s. A delivery spends ${us(p.verify)} on the RSA check (node:crypto) and ${us(p.sha256)} hashing the body; finding its payment takes ${us(p.paymentLookup)}, and the lookup with the inbox row, alone in its own commit, ${us(p.inboxRecord)} — under load, deliveries that arrive together share one transaction (group commit), and WAL checkpoints run on a worker thread (the main connection copies the last frames once the log reaches 64 MB, so the log starts over instead of growing). Each reply carries the six headers of a reply to a server, not a page's. The confirmation runs after the 200: one check at a time per payment (later deliveries share one follow-up), eight at most in all; here the check goes to the simulator in the same process, so each payment's first delivery is measured apart, until its check is settled (its own row), and the rounds compared with the reference see payments already paid, recorded as processed with no check.`,
    `Verifiers: node:crypto's \`verify\` does ${count(v.nodeCryptoPerSecond)}/s on the event loop; WebCrypto does ${count(v.webCryptoPerSecond)}/s awaited one at a time and ${count(v.webCryptoConcurrentPerSecond)}/s with 32 in flight on libuv's thread pool. Paylinks uses node:crypto on Node, on a thread of its own (src/runtime/node/signature-thread.ts): the checks asked for in one turn of the event loop go to it in one message and come back in one, ${count(v.threadConcurrentPerSecond)}/s with 32 at a time while the event loop is busy ${percent(v.threadLoopBusy)} of the time; WebCrypto, the API it has, on Workers. Checked on the event loop, each one held up everything else for its duration, and with ten requests in flight one check at a time on the thread pool gained nothing (each hop costs a wake-up and a promise); in batches, the deliveries whose verdicts come back together also reach the inbox together and share its commit.`,
  ]
}
