/**
 * The Worker's handlers, shared by the entries: `src/runtime/worker/main.ts` (what `wrangler
 * deploy` uploads: the customer side, no simulator), `src/runtime/worker/dashboard.ts` (the back
 * office, the second Worker it hands `/dashboard` to) and `src/runtime/worker/dev.ts` (`wrangler
 * dev --env dev`: all of Paylinks in one Worker, simulator mode). `fetch` serves the entry's app;
 * `scheduled` (the Cron trigger of wrangler.toml) runs the reconciler, then sends the outbound
 * webhooks and e-mails due, and the merchant's daily digest once a day.
 *
 * The start takes the same steps as Node's (src/runtime/node/main.ts): readConfig → openDatabase
 * → runtimeParts → assemble → buildApp, then `handle` for each request where Node serves, and
 * `scheduled` for each Cron event where Node starts timers.
 */
import type { ExecutionContext, ScheduledController } from '@cloudflare/workers-types/index.ts'
import {
  type Assembled,
  type AssembledStart,
  assemble,
  assembleStart,
  buildApp,
  type SimulatorModule,
} from '../../app/assemble.js'
import type { Mountable, PaylinksApp } from '../../app/shell.js'
import { createBackground } from '../../background.js'
import { type Config, ConfigError, parseConfig } from '../../config.js'
import type { AppDeps } from '../../deps.js'
import { describe } from '../../lib/describe-error.js'
import { consoleLogger } from '../../log.js'
import type { SmtpConnect } from '../../mail/smtp.js'
import { reconcile } from '../../payments/reconcile.js'
import { openDatabase } from './database.js'
import type { DohFetch } from './resolve-host.js'
import {
  runtimeParts,
  type WorkerEnv,
  type WorkerRuntime,
  type WorkerRuntimeOptions,
} from './runtime.js'

export type { WorkerEnv } from './runtime.js'

export interface WorkerOptions {
  /** The entry's app: all of Paylinks, its customer side or its back office. */
  app: (deps: AppDeps, options: { simulator?: Mountable }) => PaylinksApp
  /**
   * Runs the first request's code while the isolate starts (the customer side's
   * `warmFirstRequest`, src/runtime/worker/warm.tsx); only with `startEnv`.
   */
  warm?: (deps: AppDeps) => Promise<void>
  /**
   * The isolate's bindings as its module is evaluated (`env` of `cloudflare:workers`). With them,
   * the configuration is parsed and the app built while the isolate starts, before any request;
   * the first request then only reads the secrets from D1. Without them (tests), all of it is
   * done by the first request.
   */
  startEnv?: WorkerEnv
  /** Opens TCP connections for e-mail (`cloudflare:sockets`); without it no mail is sent or queued. */
  smtpConnect?: SmtpConnect
  /** The fetch webhook targets' names are resolved through (DNS over HTTPS); default: global. */
  dohFetch?: DohFetch
  /** The simulator's module; only the dev entry passes it. */
  loadSimulator?: () => Promise<SimulatorModule>
  /** The longest any request waits for the isolate's start (default 10 s); then it starts over. */
  startTimeoutMs?: number
  /** Milliseconds since the epoch (tests pass their own, with `wait`). */
  clock?: () => number
  /** Resolves after `ms`, or never once `signal` aborts (default: setTimeout). */
  wait?: (ms: number, signal: AbortSignal) => Promise<void>
}

interface Paylinks {
  assembled: Assembled
  app: PaylinksApp
  /** The daily digest's check (MERCHANT_NOTIFY=daily), run by each Cron event. */
  digest: (() => Promise<void>) | undefined
}

/** A start that has not answered in time. */
class StartTimeout extends Error {}

const defaultWait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => clearTimeout(timer))
  })

/** The configuration from the bindings that are text (step 1, as Node's `readConfig`). */
export function readConfig(strings: Record<string, string>): Config {
  return parseConfig(strings, { runtime: 'workers' })
}

