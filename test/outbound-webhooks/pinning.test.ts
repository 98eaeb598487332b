/**
 * Webhook targets are pinned: the sender resolves an endpoint's name once per attempt, checks every
 * address, and connects to a checked one (Node), with the name still in the Host header and as the
 * TLS server name. A name that rebinds after the check (a public address first, 127.0.0.1 next)
 * gets nothing to the second address. IPv6 spellings that reach private or translated IPv4
 * (local-use NAT64, Teredo, 6to4, mapped, compatible) are refused with the other special ranges.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { deliveries } from '../../db/schema.js'
import { applyOutcome } from '../../src/data/payments.js'
import { silentLogger } from '../../src/log.js'
import { createEndpoint } from '../../src/outbound-webhooks/endpoints.js'
import { type SenderDeps, webhookChannel } from '../../src/outbound-webhooks/sender.js'
import {
  checkTarget,
  isPublicAddress,
  type TargetPolicy,
  targetProblem,
} from '../../src/outbound-webhooks/target-check.js'
import { deliverDue } from '../../src/outbox/sender.js'
import { pinnedLookup, pinnedWebhookFetch } from '../../src/runtime/node/pinned-fetch.js'
import { startPayment } from '../flows/support.js'
import { startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { T0 } from '../support/manual-time.js'
import { verify } from './receiver.js'
import { TLS, tlsReceiver } from './tls-receiver.js'

const LIVE: TargetPolicy = { simulator: false, allowPrivate: false }

describe('special-purpose IPv6 and IPv4 ranges', () => {
  it.each([
    ['64:ff9b:1::a00:1', 'local-use NAT64 (64:ff9b:1::/48), private IPv4 inside'],
    ['64:ff9b:1::808:808', 'local-use NAT64, even with a public IPv4 inside'],
    ['64:ff9b:1:ffff::1', 'local-use NAT64, elsewhere in its /48'],
    ['64:ff9b:0:0:1::808:808', 'the rest of 64:ff9b::/32 beyond the well-known /96'],
    ['64:ff9b::7f00:1', 'well-known NAT64 of 127.0.0.1'],
    ['64:ff9b::a9fe:a9fe', 'well-known NAT64 of the metadata address'],
    ['2001::1', 'Teredo (2001::/32)'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo, a real-looking client address'],
    ['2001:2::1', 'benchmarking (2001:2::/48)'],
    ['2001:1ff::1', 'the end of IETF protocol assignments (2001::/23)'],
    ['2002:7f00:1::1', '6to4 of 127.0.0.1'],
    ['2002:a00:1::1', '6to4 of 10.0.0.1'],
    ['2002:c0a8:101::1', '6to4 of 192.168.1.1'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, in hex'],
    ['::7f00:1', 'IPv4-compatible loopback'],
    ['::808:808', 'IPv4-compatible (deprecated), even of a public address'],
    ['::ffff:0:a00:1', 'SIIT IPv4-translated (::ffff:0:0:0/96)'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['100::1', 'discard-only'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation (3fff::/20)'],
    ['5f00::1', 'SRv6 SIDs, outside global unicast'],
    ['fc00::1', 'unique-local'],
    ['fe80::1%eth0', 'link-local with a zone'],
    ['ff05::2', 'multicast'],
    ['192.88.99.1', '6to4 relay anycast'],
    ['198.18.0.1', 'benchmarking'],
    ['100.100.100.200', 'CGNAT (a cloud metadata address)'],
    ['not-an-address', 'unparsable'],
  ])('refuses %s (%s)', async (address, _why) => {
    expect(isPublicAddress(address)).toBe(false)
    if (address.includes(':') && !address.includes('%')) {
      expect(await targetProblem(`https://[${address}]/hooks`, LIVE)).toBe('private_address')
    }
    const resolving: TargetPolicy = { ...LIVE, resolve: async () => ['93.184.215.14', address] }
    expect(await targetProblem('https://hooks.example.com/', resolving)).toBe('private_address')
  })

  it.each([
    ['64:ff9b::808:808', 'well-known NAT64 of a public IPv4'],
    ['2002:808:808::1', '6to4 of a public IPv4'],
    ['::ffff:8.8.8.8', 'IPv4-mapped public'],
    ['2606:4700::1111', 'global unicast'],
    ['2001:4860:4860::8888', 'global unicast in 2001::/16, past the IETF block'],
    ['2001:200::1', 'the first regional allocation'],
    ['3fff:1000::1', 'just past the 3fff::/20 documentation block'],
    ['93.184.215.14', 'public IPv4'],
  ])('takes %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(true)
  })
})

/** A resolver that answers `first` once and `later` ever after, counting its calls. */
function rebinding(first: string[], later: string[]) {
  const calls: string[] = []
  const resolve = async (hostname: string) => {
    calls.push(hostname)
    return calls.length === 1 ? first : later
  }
  return { calls, resolve }
}

