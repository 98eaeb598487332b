/**
 * Whether an address only this machine or its local network can open: loopback (127.0.0.0/8,
 * ::1, localhost), private IPv4 ranges (10/8, 172.16/12, 192.168/16), link-local, unique-local
 * IPv6 and `.local`/`.localhost` names. A customer's phone on the mobile network reaches none.
 */
export function isLocalAddress(url: string): boolean {
  let host: string
  try {
    host = new URL(url).hostname.toLowerCase()
  } catch {
    return false
  }
  if (host.endsWith('.')) host = host.slice(0, -1)
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local')) return true
  if (host.startsWith('[')) return isLocalIpv6(host.slice(1, -1))
  const ipv4 = parseIpv4(host)
  return ipv4 !== null && isLocalIpv4(ipv4)
}

/**
 * The host of `url` (with its port) when only this machine or its local network can open it, for
 * the warning that a QR code made from it leads nowhere on a customer's phone; else undefined.
 */
export function localHostOf(url: string): string | undefined {
  return isLocalAddress(url) ? new URL(url).host : undefined
}

// The URL parser has already written every IPv4 form (127.1, 0x7f.1) as four decimal numbers.
function parseIpv4(host: string): number[] | null {
  const parts = host.split('.')
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return null
  return parts.map(Number)
}

function isLocalIpv4([a, b]: number[]): boolean {
  return (
    a === 127 ||
    a === 10 ||
    a === 0 ||
    (a === 172 && b! >= 16 && b! <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254)
  )
}

function isLocalIpv6(host: string): boolean {
  if (host === '::1' || host === '::') return true
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1 is kept by the parser as ::ffff:7f00:1).
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host)
  if (mapped) {
    const high = Number.parseInt(mapped[1]!, 16)
    const low = Number.parseInt(mapped[2]!, 16)
    return isLocalIpv4([high >> 8, high & 255, low >> 8, low & 255])
  }
  return /^f[cd][0-9a-f]{2}:/.test(host) || /^fe[89ab][0-9a-f]:/.test(host)
}
