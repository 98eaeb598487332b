import { createHash } from 'node:crypto'
import { gunzipSync } from 'node:zlib'
import { solveChallenge } from 'altcha-lib/v1'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { payments } from '../../db/schema.js'
import { reconcile } from '../../src/payments/reconcile.js'
import { manualClock, T0 } from '../dashboard/helpers.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { CUSTOMER } from './support.js'

let p: Paylinks
beforeEach(async () => {
  p = await startPaylinks({ env: { CAPTCHA: 'altcha' } })
})
afterEach(async () => {
  await p.close()
})

/** The challenge a checkout page carries in its form (`data-challenge`, attribute-escaped). */
function ownChallenge(html: string) {
  const text = /data-challenge="([^"]*)"/.exec(html)?.[1] ?? ''
  return JSON.parse(text.replace(/&quot;/g, '"').replace(/&amp;/g, '&'))
}

/** Solves `challenge` as the page's script does and returns the form's `altcha` field. */
async function solve(challenge: Record<string, unknown>) {
  const solution = await solveChallenge(
    challenge.challenge as string,
    challenge.salt as string,
    challenge.algorithm as string,
    challenge.maxnumber as number,
  ).promise
  return btoa(JSON.stringify({ ...challenge, number: solution?.number }))
}

/** Opens the form and solves the challenge it carries, as the page's script does. */
async function solvedForm(slug: string, headers: Record<string, string> = {}) {
  const res = await p.app.request(`/l/${slug}`, { headers })
  const bytes = Buffer.from(await res.arrayBuffer())
  const html = (
    res.headers.get('content-encoding') === 'gzip' ? gunzipSync(bytes) : bytes
  ).toString()
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? ''
  const encoding = res.headers.get('content-encoding')
  return { csrf, altcha: await solve(ownChallenge(html)), html, encoding }
}

