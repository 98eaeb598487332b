/** Hostname resolution for the webhook target check: every address the system resolver gives. */
import { lookup } from 'node:dns/promises'

/** The IPv4 and IPv6 addresses of `hostname`, as the process would connect to them. */
export async function resolveHost(hostname: string): Promise<string[]> {
  const found = await lookup(hostname, { all: true, verbatim: true })
  return found.map((entry) => entry.address)
}
