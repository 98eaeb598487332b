/**
 * The first request's code, run once while a Worker's isolate starts: V8 compiles a function the
 * first time it runs, and on a fresh isolate that compiling is most of the first `GET /l/:slug`'s
 * CPU (docs/decisions/performance.md, "The Worker's cold start"). Everything here runs the real
 * code on made-up inputs and throws the results away: no D1 (a stand-in answers drizzle), no
 * network, no log line, nothing put in a cache of the app, no random values (workerd refuses them
 * while an isolate starts, and Responses with a body too).
 */
import type { D1Database } from '@cloudflare/workers-types/index.ts'
import { getTableColumns } from 'drizzle-orm'
import { Hono } from 'hono'
import { type Link, links } from '../../../db/schema.js'
import { CheckoutPage } from '../../../views/checkout.js'
import { LANGUAGES } from '../../config.js'
import { createBrandStore } from '../../data/brand-store.js'
import { linkBySlugQuery } from '../../data/links.js'
import type { AppDeps, AppEnv } from '../../deps.js'
import { resolveBrand } from '../../domain/brand.js'
import { requestLogEntry } from '../../http/request-log.js'
import { securityHeaderRecord } from '../../http/security-headers.js'
import { translator } from '../../i18n/index.js'
import { toBase64 } from '../../lib/bytes.js'
import { createLru } from '../../lib/lru.js'
import { hmacSha256, sha256HexOf } from '../../lib/sha256-sync.js'
import { checkoutRoutes } from '../../routes/checkout.js'
import { pageKey, plainQuery, preparedCheckoutPage } from '../../routes/checkout-prepared.js'
import { pageVariant, prepareStaticPage } from '../../routes/static-page.js'
import { d1Db } from './database.js'

const ORIGIN = 'https://warm.invalid'

/** A made-up link with every part the checkout page shows (items, description, fixed amount). */
function madeUpLink(now: number): Link {
  return {
    id: 'lnk_warm',
    slug: 'warm',
    title: 'Warm-up',
    description: 'Warm-up',
    amount: 150_000,
    amountMin: null,
    amountMax: null,
    invoiceId: null,
    invoiceItems: [{ description: 'Warm-up', quantity: 1, unitPrice: 150_000 }],
    maxPayments: null,
    expiresAt: null,
    language: 'fr',
    memo: null,
    successMessage: null,
    successUrl: null,
    active: true,
    inactiveMessage: null,
    createdAt: now,
    updatedAt: now,
  } satisfies Partial<Link> as Link
}

/**
 * The row D1 would send for `link` as the first columns of a select (drizzle's driver values, in
 * the table's order), then zeros for the computed columns that follow them.
 */
function linkRow(link: Link): unknown[] {
  const values = Object.entries(getTableColumns(links)).map(([key, column]) => {
    const value = (link as Record<string, unknown>)[key]
    return value === undefined || value === null ? null : column.mapToDriverValue(value)
  })
  return [...values, 0, 0, 0, 0]
}

/** A stand-in for D1's binding that answers every statement at once, from memory. */
function standInD1(link: Link): D1Database {
  const result = (sql: string) => {
    if (/from "links"/i.test(sql)) return [linkRow(link)]
    return []
  }
  const statement = (sql: string) => ({
    bind: () => statement(sql),
    raw: async () => result(sql),
    all: async () => ({ success: true, results: [], meta: {} }),
    run: async () => ({ success: true, results: [], meta: { changes: 0 } }),
    first: async () => null,
  })
  return {
    prepare: statement,
    batch: async () => [],
    exec: async () => ({ count: 0, duration: 0 }),
  } as unknown as D1Database
}

/** What ends the warm-up's request where the runtime refuses its Response (see below). */
const DONE = new Error('warmed')

