/**
 * Paylinks configuration: one zod schema over the environment (Node) or the bindings (Workers),
 * parsed once at start. A bad or missing setting is named with the reason, all at once.
 */
import * as z from 'zod'
import { LANGUAGES, type Language } from '../db/schema.js'
import { DEFAULT_SITE_URL } from './client/index.js'
import { isValidAccountId } from './lib/strkey.js'

export { LANGUAGES, type Language } from '../db/schema.js'

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === '' ? undefined : v))

const httpUrl = (name: string) =>
  optionalText.refine((v) => v === undefined || /^https?:\/\/[^\s/]+/i.test(v), {
    message: `${name} must be an http(s) URL`,
  })

const schema = z.object({
  PORT: optionalText
    .transform((v) => (v === undefined ? 8787 : Number(v)))
    .pipe(z.number({ message: 'PORT must be a number' }).int().min(0).max(65535)),
  HOST: optionalText,
  PUBLIC_URL: httpUrl('PUBLIC_URL'),
  DATABASE_PATH: optionalText.transform((v) => v ?? './data/paylinks.db'),
  ADMIN_TOKEN: optionalText.refine((v) => v === undefined || v.length >= 16, {
    message: 'ADMIN_TOKEN must be at least 16 characters (leave it unset to have one generated)',
  }),
  GATEWAY_MODE: optionalText.pipe(z.enum(['simulator', 'sandbox', 'live']).default('simulator')),
  GATEWAY_SITE_URL: httpUrl('GATEWAY_SITE_URL'),
  GATEWAY_API_URL: httpUrl('GATEWAY_API_URL'),
  GATEWAY_API_KEY: optionalText,
  GATEWAY_SECRET_KEY: optionalText,
  MERCHANT_ACCOUNT: optionalText.refine((v) => v === undefined || isValidAccountId(v), {
    message: 'MERCHANT_ACCOUNT must be a ledger public key: G…, 56 characters, valid checksum',
  }),
  GATEWAY_PUBLIC_KEY: optionalText.refine(
    (v) => v === undefined || v.includes('BEGIN PUBLIC KEY'),
    { message: 'GATEWAY_PUBLIC_KEY must be a PEM public key (-----BEGIN PUBLIC KEY-----…)' },
  ),
  MERCHANT_NAME: optionalText.transform((v) => v ?? 'Paylinks merchant'),
  MERCHANT_TERMS_URL: httpUrl('MERCHANT_TERMS_URL'),
  DEFAULT_LANGUAGE: optionalText.pipe(z.enum(LANGUAGES).default('ar')),
  CAPTCHA: optionalText.pipe(z.enum(['altcha', 'off']).default('altcha')),
  // The unit of the check answer's `Amount` is inferred (gateway-facts.md), so it can be switched.
  GATEWAY_CHECK_AMOUNT_UNIT: optionalText.pipe(z.enum(['centimes', 'dzd']).default('centimes')),
  // Scheduled backups (Node): off unless BACKUP_DIR is set.
  BACKUP_DIR: optionalText,
  BACKUP_INTERVAL: optionalText
    .refine((v) => v === undefined || intervalMs(v) !== null, {
      message: 'BACKUP_INTERVAL must be a number and a unit, m, h or d (e.g. 30m, 6h, 1d)',
    })
    .transform((v) => (v === undefined ? 86_400_000 : intervalMs(v)!)),
  BACKUP_KEEP: optionalText
    .transform((v) => (v === undefined ? 7 : Number(v)))
    .pipe(z.number({ message: 'BACKUP_KEEP must be a number' }).int().min(1).max(10_000)),
  TRUST_PROXY: optionalText.pipe(z.enum(['true', 'false']).default('false')),
  // E-mail receipts and merchant notices: off unless SMTP_URL is set (src/mail).
  SMTP_URL: optionalText.refine((v) => v === undefined || smtpUrlProblem(v) === null, {
    message:
      'SMTP_URL must be smtp://user:password@host:port or smtps://… (percent-encode @ : / in the password)',
  }),
  MAIL_FROM: optionalText.refine((v) => v === undefined || MAILBOX.test(v), {
    message: 'MAIL_FROM must be an address, e.g. receipts@shop.dz or "Shop <receipts@shop.dz>"',
  }),
  MERCHANT_EMAIL: optionalText.refine((v) => v === undefined || ADDRESS.test(v), {
    message: 'MERCHANT_EMAIL must be one e-mail address, e.g. owner@shop.dz',
  }),
  MERCHANT_NOTIFY: optionalText.pipe(z.enum(['each', 'daily', 'off']).optional()),
  // Outbound webhooks to private addresses (an intranet receiver) outside simulator mode.
  WEBHOOK_ALLOW_PRIVATE_TARGETS: optionalText.pipe(z.enum(['true', 'false']).default('false')),
})