describe('the check hands on what it resolved', () => {
  it('resolves once and answers the addresses it passed, not a later answer', async () => {
    const dns = rebinding(['93.184.215.14'], ['127.0.0.1'])
    const policy = { ...LIVE, resolve: dns.resolve }
    expect(await checkTarget('https://rebind.example.com/hooks', policy)).toEqual({
      problem: null,
      addresses: ['93.184.215.14'],
    })
    expect(dns.calls).toEqual(['rebind.example.com'])
    // The next look (registration, the next attempt) sees the rebound answer and refuses it.
    expect(await checkTarget('https://rebind.example.com/hooks', policy)).toEqual({
      problem: 'private_address',
    })
  })

  it('resolves nothing for an IP literal, in simulator mode, or without a resolver', async () => {
    const dns = rebinding(['93.184.215.14'], ['93.184.215.14'])
    expect(await checkTarget('https://8.8.8.8/', { ...LIVE, resolve: dns.resolve })).toEqual({
      problem: null,
      addresses: null,
    })
    const simulator = { simulator: true, allowPrivate: false, resolve: dns.resolve }
    expect(await checkTarget('http://hooks.example.com/', simulator)).toEqual({
      problem: null,
      addresses: null,
    })
    expect(await checkTarget('https://hooks.example.com/', LIVE)).toEqual({
      problem: null,
      addresses: null,
    })
    expect(dns.calls).toEqual([])
  })

  it('still resolves once and pins when private targets are allowed', async () => {
    const dns = rebinding(['10.0.0.7'], ['127.0.0.1'])
    const intranet = { ...LIVE, allowPrivate: true, resolve: dns.resolve }
    expect(await checkTarget('https://hooks.intranet.example/', intranet)).toEqual({
      problem: null,
      addresses: ['10.0.0.7'],
    })
    expect(dns.calls).toHaveLength(1)
  })

  it('gives Node every checked address, or those of the family it asks for', () => {
    const lookup = pinnedLookup(['93.184.215.14', '2606:4700::1111'])
    const answers: unknown[] = []
    const keep = (error: Error | null, address: unknown, family?: number) =>
      answers.push(error ? error.message : [address, family])
    lookup('hooks.example.com', { all: true }, keep)
    lookup('hooks.example.com', { family: 6 }, keep)
    lookup('hooks.example.com', {}, keep)
    pinnedLookup(['93.184.215.14'])('hooks.example.com', { family: 6 }, keep)
    expect(answers).toEqual([
      [
        [
          { address: '93.184.215.14', family: 4 },
          { address: '2606:4700::1111', family: 6 },
        ],
        undefined,
      ],
      ['2606:4700::1111', 6],
      ['93.184.215.14', 4],
      'no checked IPv6 address for hooks.example.com',
    ])
  })
})