/** Builds the Worker's `fetch` and `scheduled` handlers. */
export function createWorker(options: WorkerOptions) {
  const startTimeoutMs = options.startTimeoutMs ?? 10_000
  const clock = options.clock ?? Date.now
  const wait = options.wait ?? defaultWait
  // The one cache per isolate: an isolate serves many requests, and parsing the configuration,
  // reading the secrets from D1 and building the app once keeps each request cheap. Nothing
  // request-specific is kept in it.
  let ready: Paylinks | undefined
  let attempt: { paylinks: Promise<Paylinks>; deadline: number } | undefined
  // The request (or Cron event) that started last. Only the built-in simulator, which is created
  // once per isolate, reaches `ctx.waitUntil` through it (see `forwardWaitUntil`).
  let latest: ExecutionContext | undefined

  /**
   * Hands background work of the built-in simulator (webhook deliveries) to the latest request's
   * `ctx.waitUntil`. Workers have no way to ask which request is running, so with requests in
   * flight at the same time it may pick another one; simulator mode is for one developer under
   * `wrangler dev`, where that does not happen. The app's own background work is bound exactly,
   * per request, in `useContext`.
   */
  const forwardWaitUntil = (promise: Promise<unknown>) => latest?.waitUntil(promise)
  const runtime: WorkerRuntimeOptions = {
    smtpConnect: options.smtpConnect,
    dohFetch: options.dohFetch,
    loadSimulator: options.loadSimulator,
    clock,
    waitUntil: forwardWaitUntil,
  }

  /** What needs no I/O: readConfig → openDatabase → runtimeParts. */
  const prepare = (strings: Record<string, string>, env: WorkerEnv) =>
    runtimeParts(readConfig(strings), openDatabase(env), env, runtime)

  const started = startIsolate(options, prepare)

  /** The rest of the start: assemble (with the secrets read from D1) → buildApp. */
  async function build(env: WorkerEnv): Promise<Paylinks> {
    const strings = stringsOf(env)
    let paylinks: Paylinks
    // The same bindings as at the isolate's start (always, on Workers): only the secrets are left.
    if (started && started.key === JSON.stringify(strings)) {
      await started.assembled.resolveSecrets()
      paylinks = started
    } else {
      const { parts, digest } = prepare(strings, env)
      const assembled = await assemble(parts)
      paylinks = { assembled, app: buildApp(assembled, options.app), digest }
    }
    const { assembled } = paylinks
    if (assembled.newAdminToken) {
      // Only simulator mode (wrangler dev) gets here: the other modes require ADMIN_TOKEN. Its
      // console is the one place this token is shown.
      console.log(
        `Paylinks admin token (shown once, keep it): ${assembled.newAdminToken} — it logs into ${assembled.deps.config.publicUrl}/dashboard and is the X-API-Key of the merchant API.`,
      )
    }
    return paylinks
  }

  /**
   * The isolate's Paylinks, started by the first request. A failed start is not kept (a secret
   * may have been added since), nor one that outlives its deadline: a start that never settles
   * (a D1 call that never answers) would otherwise hang every later request of the isolate.
   */
  async function load(env: WorkerEnv): Promise<Paylinks> {
    if (ready) return ready
    attempt ??= { paylinks: build(env), deadline: clock() + startTimeoutMs }
    const current = attempt
    const stop = new AbortController()
    const timedOut = wait(Math.max(0, current.deadline - clock()), stop.signal).then(() => {
      throw new StartTimeout(`Paylinks did not start within ${startTimeoutMs} ms`)
    })
    try {
      ready = await Promise.race([current.paylinks, timedOut])
      return ready
    } catch (error) {
      if (attempt === current) attempt = undefined
      throw error
    } finally {
      stop.abort()
    }
  }

  /**
   * Binds the app's background work (webhook confirmation) to this request's `ctx.waitUntil`.
   * createApp's first middleware copies every dependency into `c.var` synchronously when the
   * request enters the app, before anything is awaited (and the webhook endpoint, which runs
   * ahead of it, takes the tracker the same way), so the request keeps the tracker set here even
   * when another request replaces it a moment later: `handle` calls it right before the app.
   */
  function useContext({ assembled }: Paylinks, ctx: ExecutionContext): void {
    latest = ctx
    assembled.deps.background = createBackground(consoleLogger, (promise) => ctx.waitUntil(promise))
  }

  return {
    fetch: (request: Request, env: WorkerEnv, ctx: ExecutionContext) =>
      handle(load(env), (loaded) => useContext(loaded, ctx), request, env, ctx),
    scheduled: (_event: ScheduledController, env: WorkerEnv, ctx: ExecutionContext) =>
      scheduled(
        load(env).then((loaded) => {
          useContext(loaded, ctx)
          return loaded
        }),
        ctx,
      ),
  }
}

/**
 * The isolate's start, when its bindings are known then: everything the first request would
 * build that needs no I/O (readConfig → openDatabase → runtimeParts → assemble, without the
 * secrets → buildApp), and the router's matcher (Hono compiles it on the first match). A
 * configuration error is left for the first request to report (the 503 below), as without it.
 */
