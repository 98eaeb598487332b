/**
 * `paylinks doctor`: reads the configuration as the server would and says, item by item, what is
 * wrong for the chosen mode, and which database files others can read. Secrets are judged by
 * their shape and never printed.
 */
import type { Command } from 'commander'
import { ConfigError, parseConfig } from '../../../config.js'
import { fromBase64 } from '../../../lib/bytes.js'
import { isValidAccountId, isValidSecretSeed } from '../../../lib/strkey.js'
import { fileChecks } from './doctor-files.js'
import { answer, printTable } from './output.js'

export type CheckStatus = 'ok' | 'warn' | 'fail'
export interface Check {
  item: string
  status: CheckStatus
  detail: string
}

type Env = Record<string, string | undefined>
const set = (env: Env, name: string) => !!env[name]?.trim()
const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/

/** What the configuration parser refuses, one check per setting it names. */
function parserChecks(env: Env): Check[] {
  try {
    parseConfig(env, { runtime: 'node' })
    return [{ item: 'configuration', status: 'ok', detail: 'the server accepts it' }]
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    return error.problems.map((problem) => {
      const at = problem.indexOf(':')
      return { item: problem.slice(0, at), status: 'fail', detail: problem.slice(at + 1).trim() }
    })
  }
}

/** The shapes of the keys and the account, whatever the parser said. */
function keyChecks(env: Env, mode: string): Check[] {
  const checks: Check[] = []
  const real = mode !== 'simulator'
  const account = env.MERCHANT_ACCOUNT?.trim()
  if (account)
    checks.push(
      isValidAccountId(account)
        ? { item: 'MERCHANT_ACCOUNT', status: 'ok', detail: 'a ledger account, checksum valid' }
        : {
            item: 'MERCHANT_ACCOUNT',
            status: 'fail',
            detail: 'not a ledger account (G…, 56 characters) or its checksum is wrong',
          },
    )
  const secret = env.GATEWAY_SECRET_KEY?.trim()
  if (secret) {
    const bytes = /^[A-Za-z0-9+/_-]+=*$/.test(secret) ? fromBase64(secret) : null
    const ok = isValidSecretSeed(secret) || (!secret.startsWith('S') && (bytes?.length ?? 0) >= 64)
    checks.push({
      item: 'GATEWAY_SECRET_KEY',
      status: ok ? 'ok' : 'fail',
      detail: ok
        ? 'set, a valid shape (not shown)'
        : 'must be a secret seed (S…, 56 characters, valid checksum) or an RSA-encrypted key in base64 (not shown)',
    })
  } else if (real)
    checks.push({
      item: 'GATEWAY_SECRET_KEY',
      status: 'warn',
      detail: 'unset: the direct interface (paylinks gateway) cannot be used',
    })
  if (real && !set(env, 'GATEWAY_API_KEY'))
    checks.push({
      item: 'GATEWAY_API_KEY',
      status: 'warn',
      detail: 'unset: the API-key interface cannot be used',
    })
  const admin = env.ADMIN_TOKEN?.trim()
  if (admin && admin.length < 16)
    checks.push({
      item: 'ADMIN_TOKEN',
      status: 'fail',
      detail: 'shorter than 16 characters (not shown)',
    })
  return checks
}

async function publicKeyCheck(env: Env): Promise<Check[]> {
  const pem = env.GATEWAY_PUBLIC_KEY?.trim()
  if (!pem) return []
  const body = pem.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, '').replace(/\s+/g, '')
  const der = fromBase64(body)
  const ok =
    !!der &&
    (await crypto.subtle
      .importKey('spki', der, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['verify'])
      .then(
        () => true,
        () => false,
      ))
  return [
    ok
      ? { item: 'GATEWAY_PUBLIC_KEY', status: 'ok', detail: 'an RSA public key' }
      : {
          item: 'GATEWAY_PUBLIC_KEY',
          status: 'fail',
          detail: 'not a PEM RSA public key that can be read',
        },
  ]
}

