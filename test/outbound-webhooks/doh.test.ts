/**
 * On Workers a webhook target's name is resolved through DNS over HTTPS (src/runtime/worker/resolve-host.ts)
 * and every answer checked like Node's. No network here: a fake fetch serves the resolver's JSON
 * answers, the one seam for its answers, its failures and its silence.
 */
import { describe, expect, it } from 'vitest'
import { checkTarget, type TargetPolicy } from '../../src/outbound-webhooks/target-check.js'
import {
  DOH_MEMO_MS,
  DOH_URL,
  type DohFetch,
  dohResolveHost,
} from '../../src/runtime/worker/resolve-host.js'

type DnsRecord = { name: string; type: number; TTL: number; data: string }
/** What the fake resolver answers to a question of one type: a DNS status and its records. */
type Reply = { Status: number; Answer?: DnsRecord[] }

const A = 1
const AAAA = 28
const CNAME = 5
const record = (name: string, type: number, data: string): DnsRecord => ({
  name,
  type,
  TTL: 300,
  data,
})

/**
 * A fake Cloudflare resolver: `zone[name][type]` is the reply (a name it does not hold answers
 * NXDOMAIN, a type it does not hold NOERROR without records). Records each question asked.
 */
function fakeResolver(zone: Record<string, { A?: Reply; AAAA?: Reply }>) {
  const asked: { name: string | null; type: string | null; accept: string | null }[] = []
  const fetchDoh: DohFetch = async (url, init) => {
    const parsed = new URL(url)
    expect(`${parsed.origin}${parsed.pathname}`).toBe(DOH_URL)
    const name = parsed.searchParams.get('name')
    const type = parsed.searchParams.get('type')
    asked.push({ name, type, accept: new Headers(init.headers).get('accept') })
    const entry = zone[name ?? '']
    const reply: Reply = !entry
      ? { Status: 3 }
      : ((type === 'A' ? entry.A : type === 'AAAA' ? entry.AAAA : undefined) ?? { Status: 0 })
    return Response.json(reply, { headers: { 'content-type': 'application/dns-json' } })
  }
  return { asked, fetchDoh }
}

const LIVE = { simulator: false, allowPrivate: false }
const policyOver = (fetchDoh: DohFetch, timeoutMs?: number): TargetPolicy => ({
  ...LIVE,
  resolve: dohResolveHost(fetchDoh, timeoutMs),
})