/** The message workerd's refusal to make a Response carries while an isolate starts, if it refuses. */
function responseRefusal(): string | undefined {
  try {
    new Response('warm-up')
    return undefined
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

/**
 * The checkout route itself, in a throwaway app: its handler, the link's read and the page of a
 * link that takes no payment now. The link is inactive so that no form token is issued (tokens are
 * kept per secret, and the secret is not known yet). Without the request log and security headers
 * middlewares, which draw random values. Where the runtime refuses to make the Response, the
 * route's last step, that refusal ends it.
 */
async function warmCheckoutRoute(deps: Pick<AppDeps, 'config'>, link: Link): Promise<void> {
  const refusal = responseRefusal()
  const db = d1Db(standInD1({ ...link, active: false }))
  const vars: Partial<AppEnv['Variables']> = {
    config: deps.config,
    db,
    clock: Date.now,
    log: () => {},
    pageCache: createLru(1),
    brand: createBrandStore(deps.config),
    secureHeadersNonce: '',
  }
  const app = new Hono<AppEnv>()
  app.use(async (c, next) => {
    for (const [key, value] of Object.entries(vars)) c.set(key as keyof AppDeps, value as never)
    await next()
  })
  app.route('/', checkoutRoutes)
  app.onError((error) => {
    throw refusal !== undefined && error.message === refusal ? DONE : error
  })
  try {
    const res = await app.fetch(new Request(`${ORIGIN}/l/${link.slug}`))
    if (res.status !== 403) throw new Error(`The warm-up's checkout answered ${res.status}`)
  } catch (error) {
    if (error !== DONE) throw error
  }
  // The check ahead of routing, which Workers (no read cache) pass through.
  preparedCheckoutPage(deps as AppDeps, createLru(1))(new Request(`${ORIGIN}/l/${link.slug}`))
}

/** The checkout page in each language, prepared as the route prepares it, then thrown away. */
async function warmCheckoutPage(deps: AppDeps, link: Link): Promise<void> {
  const security = { formTargets: [ORIGIN, 'https:'], https: true }
  for (const lang of LANGUAGES) {
    const ctx = {
      lang,
      t: translator(lang),
      nonce: '',
      testMode: deps.config.gatewayMode !== 'live',
      merchantName: deps.config.merchantName,
      brand: resolveBrand(null, deps.config),
      switchPath: `/l/${link.slug}`,
    }
    const page = (
      <CheckoutPage
        ctx={ctx}
        link={{ ...link, items: link.invoiceItems }}
        values={{}}
        errors={{}}
        csrfToken="0.warm"
        onlineTermsUrl={`/terms?lang=${lang}`}
        merchantTermsUrl={`/terms?lang=${lang}#merchant`}
        captcha={deps.captcha?.widget(ctx, `/l/${link.slug}/challenge`, '')}
      />
    )
    const html = String(await page.toString())
    pageVariant(await prepareStaticPage(html, { security }), 'gzip')
  }
}

/**
 * Runs the first `GET /l/:slug`'s code once on made-up inputs (see the file's comment). `deps` is
 * read, never changed.
 */
export async function warmFirstRequest(
  deps: Pick<AppDeps, 'config' | 'captcha' | 'db'>,
): Promise<void> {
  // The real database's link query, built (not run: no I/O while an isolate starts).
  linkBySlugQuery(deps.db)
  const now = Date.now()
  const made = madeUpLink(now)
  pageKey({ ...made, paidTotal: 0 }, 0, 'fr', now)
  plainQuery(`${ORIGIN}/l/warm?lang=fr`)
  await warmCheckoutRoute(deps, made)
  await warmCheckoutPage(deps as AppDeps, made)
  // The captcha challenge's hashing (its random salt cannot be drawn while an isolate starts).
  if (deps.captcha) hmacSha256('warm')(sha256HexOf('warm'))
  requestLogEntry({
    started: now,
    finished: now,
    requestId: 'warm',
    method: 'GET',
    route: '/l/:slug',
    status: 200,
  })
  securityHeaderRecord({ formTargets: [ORIGIN], https: true }, { script: '', style: '' })
  toBase64(new Uint8Array(16))
}
