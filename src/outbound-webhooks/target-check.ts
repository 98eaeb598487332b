/**
 * Where an endpoint may point (SSRF): outside simulator mode, https only, and never at an address
 * of this machine or its networks (private, loopback, link-local, CGNAT, unique-local, multicast,
 * reserved), in IPv4 or IPv6, IPv4-mapped, NAT64, 6to4 and Teredo spellings included. Hostnames
 * are resolved (Node: the system's resolver; Workers: DNS over HTTPS) and every address must pass.
 * Checked at registration and again before each attempt, since DNS may change; on Node the attempt
 * then connects to the addresses this check passed (`TargetCheck.addresses`), never to a second
 * answer of the resolver (Workers' fetch cannot be told an address: it resolves again).
 */

import type { TargetPolicy } from '../deps.js'

export type { TargetPolicy }

/** Why a URL is refused, as a stable code (the API and dashboard word it). */
export type TargetProblem = 'invalid_url' | 'https_required' | 'private_address' | 'unresolvable'

/**
 * A check's verdict: why the URL is refused, or that it may be sent to. `addresses` are the
 * addresses its hostname resolved to, every one of them checked: the connection must go to one of
 * them (resolving again would let a rebinding name answer differently). Null when nothing was
 * resolved: an IP literal, simulator mode, or a runtime that cannot resolve.
 */
export type TargetCheck =
  | { problem: TargetProblem; addresses?: undefined }
  | { problem: null; addresses: string[] | null }

/** Null when `url` may receive webhooks under `policy`, or why not. */
export async function targetProblem(
  url: string,
  policy: TargetPolicy,
): Promise<TargetProblem | null> {
  return (await checkTarget(url, policy)).problem
}

/** Whether `url` may receive webhooks under `policy`, and the addresses to connect to. */
export async function checkTarget(url: string, policy: TargetPolicy): Promise<TargetCheck> {
  const refuse = (problem: TargetProblem): TargetCheck => ({ problem })
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return refuse('invalid_url')
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return refuse('invalid_url')
  if (parsed.username || parsed.password) return refuse('invalid_url')
  const unresolved: TargetCheck = { problem: null, addresses: null }
  if (policy.simulator) return unresolved
  if (parsed.protocol !== 'https:') return refuse('https_required')
  // The URL parser has already turned decimal, octal and hex IPv4 spellings into dotted quads.
  const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase()
  if (isIpLiteral(host)) {
    return policy.allowPrivate || isPublicAddress(host) ? unresolved : refuse('private_address')
  }
  const local = host === 'localhost' || host.endsWith('.localhost') || !host.includes('.')
  if (local && !policy.allowPrivate) return refuse('private_address')
  if (!policy.resolve) return unresolved
  // Resolved even when private targets are allowed, so the attempt still connects to what was
  // resolved here once, as it does under the strict rules.
  let addresses: string[]
  try {
    addresses = await policy.resolve(host)
  } catch {
    return refuse('unresolvable')
  }
  if (addresses.length === 0) return refuse('unresolvable')
  if (!policy.allowPrivate && !addresses.every(isPublicAddress)) return refuse('private_address')
  return { problem: null, addresses }
}

function isIpLiteral(host: string): boolean {
  return parseIpv4(host) !== null || host.includes(':')
}

/** True for an address on the public internet; false for any special-purpose or unparsable one. */
export function isPublicAddress(address: string): boolean {
  const v4 = parseIpv4(address)
  if (v4 !== null) return isPublicV4(v4)
  const v6 = parseIpv6(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''))
  if (v6 === null) return false
  return isPublicV6(v6)
}