/** PUBLIC_URL and the webhook URL the gateway must be given. */
function urlChecks(env: Env, mode: string): Check[] {
  const raw = env.PUBLIC_URL?.trim()
  const live = mode === 'live'
  const required: Check[] = []
  if (live && !set(env, 'GATEWAY_SITE_URL'))
    required.push({
      item: 'GATEWAY_SITE_URL',
      status: 'fail',
      detail: "required in live mode — the gateway's site address",
    })
  if (!raw)
    return live
      ? [
          ...required,
          {
            item: 'PUBLIC_URL',
            status: 'fail',
            detail: 'required in live mode — the https address customers and the gateway reach',
          },
        ]
      : required
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return [...required, { item: 'PUBLIC_URL', status: 'fail', detail: 'not a URL' }]
  }
  const webhook = `${raw.replace(/\/+$/, '')}/webhooks/gateway`
  const problems: string[] = []
  if (mode !== 'simulator' && url.protocol !== 'https:') problems.push('not https')
  if (mode !== 'simulator' && LOOPBACK.test(url.hostname))
    problems.push('a loopback address the gateway cannot reach')
  if (live && url.protocol !== 'https:')
    required.push({
      item: 'PUBLIC_URL',
      status: 'fail',
      detail:
        'must start with https:// in live mode — the card network returns customers only to https',
    })
  return [
    ...required,
    problems.length === 0
      ? { item: 'webhook URL', status: 'ok', detail: `${webhook} (register it with the gateway)` }
      : {
          item: 'webhook URL',
          status: mode === 'live' ? 'fail' : 'warn',
          detail: `${webhook}: ${problems.join(', ')}`,
        },
  ]
}

/** Whether a URL answers at all (any HTTP status), within a few seconds. */
async function reachable(item: string, url: string | undefined, what: string): Promise<Check[]> {
  if (!url || !/^https?:\/\//i.test(url)) return []
  try {
    const response = await fetch(url, {
      method: 'GET',
      redirect: 'manual',
      signal: AbortSignal.timeout(5000),
    })
    await response.body?.cancel()
    return [{ item, status: 'ok', detail: `${what} answers (${response.status})` }]
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause
    const why = cause?.code ?? cause?.message ?? (error as Error).name
    return [
      {
        item,
        status: 'fail',
        detail: `${what} at ${new URL(url).origin} does not answer (${why})`,
      },
    ]
  }
}

/** Every check, in the order they are shown. */
export async function runChecks(env: Env, options: { network?: boolean } = {}): Promise<Check[]> {
  const mode = env.GATEWAY_MODE?.trim() || 'simulator'
  const checks: Check[] = [
    {
      item: 'GATEWAY_MODE',
      status: mode === 'simulator' ? 'warn' : 'ok',
      detail: mode === 'simulator' ? 'simulator: no real payment is taken' : mode,
    },
    ...parserChecks(env),
  ]
  const seen = new Set(checks.filter((c) => c.status === 'fail').map((c) => c.item))
  // The parser already named a bad account or token: one line per problem.
  for (const check of [
    ...keyChecks(env, mode),
    ...(await publicKeyCheck(env)),
    ...urlChecks(env, mode),
    ...fileChecks(env),
  ])
    if (!(check.status === 'fail' && seen.has(check.item))) checks.push(check)
  if (options.network !== false && mode !== 'simulator') {
    checks.push(...(await reachable('gateway', env.GATEWAY_SITE_URL?.trim(), 'the gateway site')))
    checks.push(
      ...(await reachable('gateway API', env.GATEWAY_API_URL?.trim(), 'the API-key interface')),
    )
  }
  return checks
}

/** Adds `doctor` to the program. */
export function doctorCommand(program: Command): void {
  program
    .command('doctor')
    .description(
      'Check the configuration (as the server reads it) for its mode, and who can read the database',
    )
    .option('--offline', 'skip the checks that reach the gateway')
    .action(async (options: { offline?: boolean }, command: Command) => {
      const global = command.optsWithGlobals()
      const checks = await runChecks(process.env, { network: !options.offline })
      answer(global, checks, () =>
        printTable(checks, [
          ['status', (c) => c.status],
          ['item', (c) => c.item],
          ['detail', (c) => c.detail],
        ]),
      )
      if (checks.some((c) => c.status === 'fail')) process.exitCode = 1
    })
}