describe('a webhook target resolved over DNS over HTTPS', () => {
  it('passes a name that answers a public IPv4 address, with that address', async () => {
    const dns = fakeResolver({
      'hooks.shop.example': {
        A: { Status: 0, Answer: [record('hooks.shop.example', A, '93.184.215.14')] },
      },
    })
    expect(
      await checkTarget('https://hooks.shop.example/paylinks', policyOver(dns.fetchDoh)),
    ).toEqual({
      problem: null,
      addresses: ['93.184.215.14'],
    })
    // Both types asked, as JSON, for the name as written in the URL.
    expect(dns.asked).toEqual(
      expect.arrayContaining([
        { name: 'hooks.shop.example', type: 'A', accept: 'application/dns-json' },
        { name: 'hooks.shop.example', type: 'AAAA', accept: 'application/dns-json' },
      ]),
    )
    expect(dns.asked).toHaveLength(2)
  })

  it('refuses a name with any private, loopback or special answer among public ones', async () => {
    const publicV4 = [record('mixed.example', A, '93.184.215.14')]
    const publicV6 = [record('mixed.example', AAAA, '2606:2800:21f:cb07:6820:80da:af6b:8b2c')]
    const cases: { A: DnsRecord[]; AAAA: DnsRecord[] }[] = [
      { A: [...publicV4, record('mixed.example', A, '10.1.2.3')], AAAA: publicV6 },
      { A: [...publicV4, record('mixed.example', A, '127.0.0.1')], AAAA: publicV6 },
      { A: [record('mixed.example', A, '169.254.169.254'), ...publicV4], AAAA: [] },
      { A: publicV4, AAAA: [...publicV6, record('mixed.example', AAAA, '::1')] },
      { A: publicV4, AAAA: [...publicV6, record('mixed.example', AAAA, 'fd00::5')] },
      { A: publicV4, AAAA: [record('mixed.example', AAAA, '::ffff:192.168.1.1'), ...publicV6] },
      // An answer that is no address at all is refused, not skipped.
      { A: [...publicV4, record('mixed.example', A, 'not-an-address')], AAAA: [] },
    ]
    for (const answers of cases) {
      const dns = fakeResolver({
        'mixed.example': {
          A: { Status: 0, Answer: answers.A },
          AAAA: { Status: 0, Answer: answers.AAAA },
        },
      })
      const check = await checkTarget('https://mixed.example/', policyOver(dns.fetchDoh))
      expect(check, JSON.stringify(answers)).toEqual({ problem: 'private_address' })
    }
  })

  it('uses the addresses a CNAME leads to, not the CNAME record itself', async () => {
    const dns = fakeResolver({
      'hooks.shop.example': {
        A: {
          Status: 0,
          Answer: [
            record('hooks.shop.example', CNAME, 'edge.provider.example.'),
            record('edge.provider.example', A, '93.184.215.14'),
          ],
        },
        AAAA: {
          Status: 0,
          Answer: [
            record('hooks.shop.example', CNAME, 'edge.provider.example.'),
            record('edge.provider.example', AAAA, '2606:2800:21f:cb07:6820:80da:af6b:8b2c'),
          ],
        },
      },
    })
    expect(await checkTarget('https://hooks.shop.example/', policyOver(dns.fetchDoh))).toEqual({
      problem: null,
      addresses: ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    })
    // A CNAME leading into a private network is refused like a direct answer.
    const inward = fakeResolver({
      'hooks.shop.example': {
        A: {
          Status: 0,
          Answer: [
            record('hooks.shop.example', CNAME, 'db.internal.example.'),
            record('db.internal.example', A, '192.168.0.10'),
          ],
        },
      },
    })
    expect(await checkTarget('https://hooks.shop.example/', policyOver(inward.fetchDoh))).toEqual({
      problem: 'private_address',
    })
  })

  it('calls a name that does not exist (NXDOMAIN), or has no address, unresolvable', async () => {
    const dns = fakeResolver({ 'mail-only.example': {} })
    expect(await checkTarget('https://gone.example/', policyOver(dns.fetchDoh))).toEqual({
      problem: 'unresolvable',
    })
    expect(await checkTarget('https://mail-only.example/', policyOver(dns.fetchDoh))).toEqual({
      problem: 'unresolvable',
    })
  })

  it('fails closed when the resolver answers SERVFAIL or another DNS error', async () => {
    for (const Status of [2, 5]) {
      const dns = fakeResolver({
        'hooks.shop.example': {
          A: { Status: 0, Answer: [record('hooks.shop.example', A, '93.184.215.14')] },
          AAAA: { Status },
        },
      })
      expect(await checkTarget('https://hooks.shop.example/', policyOver(dns.fetchDoh))).toEqual({
        problem: 'unresolvable',
      })
    }
  })

  it('fails closed on a network error, an HTTP error or an answer that is not JSON', async () => {
    const failures: DohFetch[] = [
      () => Promise.reject(new TypeError('fetch failed')),
      async () => new Response('busy', { status: 503 }),
      async () => new Response('<html>captive portal</html>', { status: 200 }),
      async () => Response.json(null),
    ]
    for (const fetchDoh of failures) {
      expect(await checkTarget('https://hooks.shop.example/', policyOver(fetchDoh))).toEqual({
        problem: 'unresolvable',
      })
    }
  })

  it('fails closed when the resolver does not answer within its time', async () => {
    // Never answers; it fails only once the signal it was given aborts (without one, this test
    // runs out of its own time instead).
    const silent: DohFetch = (_url, init) =>
      new Promise((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason))
      })
    expect(await checkTarget('https://hooks.shop.example/', policyOver(silent, 1))).toEqual({
      problem: 'unresolvable',
    })
  }, 2_000)

  it('asks for A and AAAA side by side, not one after the other', async () => {
    // Neither question is answered until both have been asked; asked in turn, the first would
    // wait out its bound and the check would fail.
    const asked: string[] = []
    let bothAsked: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      bothAsked = resolve
    })
    const gated: DohFetch = (url, init) => {
      const type = new URL(url).searchParams.get('type')
      asked.push(type ?? '')
      if (asked.length === 2) bothAsked()
      const answer = type === 'A' ? [record('hooks.shop.example', A, '93.184.215.14')] : []
      return new Promise((resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason))
        gate.then(() => resolve(Response.json({ Status: 0, Answer: answer })))
      })
    }
    const check = await checkTarget('https://hooks.shop.example/', policyOver(gated, 1_000))
    expect(asked.sort()).toEqual(['A', 'AAAA'])
    expect(check).toEqual({ problem: null, addresses: ['93.184.215.14'] })
  })

  it('bounds each question with a signal by default', async () => {
    const signals: (AbortSignal | null | undefined)[] = []
    const answering: DohFetch = async (_url, init) => {
      signals.push(init.signal)
      return Response.json({ Status: 3 })
    }
    await dohResolveHost(answering)('hooks.shop.example')
    expect(signals).toHaveLength(2)
    for (const signal of signals) expect(signal).toBeInstanceOf(AbortSignal)
  })
})

