/**
 * Where an endpoint may point (SSRF): outside simulator mode, https only, and never at an address
 * of this machine or its networks (private, loopback, link-local, CGNAT, unique-local, multicast,
 * reserved), in IPv4 or IPv6, IPv4-mapped and NAT64 spellings included. Hostnames are resolved
 * where the runtime can (Node) and every address must pass. Checked at registration and again
 * before each attempt, since DNS may change.
 */

/** How the app checks targets; `resolve` is absent where the runtime cannot resolve (Workers). */
export interface TargetPolicy {
  /** Simulator mode: any http(s) URL (the tests' receivers listen on loopback). */
  simulator: boolean
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS=true: private addresses allowed (an intranet receiver). */
  allowPrivate: boolean
  resolve?: ((hostname: string) => Promise<string[]>) | undefined
}

/** Why a URL is refused, as a stable code (the API and dashboard word it). */
export type TargetProblem = 'invalid_url' | 'https_required' | 'private_address' | 'unresolvable'

/** Null when `url` may receive webhooks under `policy`, or why not. */
export async function targetProblem(
  url: string,
  policy: TargetPolicy,
): Promise<TargetProblem | null> {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return 'invalid_url'
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'invalid_url'
  if (parsed.username || parsed.password) return 'invalid_url'
  if (policy.simulator) return null
  if (parsed.protocol !== 'https:') return 'https_required'
  if (policy.allowPrivate) return null
  // The URL parser has already turned decimal, octal and hex IPv4 spellings into dotted quads.
  const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase()
  const literal = isIpLiteral(host)
  if (literal) return isPublicAddress(host) ? null : 'private_address'
  if (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.')) {
    return 'private_address'
  }
  if (!policy.resolve) return null
  let addresses: string[]
  try {
    addresses = await policy.resolve(host)
  } catch {
    return 'unresolvable'
  }
  if (addresses.length === 0) return 'unresolvable'
  return addresses.every(isPublicAddress) ? null : 'private_address'
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

function isPublicV6(g: number[]): boolean {
  const embedded = (hi: number, lo: number) => isPublicV4(((hi << 16) >>> 0) + lo)
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0)
  if (zeroUpTo(8)) return false // unspecified
  if (zeroUpTo(7) && g[7] === 1) return false // loopback
  if (zeroUpTo(5) && g[5] === 0xffff) return embedded(g[6]!, g[7]!) // IPv4-mapped
  if (zeroUpTo(6)) return embedded(g[6]!, g[7]!) // IPv4-compatible (deprecated)
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) {
    return embedded(g[6]!, g[7]!) // NAT64
  }
  if (g[0] === 0x2002) return embedded(g[1]!, g[2]!) // 6to4
  const first = g[0]!
  if ((first & 0xfe00) === 0xfc00) return false // unique-local fc00::/7
  if ((first & 0xffc0) === 0xfe80) return false // link-local fe80::/10
  if ((first & 0xffc0) === 0xfec0) return false // site-local (deprecated) fec0::/10
  if ((first & 0xff00) === 0xff00) return false // multicast
  if (first === 0x2001 && g[1] === 0x0db8) return false // documentation
  if (first === 0x0100 && g.slice(1, 4).every((x) => x === 0)) return false // discard-only
  return true
}