function post(slug: string, fields: Record<string, string>) {
  return p.app.request(`/l/${slug}`, {
    method: 'POST',
    body: new URLSearchParams({ ...CUSTOMER, ...fields }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
}

describe('the checkout captcha (ALTCHA)', () => {
  it('puts its solver script in the head, allowed by hash, and a challenge in the form', async () => {
    const link = await makeLink(p, { title: 'Captcha', amount: 100, language: 'en' })
    const res = await p.app.request(`/l/${link.slug}`)
    const csp = res.headers.get('content-security-policy') ?? ''
    const html = await res.text()
    expect(html).toContain('name="altcha"')
    expect(html).toContain(`data-url="/l/${link.slug}/challenge"`)
    expect(ownChallenge(html)).toMatchObject({ algorithm: 'SHA-256', maxnumber: 20_000 })
    expect(html).toContain('Checking that you are not a robot')
    const script = /<head>[\s\S]*<script>([\s\S]*?)<\/script>[\s\S]*<\/head>/.exec(html)?.[1] ?? ''
    expect(script).toContain("getAttribute('data-challenge')")
    const hash = createHash('sha256').update(script).digest('base64')
    expect(csp).toContain(`script-src 'self' 'sha256-${hash}'`)
  })

  it('gives every answer of the prepared page its own challenge, plain and gzip, each good once', async () => {
    const link = await makeLink(p, { title: 'Captcha', amount: 100, language: 'en' })
    await p.app.request(`/l/${link.slug}`) // prepares the page
    const gzip = { 'accept-encoding': 'gzip, br' }
    const forms = [
      await solvedForm(link.slug),
      await solvedForm(link.slug, gzip),
      await solvedForm(link.slug),
    ]
    expect(forms.map((f) => f.encoding)).toEqual([null, 'gzip', null])
    const challenges = forms.map((f) => ownChallenge(f.html).challenge)
    expect(new Set(challenges).size).toBe(3)
    for (const form of forms) {
      expect((await post(link.slug, { csrf: form.csrf, altcha: form.altcha })).status).toBe(303)
      expect((await post(link.slug, { csrf: form.csrf, altcha: form.altcha })).status).toBe(400)
    }
    expect(await p.deps.db.select().from(payments)).toHaveLength(3)
  })

  it('carries a challenge in a page rendered for one visitor (prefilled) too', async () => {
    const link = await makeLink(p, { title: 'Captcha', amount: 100, language: 'en' })
    const { csrf, altcha } = await solvedForm(`${link.slug}?name=Yasmine`)
    expect((await post(link.slug, { csrf, altcha })).status).toBe(303)
  })

  it('answers a fresh signed challenge at each fetch, never cached, for a page whose own expired', async () => {
    const link = await makeLink(p, { title: 'Captcha', amount: 100, language: 'en' })
    const [a, b] = await Promise.all([
      p.app.request(`/l/${link.slug}/challenge`),
      p.app.request(`/l/${link.slug}/challenge`),
    ])
    expect(a.headers.get('cache-control')).toBe('no-store')
    const [x, y] = [await a.json(), await b.json()]
    expect(x).toMatchObject({ algorithm: 'SHA-256', maxnumber: expect.any(Number) })
    expect(typeof x.signature).toBe('string')
    expect(x.salt).not.toBe(y.salt)
    const html = await (await p.app.request(`/l/${link.slug}`)).text()
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? ''
    expect((await post(link.slug, { csrf, altcha: await solve(x) })).status).toBe(303)
  })

  it('accepts a solved challenge once and refuses it replayed', async () => {
    const link = await makeLink(p, { title: 'Captcha', amount: 100, language: 'en' })
    const { csrf, altcha } = await solvedForm(link.slug)
    expect((await post(link.slug, { csrf, altcha })).status).toBe(303)
    const replay = await post(link.slug, { csrf, altcha })
    expect(replay.status).toBe(400)
    expect(await replay.text()).toContain('The anti-robot check failed')
    expect(await p.deps.db.select().from(payments)).toHaveLength(1)
  })

  it('refuses a missing or wrong solution and changes nothing', async () => {
    const link = await makeLink(p, { title: 'Captcha', amount: 100, language: 'en' })
    const { csrf, altcha } = await solvedForm(link.slug)
    const wrong = JSON.parse(atob(altcha))
    expect((await post(link.slug, { csrf })).status).toBe(400)
    expect(
      (
        await post(link.slug, {
          csrf,
          altcha: btoa(JSON.stringify({ ...wrong, number: wrong.number + 1 })),
        })
      ).status,
    ).toBe(400)
    expect((await post(link.slug, { csrf, altcha: 'garbage' })).status).toBe(400)
    expect(await p.deps.db.select().from(payments)).toHaveLength(0)
  })
})

describe('a spent captcha solution', () => {
  const MIN = 60_000
  const formOf = ({ csrf, altcha }: { csrf: string; altcha: string }) => ({ csrf, altcha })

  /** Paylinks on a clock the test moves, at `start`. */
  async function onClock(start: number) {
    await p.close()
    const clock = manualClock(start)
    p = await startPaylinks({ env: { CAPTCHA: 'altcha' }, clock })
    return clock
  }

  it('stays refused until it expires, across the 30-minute window boundary', async () => {
    // Spent at 10:25, five minutes before the boundary a 30-minute window would reset at.
    const clock = await onClock(T0 + 25 * MIN)
    const link = await makeLink(p, { title: 'Captcha', amount: 100, language: 'en' })
    const spent = formOf(await solvedForm(link.slug))
    expect((await post(link.slug, spent)).status).toBe(303)
    for (const later of [1, 5, 23]) {
      // At 10:26, 10:31 (past the boundary) and 10:54, 29 minutes after it was spent.
      clock.advance(later * MIN)
      const replay = await post(link.slug, spent)
      expect(replay.status).toBe(400)
      expect(await replay.text()).toContain('The anti-robot check failed')
    }
    // The check itself works then: a fresh solution still passes.
    expect((await post(link.slug, formOf(await solvedForm(link.slug)))).status).toBe(303)
    expect(await p.deps.db.select().from(payments)).toHaveLength(2)
  })

  it('is forgotten by housekeeping only once expired, and stays refused for its expiry', async () => {
    const clock = await onClock(T0 + 25 * MIN)
    const link = await makeLink(p, { title: 'Captcha', amount: 100, language: 'en' })
    const spent = formOf(await solvedForm(link.slug))
    expect((await post(link.slug, spent)).status).toBe(303)
    const rows = () => p.sqlite.sqlite.prepare('SELECT count(*) AS n FROM spent_tokens').get()
    clock.advance(29 * MIN)
    await reconcile(p.deps)
    expect(rows()).toEqual({ n: 1 })
    clock.advance(3 * MIN)
    await reconcile(p.deps)
    expect(rows()).toEqual({ n: 0 })
    expect((await post(link.slug, spent)).status).toBe(400)
  })

  it('refuses a challenge solved but never used once it has expired', async () => {
    const clock = await onClock(T0)
    const link = await makeLink(p, { title: 'Captcha', amount: 100, language: 'en' })
    const fresh = formOf(await solvedForm(link.slug))
    const kept = formOf(await solvedForm(link.slug))
    clock.advance(30 * MIN)
    expect((await post(link.slug, fresh)).status).toBe(303)
    clock.advance(1000)
    const late = await post(link.slug, kept)
    expect(late.status).toBe(400)
    expect(await late.text()).toContain('The anti-robot check failed')
    expect(await p.deps.db.select().from(payments)).toHaveLength(1)
  })
})