const ADDRESS = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/
const MAILBOX =
  /^(?:[^<>\r\n]*<[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+>|[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+)$/

/** Why an SMTP URL is unusable, or null (the message never repeats it: it holds a password). */
function smtpUrlProblem(text: string): string | null {
  try {
    const url = new URL(text)
    if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') return 'scheme'
    return url.hostname === '' ? 'host' : null
  } catch {
    return 'syntax'
  }
}

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const

/** `30m`, `6h`, `1d` in milliseconds (at least a minute), or null. */
function intervalMs(text: string): number | null {
  const match = /^(\d{1,6})\s*([mhd])$/i.exec(text)
  if (!match || Number(match[1]) === 0) return null
  return Number(match[1]) * UNIT_MS[match[2]!.toLowerCase() as keyof typeof UNIT_MS]
}

export type RawConfig = z.output<typeof schema>

/** The parsed configuration the app runs on. */
export interface Config {
  port: number
  /** Node's listen address: loopback in simulator mode, all interfaces otherwise. */
  host: string
  publicUrl: string
  databasePath: string
  adminToken: string | undefined
  gatewayMode: 'simulator' | 'sandbox' | 'live'
  gatewaySiteUrl: string
  gatewayApiUrl: string | undefined
  gatewayApiKey: string | undefined
  gatewaySecretKey: string | undefined
  merchantAccount: string | undefined
  gatewayPublicKey: string | undefined
  merchantName: string
  merchantTermsUrl: string | undefined
  defaultLanguage: Language
  captcha: 'altcha' | 'off'
  /** Unit of `Amount` in the card check answer. */
  checkAmountUnit: 'centimes' | 'dzd'
  /** Scheduled backups of the SQLite database (Node), or undefined when BACKUP_DIR is unset. */
  backups: { dir: string; intervalMs: number; keep: number } | undefined
  /** Node behind a reverse proxy: the client's address is the one it forwards (X-Forwarded-For). */
  trustProxy: boolean
  /** Outbound webhooks may target private, loopback and link-local addresses (not in simulator mode: always). */
  webhookAllowPrivateTargets: boolean
  /** E-mail receipts and merchant notices, or undefined when SMTP_URL is unset. */
  mail: MailConfig | undefined
}

/** Where e-mail goes through and who it is from. */
export interface MailConfig {
  smtpUrl: string
  from: string
  /** Where merchant notices go; none without MERCHANT_EMAIL. */
  merchantEmail: string | undefined
  /** A notice per paid payment, one digest a day, or none. */
  merchantNotify: 'each' | 'daily' | 'off'
}

/** Thrown when the configuration is unusable; `problems` names each bad setting. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `Paylinks cannot start with this configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    )
    this.name = 'ConfigError'
  }
}

const stripSlash = (url: string) => url.replace(/\/+$/, '')

/** Where the configuration runs: Workers add the rules of a service with no terminal and no loopback. */
export interface ParseOptions {
  runtime?: 'node' | 'workers'
}

/**
 * Parses configuration from a flat record of strings. Secrets are never echoed in messages.
 * In simulator mode the gateway URLs, account and key default to the built-in simulator's
 * (filled in by the caller that mounts it); `live` and `sandbox` refuse to start without what
 * they need.
 */
export function parseConfig(
  env: Record<string, string | undefined>,
  options: ParseOptions = {},
): Config {
  const result = schema.safeParse(env)
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`))
  }
  const raw = result.data
  const publicUrl = stripSlash(raw.PUBLIC_URL ?? `http://localhost:${raw.PORT}`)
  const config: Config = {
    port: raw.PORT,
    // The simulator's inspector and fault controls have no login: it stays on this machine
    // unless HOST says otherwise. A real gateway's modes serve everyone, as containers need.
    host: raw.HOST ?? (raw.GATEWAY_MODE === 'simulator' ? '127.0.0.1' : '0.0.0.0'),
    publicUrl,
    databasePath: raw.DATABASE_PATH,
    adminToken: raw.ADMIN_TOKEN,
    gatewayMode: raw.GATEWAY_MODE,
    gatewaySiteUrl: stripSlash(
      raw.GATEWAY_SITE_URL ??
        (raw.GATEWAY_MODE === 'simulator' ? `${publicUrl}/_sim` : DEFAULT_SITE_URL),
    ),
    gatewayApiUrl:
      raw.GATEWAY_API_URL !== undefined
        ? stripSlash(raw.GATEWAY_API_URL)
        : raw.GATEWAY_MODE === 'simulator'
          ? `${publicUrl}/_sim/api/v1`
          : undefined,
    gatewayApiKey: raw.GATEWAY_API_KEY,
    gatewaySecretKey: raw.GATEWAY_SECRET_KEY,
    merchantAccount: raw.MERCHANT_ACCOUNT,
    gatewayPublicKey: raw.GATEWAY_PUBLIC_KEY,
    merchantName: raw.MERCHANT_NAME,
    merchantTermsUrl: raw.MERCHANT_TERMS_URL,
    defaultLanguage: raw.DEFAULT_LANGUAGE,
    captcha: raw.CAPTCHA,
    checkAmountUnit: raw.GATEWAY_CHECK_AMOUNT_UNIT,
    backups: raw.BACKUP_DIR
      ? { dir: raw.BACKUP_DIR, intervalMs: raw.BACKUP_INTERVAL, keep: raw.BACKUP_KEEP }
      : undefined,
    trustProxy: raw.TRUST_PROXY === 'true',
    mail: raw.SMTP_URL
      ? {
          smtpUrl: raw.SMTP_URL,
          from:
            raw.MAIL_FROM ??
            `${raw.MERCHANT_NAME.replace(/[<>"\r\n]/g, '')} <paylinks@${hostnameOf(publicUrl) || 'localhost'}>`,
          merchantEmail: raw.MERCHANT_EMAIL,
          merchantNotify: raw.MERCHANT_EMAIL ? (raw.MERCHANT_NOTIFY ?? 'each') : 'off',
        }
      : undefined,
    webhookAllowPrivateTargets: raw.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true',
  }
  const problems = [
    ...gatewayProblems(config),
    ...liveProblems(config, env),
    ...(options.runtime === 'workers' ? workersProblems(config) : []),
    ...(raw.MERCHANT_NOTIFY && raw.MERCHANT_NOTIFY !== 'off' && !raw.MERCHANT_EMAIL
      ? [
          `MERCHANT_EMAIL: required when MERCHANT_NOTIFY is ${raw.MERCHANT_NOTIFY} — where the notices go`,
        ]
      : []),
  ]
  if (problems.length > 0) throw new ConfigError(problems)
  return config
}

/** A real gateway (sandbox or live) pays into the merchant's own account, never a default one. */
function gatewayProblems(config: Config): string[] {
  if (config.gatewayMode === 'simulator' || config.merchantAccount) return []
  return [
    `MERCHANT_ACCOUNT: required in ${config.gatewayMode} mode — the ledger account (G…) that receives card payments`,
  ]
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

function hostnameOf(url: string): string {
  try {
    return new URL(url).hostname
  } catch {
    return ''
  }
}

/**
 * A Worker has no terminal to show a generated token in, and is reachable by everyone: a real
 * gateway's modes need ADMIN_TOKEN as a secret, and the simulator (whose inspector lists
 * customers) serves only `wrangler dev` on this machine.
 */
function workersProblems(config: Config): string[] {
  const port25 = config.mail && new URL(config.mail.smtpUrl).port === '25'
  return [
    ...(port25
      ? [
          'SMTP_URL: Cloudflare Workers cannot connect to port 25 — use 587 (smtp://, STARTTLS) or 465 (smtps://)',
        ]
      : []),
    ...workersAccessProblems(config),
  ]
}

function workersAccessProblems(config: Config): string[] {
  if (config.gatewayMode === 'simulator') {
    return LOOPBACK_HOSTS.has(hostnameOf(config.publicUrl))
      ? []
      : [
          'PUBLIC_URL: simulator mode serves only on localhost, 127.0.0.1 or [::1] (wrangler dev) — its inspector lists customers and has no login; deploy in sandbox or live mode',
        ]
  }
  if (config.adminToken) return []
  return [
    `ADMIN_TOKEN: required in ${config.gatewayMode} mode on Workers — set it as a secret (npx wrangler secret put ADMIN_TOKEN), 16 characters or more`,
  ]
}

function liveProblems(config: Config, env: Record<string, string | undefined>): string[] {
  if (config.gatewayMode !== 'live') return []
  const problems: string[] = []
  if (!env.PUBLIC_URL?.trim()) {
    problems.push(
      'PUBLIC_URL: required in live mode — the https address customers and the gateway reach',
    )
  } else if (!config.publicUrl.startsWith('https://')) {
    problems.push(
      'PUBLIC_URL: must start with https:// in live mode — the card network returns customers only to https',
    )
  }
  if (!env.GATEWAY_SITE_URL?.trim()) {
    problems.push(
      `GATEWAY_SITE_URL: required in live mode — the gateway's site address (e.g. ${DEFAULT_SITE_URL})`,
    )
  }
  return problems
}
