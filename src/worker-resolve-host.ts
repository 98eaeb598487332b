/**
 * Hostname resolution for the webhook target check on Workers, which have no resolver of their
 * own: DNS over HTTPS (Cloudflare's resolver, its JSON form), A and AAAA asked side by side. The
 * answers are checked, not pinned: the webhook's own fetch resolves the name again
 * (docs/decisions/outbound-webhooks.md).
 */

/** Cloudflare's DNS-over-HTTPS endpoint, JSON form. */
export const DOH_URL = 'https://cloudflare-dns.com/dns-query'
/** How long each question may take; past it the check fails closed and the attempt is retried. */
export const DOH_TIMEOUT_MS = 3_000

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
 * error such as SERVFAIL), which the target check turns into `unresolvable`: fail closed.
 */
export function dohResolveHost(
  fetchDoh: DohFetch = (url, init) => fetch(url, init),
  timeoutMs = DOH_TIMEOUT_MS,
): (hostname: string) => Promise<string[]> {
  return async (hostname) => {
    const [v4, v6] = await Promise.all([
      ask(fetchDoh, hostname, 'A', timeoutMs),
      ask(fetchDoh, hostname, 'AAAA', timeoutMs),
    ])
    return [...v4, ...v6]
  }
}

/** The addresses of one record type, from one DoH question. */
async function ask(
  fetchDoh: DohFetch,
  hostname: string,
  type: keyof typeof RECORD_TYPES,
  timeoutMs: number,
): Promise<string[]> {
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
  return answer.Answer.flatMap((record: { type?: unknown; data?: unknown } | null) =>
    record?.type === wanted && typeof record.data === 'string' ? [record.data] : [],
  )
}