describe('a rebinding name on Node, over real TLS', () => {
  const cleanups: (() => Promise<void> | void)[] = []
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c()
  })

  /**
   * The checked receiver on 127.0.0.1 and the rebound one on 127.0.0.2, on the same port, both
   * serving hooks.example.test; a resolver answering 127.0.0.1 once and 127.0.0.2 after; the
   * private-target rules (loopback passes the check, https is still required); the sender with
   * Node's pinned POST, trusting the test certificate.
   */
  async function setUp() {
    let checked: Awaited<ReturnType<typeof tlsReceiver>> | undefined
    let rebound: Awaited<ReturnType<typeof tlsReceiver>> | undefined
    for (let i = 0; i < 5 && !rebound; i++) {
      await checked?.close()
      checked = await tlsReceiver('127.0.0.1', 0)
      rebound = await tlsReceiver('127.0.0.2', checked.port).catch(() => undefined)
    }
    if (!checked || !rebound) throw new Error('no port free on both 127.0.0.1 and 127.0.0.2')
    cleanups.push(checked.close, rebound.close)
    const p = await startPaylinks({ clock: () => T0 })
    cleanups.push(() => p.close())
    const dns = rebinding(['127.0.0.1'], ['127.0.0.2'])
    const deps: SenderDeps = {
      db: p.deps.db,
      clock: () => T0,
      log: silentLogger,
      publicUrl: p.url,
      targets: { simulator: false, allowPrivate: true, resolve: dns.resolve },
      fetch: pinnedWebhookFetch({ ca: TLS.cert }),
    }
    const url = `https://hooks.example.test:${checked.port}/hooks`
    const endpoint = await createEndpoint(
      p.deps.db,
      { url, description: null, eventTypes: ['payment.paid'], enabled: true },
      T0,
    )
    const link = await makeLink(p, { title: 'Commande', amount: 2500, language: 'fr' })
    const { payment } = await startPayment(p, link.slug)
    await applyOutcome(p.deps.db, payment.id, 'paid', {}, T0, 'webhook')
    return { p, deps, dns, checked, rebound, endpoint, payment }
  }

  it('resolves once and delivers to the checked address, named as in the URL', async () => {
    const { deps, dns, checked, rebound, endpoint, payment } = await setUp()
    expect(await deliverDue(deps, [webhookChannel(deps)])).toEqual({ attempted: 1, delivered: 1 })
    expect(dns.calls).toEqual(['hooks.example.test'])
    expect(rebound.received).toEqual([])
    expect(checked.received).toHaveLength(1)
    const request = checked.received[0]!
    expect(request.headers.host).toBe(`hooks.example.test:${checked.port}`)
    expect(request.servername).toBe('hooks.example.test')
    const event = verify(endpoint.secret, request, T0) as { data: { id: string } }
    expect(event.data.id).toBe(payment.id)
  })

  it('under the strict rules, hands the sender only the public address the check passed', async () => {
    const { p, deps, checked, rebound } = await setUp()
    // A public address cannot be reached from a test: the POST going out is recorded instead of
    // connecting, and fails as an unreachable network would.
    const dns = rebinding(['93.184.215.14'], ['127.0.0.1'])
    const sent: (readonly string[] | null)[] = []
    const strict: SenderDeps = {
      ...deps,
      targets: { ...LIVE, resolve: dns.resolve },
      fetch: async (request) => {
        sent.push(request.addresses)
        throw new Error('connect ENETUNREACH 93.184.215.14:443')
      },
    }
    expect(await deliverDue(strict, [webhookChannel(strict)])).toEqual({
      attempted: 1,
      delivered: 0,
    })
    expect(dns.calls).toEqual(['hooks.example.test'])
    expect(sent).toEqual([['93.184.215.14']])
    // The retry resolves again, sees 127.0.0.1 and refuses before sending anything.
    await p.deps.db.update(deliveries).set({ nextAttemptAt: T0 })
    expect(await deliverDue(strict, [webhookChannel(strict)])).toEqual({
      attempted: 1,
      delivered: 0,
    })
    expect(dns.calls).toHaveLength(2)
    expect(sent).toHaveLength(1)
    const [row] = await p.deps.db.select().from(deliveries)
    expect(row?.lastError).toBe('refused: private_address')
    expect([checked.received, rebound.received]).toEqual([[], []])
  })

  it('follows no redirect: the answer is recorded as it came', async () => {
    const { p, deps, dns, checked, rebound } = await setUp()
    checked.answer(307, { location: `https://hooks.example.test:${checked.port}/elsewhere` })
    expect(await deliverDue(deps, [webhookChannel(deps)])).toEqual({ attempted: 1, delivered: 0 })
    expect(dns.calls).toHaveLength(1)
    expect(checked.received).toHaveLength(1)
    expect(rebound.received).toEqual([])
    const [row] = await p.deps.db.select().from(deliveries)
    expect([row?.state, row?.lastStatus]).toEqual(['pending', 307])
  })
})