// [network, prefix length] of IPv4 ranges that are not the public internet (RFC 6890 and kin).
const V4_BLOCKED: ReadonlyArray<readonly [number, number]> = [
  [0x00000000, 8], // "this network"
  [0x0a000000, 8], // private
  [0x64400000, 10], // CGNAT (100.64.0.0/10)
  [0x7f000000, 8], // loopback
  [0xa9fe0000, 16], // link-local (cloud metadata lives here)
  [0xac100000, 12], // private
  [0xc0000000, 24], // IETF protocol assignments
  [0xc0000200, 24], // documentation
  [0xc0586300, 24], // 6to4 relay anycast (192.88.99.0/24, deprecated)
  [0xc0a80000, 16], // private
  [0xc6120000, 15], // benchmarking
  [0xc6336400, 24], // documentation
  [0xcb007100, 24], // documentation
  [0xe0000000, 4], // multicast
  [0xf0000000, 4], // reserved, broadcast
]

function inV4(address: number, [network, bits]: readonly [number, number]): boolean {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0
  return (address & mask) >>> 0 === network
}

function isPublicV4(address: number): boolean {
  return !V4_BLOCKED.some((range) => inV4(address, range))
}

/** A dotted-quad IPv4 address as a 32-bit number, or null. */
function parseIpv4(text: string): number | null {
  const parts = text.split('.')
  if (parts.length !== 4) return null
  let value = 0
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return null
    value = value * 256 + Number(part)
  }
  return value
}

/** An IPv6 address as eight 16-bit groups, or null (an embedded dotted quad is accepted). */
function parseIpv6(text: string): number[] | null {
  // A trailing dotted quad (::ffff:127.0.0.1) becomes its two groups first.
  const quad = /(?:^|:)(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  let body = text
  if (quad) {
    const v4 = parseIpv4(quad[1]!)
    if (v4 === null) return null
    const groups = `${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`
    body = text.slice(0, text.length - quad[1]!.length) + groups
  }
  const halves = body.split('::')
  if (halves.length > 2) return null
  const parse = (half: string) =>
    half === ''
      ? []
      : half.split(':').map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : -1))
  const head = parse(halves[0]!)
  const tail = halves.length === 2 ? parse(halves[1]!) : []
  if (head.includes(-1) || tail.includes(-1)) return null
  if (halves.length === 1) return head.length === 8 ? head : null
  const missing = 8 - head.length - tail.length
  if (missing < 1) return null
  return [...head, ...new Array<number>(missing).fill(0), ...tail]
}

/**
 * IPv6 is public only in global unicast (2000::/3, where IANA allocates), outside that block's
 * special ranges; an IPv4 address carried in IPv6 (mapped, well-known NAT64, 6to4) is judged as the
 * IPv4 address it reaches. Everything else is refused whole: the rest of ::/8 (IPv4-compatible,
 * SIIT's ::ffff:0:0:0/96, unspecified, loopback), 64:ff9b:1::/48 (local-use NAT64: a translator on
 * this network, which may reach any private IPv4 address), 100::/64, ULA, link-local, multicast
 * and the rest of the unallocated space.
 */
function isPublicV6(g: number[]): boolean {
  const embedded = (hi: number, lo: number) => isPublicV4(((hi << 16) >>> 0) + lo)
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0)
  const first = g[0]!
  if (zero(0, 5) && g[5] === 0xffff) return embedded(g[6]!, g[7]!) // IPv4-mapped ::ffff:0:0/96
  // Well-known NAT64 64:ff9b::/96 reaches the IPv4 address it embeds; the rest of 64:ff9b::/32
  // (local-use 64:ff9b:1::/48 among it) is a network's own translator.
  if (first === 0x64 && g[1] === 0xff9b) return zero(2, 6) && embedded(g[6]!, g[7]!)
  if ((first & 0xe000) !== 0x2000) return false // outside global unicast 2000::/3
  if (first === 0x2002) return embedded(g[1]!, g[2]!) // 6to4 2002::/16
  // IETF protocol assignments 2001::/23: Teredo 2001::/32 (a relay to any IPv4 address),
  // benchmarking 2001:2::/48, ORCHID; no webhook receiver lives there.
  if (first === 0x2001 && g[1]! < 0x0200) return false
  if (first === 0x2001 && g[1] === 0x0db8) return false // documentation 2001:db8::/32
  if (first === 0x3fff && g[1]! < 0x1000) return false // documentation 3fff::/20
  return true
}
