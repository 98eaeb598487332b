/**
 * Hostname resolution for the webhook target check on Workers, which have no resolver of their
 * own: DNS over HTTPS (Cloudflare's resolver, its JSON form), A and AAAA asked side by side. The
 * answers are checked, not pinned: the webhook's own fetch resolves the name again
 * (docs/decisions/outbound-webhooks.md).
 */

import { createLru } from '../../lib/lru.js'

/** Cloudflare's DNS-over-HTTPS endpoint, JSON form. */
export const DOH_URL = 'https://cloudflare-dns.com/dns-query'
/** How long each question may take; past it the check fails closed and the attempt is retried. */
export const DOH_TIMEOUT_MS = 3_000

/**
 * How long a name's addresses are kept, at most (less when its records say so): a Cron run sends
 * up to 50 deliveries, mostly to one or two names, and each question is a subrequest, of which an
 * invocation has a bounded number. Kept briefly, as the fetch that follows resolves anew anyway.
 */
export const DOH_MEMO_MS = 60_000
const MEMO_NAMES = 256

/** The fetch the questions go through (the global one; tests serve their own answers). */
export type DohFetch = (url: string, init: RequestInit) => Promise<Response>

// DNS response codes (RFC 1035): a name that exists, and one that does not.
const NOERROR = 0
const NXDOMAIN = 3
// Record types asked for, by their numbers in the answer; CNAME (5) records are skipped, the
// resolver follows them and answers their targets' records too.
const RECORD_TYPES = { A: 1, AAAA: 28 } as const

/**
 * A `resolveHost` over DNS over HTTPS: every A and AAAA address of the name, [] when it does not
 * exist or has none. It throws when no answer can be had (a failed or timed-out fetch, a DNS
 * error such as SERVFAIL), which the target check turns into `unresolvable`: fail closed. A name's
 * addresses are kept for their records' time to live, at most DOH_MEMO_MS, and questions about a
 * name already being asked share its answer; failures and empty answers are not kept.
 */
export function dohResolveHost(
  fetchDoh: DohFetch = (url, init) => fetch(url, init),
  timeoutMs = DOH_TIMEOUT_MS,
  now: () => number = Date.now,
): (hostname: string) => Promise<string[]> {
  const memo = createLru<Kept>(MEMO_NAMES)
  return (hostname) => {
    const name = hostname.toLowerCase()
    const kept = memo.get(name)
    if (kept && kept.until > now()) return kept.addresses
    const entry: Kept = { until: Number.POSITIVE_INFINITY, addresses: Promise.resolve([]) }
    entry.addresses = resolve(name, entry)
    memo.set(name, entry)
    return entry.addresses
  }

  /** Asks for `name`'s addresses, then says in `entry` how long they are kept (0: not at all). */
  async function resolve(name: string, entry: Kept): Promise<string[]> {
    const asked = now()
    try {
      const [v4, v6] = await Promise.all([
        ask(fetchDoh, name, 'A', timeoutMs),
        ask(fetchDoh, name, 'AAAA', timeoutMs),
      ])
      const records = [...v4, ...v6]
      const ttl = Math.min(DOH_MEMO_MS, ...records.map((r) => r.ttlMs))
      entry.until = records.length === 0 ? 0 : asked + ttl
      return records.map((r) => r.address)
    } catch (error) {
      entry.until = 0
      throw error
    }
  }
}

/** A name's addresses being asked for or kept, and until when they are kept. */
type Kept = { until: number; addresses: Promise<string[]> }

/** The addresses of one record type, from one DoH question, with their times to live. */
async function ask(
  fetchDoh: DohFetch,
  hostname: string,
  type: keyof typeof RECORD_TYPES,
  timeoutMs: number,
): Promise<{ address: string; ttlMs: number }[]> {
  const response = await fetchDoh(`${DOH_URL}?name=${encodeURIComponent(hostname)}&type=${type}`, {
    headers: { accept: 'application/dns-json' },
    signal: AbortSignal.timeout(timeoutMs),
  })
  if (!response.ok) throw new Error(`DNS over HTTPS answered ${response.status}`)
  const answer = (await response.json()) as { Status?: unknown; Answer?: unknown } | null
  if (answer?.Status === NXDOMAIN) return []
  if (answer?.Status !== NOERROR) throw new Error(`DNS status ${String(answer?.Status)}`)
  // NOERROR without an Answer: the name exists but has no record of this type.
  if (!Array.isArray(answer.Answer)) return []
  const wanted = RECORD_TYPES[type]
  return answer.Answer.flatMap(
    (record: { type?: unknown; data?: unknown; TTL?: unknown } | null) =>
      record?.type === wanted && typeof record.data === 'string'
        ? [{ address: record.data, ttlMs: ttlMs(record.TTL) }]
        : [],
  )
}

/** A record's time to live in milliseconds; 0 (not kept) when it is missing or not a number. */
function ttlMs(ttl: unknown): number {
  return typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0 ? ttl * 1000 : 0
}