function startIsolate(
  options: WorkerOptions,
  prepare: (strings: Record<string, string>, env: WorkerEnv) => WorkerRuntime,
): (Paylinks & { key: string; assembled: AssembledStart }) | undefined {
  if (!options.startEnv || options.loadSimulator) return undefined
  try {
    const strings = stringsOf(options.startEnv)
    const { parts, digest } = prepare(strings, options.startEnv)
    const assembled = assembleStart(parts)
    const app = buildApp(assembled, options.app)
    app.router.match('GET', '/')
    // The first request's code compiled now rather than in it; its promises settle before the
    // isolate's start ends (they wait on nothing but WebCrypto and the stand-in database).
    options
      .warm?.(assembled.deps)
      .catch((error) =>
        consoleLogger({ level: 'warn', event: 'warm_up_failed', error: describe(error) }),
      )
    // A real line (the isolate's start, once), and the first console write of the isolate,
    // whose set-up would otherwise fall on the first request's log line.
    consoleLogger({ event: 'worker_started', mode: assembled.deps.config.gatewayMode })
    return { key: JSON.stringify(strings), assembled, app, digest }
  } catch {
    return undefined
  }
}

/** A request: answered by the isolate's app, or by the 503 of a start that failed. */
async function handle(
  paylinks: Promise<Paylinks>,
  useContext: (loaded: Paylinks) => void,
  request: Request,
  env: WorkerEnv,
  ctx: ExecutionContext,
): Promise<Response> {
  let instance: Paylinks
  try {
    instance = await paylinks
  } catch (error) {
    return startFailure(error)
  }
  useContext(instance)
  return instance.app.fetch(request, env, ctx)
}

/**
 * A Cron event (what Node's timers do): the reconciler, then the outbound webhooks and e-mails
 * due, and the merchant's daily digest. Each is handed to `ctx.waitUntil`, and the handler also
 * returns once all of them have ended, so a run started by hand under `wrangler dev`
 * (`/__scheduled`) answers when its work is done rather than before.
 */
async function scheduled(instance: Promise<Paylinks>, ctx: ExecutionContext): Promise<void> {
  const work = instance.then((loaded) => reconcile(loaded.assembled.deps))
  const reconciled = work.then(
    (result) => consoleLogger({ event: 'reconciled', ...result }),
    (error) => consoleLogger({ level: 'error', event: 'reconcile_failed', error: describe(error) }),
  )
  // Outbound webhooks and e-mails due by now (retries, and any a request's own run left):
  // after the reconciler, whose settled payments add to them.
  const sent = work
    .catch(() => {})
    .then(() => instance)
    .then((loaded) => loaded.assembled.deps.outbound.run())
    .then(
      (result) => consoleLogger({ event: 'webhooks_sent', ...result }),
      (error) =>
        consoleLogger({ level: 'error', event: 'webhooks_failed', error: describe(error) }),
    )
  // The merchant's digest of the Algiers day before, once that day is over (it logs its own
  // failures and tries again on a later run).
  const digest = instance.then(
    (loaded) => loaded.digest?.(),
    () => {},
  )
  for (const part of [reconciled, sent, digest]) ctx.waitUntil(part)
  await Promise.all([reconciled, sent, digest])
}

/** The bindings that are text: the configuration's vars and secrets. */
export function stringsOf(env: WorkerEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  )
}

const TEXT = { 'content-type': 'text/plain; charset=utf-8' }

/**
 * The 503 of a Worker that cannot start. It names the settings to fix (names only: no value, and
 * the reasons go to the logs); a start that timed out is tried again by a later request.
 */
function startFailure(error: unknown): Response {
  if (error instanceof StartTimeout) {
    consoleLogger({ level: 'error', event: 'start_timed_out', error: error.message })
    return new Response('Paylinks is starting; try again in a moment.', {
      status: 503,
      headers: { ...TEXT, 'retry-after': '5' },
    })
  }
  const detail = error instanceof ConfigError ? error.message : String(error)
  consoleLogger({ level: 'error', event: 'start_failed', error: detail.slice(0, 2000) })
  const names =
    error instanceof ConfigError
      ? [...new Set(error.problems.map((problem) => problem.split(':')[0]))]
      : []
  const settings = names.length > 0 ? ` Settings to set or fix: ${names.join(', ')}.` : ''
  return new Response(
    `Paylinks cannot start: its configuration is incomplete or wrong.${settings} The reasons are in the Worker logs (wrangler tail).`,
    { status: 503, headers: { ...TEXT, 'retry-after': '60' } },
  )
}