describe('the names a DoH resolver keeps', () => {
  const zone = (ttl: number) => ({
    'hooks.shop.example': {
      A: { Status: 0, Answer: [{ ...record('hooks.shop.example', A, '93.184.215.14'), TTL: ttl }] },
    },
  })

  it("asks once for a name while its records' time to live lasts, at most a minute", async () => {
    let clock = 1_000_000
    const dns = fakeResolver(zone(300))
    const resolve = dohResolveHost(dns.fetchDoh, 1_000, () => clock)
    const answers = await Promise.all(range(50).map(() => resolve('Hooks.Shop.Example')))
    for (const answer of answers) expect(answer).toEqual(['93.184.215.14'])
    expect(dns.asked).toHaveLength(2)
    clock += DOH_MEMO_MS - 1
    await resolve('hooks.shop.example')
    expect(dns.asked).toHaveLength(2)
    clock += 1
    await resolve('hooks.shop.example')
    expect(dns.asked).toHaveLength(4)
  })

  it('keeps an answer no longer than its records say', async () => {
    let clock = 0
    const dns = fakeResolver(zone(5))
    const resolve = dohResolveHost(dns.fetchDoh, 1_000, () => clock)
    await resolve('hooks.shop.example')
    clock = 4_999
    await resolve('hooks.shop.example')
    expect(dns.asked).toHaveLength(2)
    clock = 5_000
    await resolve('hooks.shop.example')
    expect(dns.asked).toHaveLength(4)
  })

  it('keeps no failure and no empty answer: the next question asks again', async () => {
    let failing = true
    const dns = fakeResolver(zone(300))
    const flaky: DohFetch = async (url, init) => {
      if (failing) throw new TypeError('network')
      return dns.fetchDoh(url, init)
    }
    const resolve = dohResolveHost(flaky, 1_000, () => 0)
    await expect(resolve('hooks.shop.example')).rejects.toThrow('network')
    failing = false
    expect(await resolve('hooks.shop.example')).toEqual(['93.184.215.14'])
    expect(await resolve('nowhere.shop.example')).toEqual([])
    expect(await resolve('nowhere.shop.example')).toEqual([])
    expect(dns.asked.filter((q) => q.name === 'nowhere.shop.example')).toHaveLength(4)
  })
})

const range = (n: number) => Array.from({ length: n }, (_, i) => i)
