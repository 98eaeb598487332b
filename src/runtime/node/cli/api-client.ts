/**
 * The merchant API from the command line (`--url`/PAYLINKS_URL, `--token`/PAYLINKS_TOKEN): the
 * same HTTP calls a script would make, so the commands work against Node and Workers alike.
 */
import { CliError } from './output.js'

export interface ApiOptions {
  url?: string
  token?: string
}

/** The error shape of the merchant API. */
interface ApiErrorBody {
  error?: { code?: string; message?: string; fields?: Record<string, string> }
}

export interface MerchantApi {
  /** Calls `/api/v1{path}` and returns the JSON answer; an error answer throws a CliError. */
  call<T>(method: string, path: string, body?: unknown): Promise<T>
  /** The site's base URL, without a trailing slash. */
  readonly base: string
}

/** A client for the merchant API at `--url` with `--token`; refuses to run without them. */
export function merchantApi(options: ApiOptions): MerchantApi {
  const url = options.url ?? process.env.PAYLINKS_URL
  const token = options.token ?? process.env.PAYLINKS_TOKEN
  if (!url) throw new CliError('No Paylinks address: pass --url or set PAYLINKS_URL', 2)
  if (!token) throw new CliError('No admin token: set PAYLINKS_TOKEN (or pass --token)', 2)
  if (!/^https?:\/\/[^\s/]+/i.test(url))
    throw new CliError('--url must be an http(s) address, e.g. https://pay.example.dz', 2)
  const base = url.replace(/\/+$/, '')
  return {
    base,
    async call<T>(method: string, path: string, body?: unknown): Promise<T> {
      let response: Response
      try {
        response = await fetch(`${base}/api/v1${path}`, {
          method,
          headers: {
            'x-api-key': token,
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(30_000),
        })
      } catch (error) {
        throw new CliError(`Cannot reach Paylinks at ${base}: ${(error as Error).message}`)
      }
      if (response.status === 204) return undefined as T
      const text = await response.text()
      let json: unknown
      try {
        json = JSON.parse(text)
      } catch {
        throw new CliError(`Paylinks at ${base} answered ${response.status} without JSON`)
      }
      if (!response.ok) throw new CliError(errorText(response.status, json as ApiErrorBody))
      return json as T
    },
  }
}

function errorText(status: number, body: ApiErrorBody): string {
  const error = body.error ?? {}
  const lines = [
    `${error.message ?? 'Paylinks refused the request.'} (${status} ${error.code ?? ''})`,
  ]
  for (const message of Object.values(error.fields ?? {})) lines.push(`  - ${message}`)
  return lines.join('\n')
}

/** Reads every page of a list route (`has_more`/`next_cursor`) up to `max` items. */
export async function readPages<T>(
  api: MerchantApi,
  path: string,
  query: URLSearchParams,
  max: number,
): Promise<T[]> {
  const items: T[] = []
  let cursor: string | null = null
  do {
    const q = new URLSearchParams(query)
    q.set('limit', String(Math.min(100, max - items.length)))
    if (cursor) q.set('cursor', cursor)
    const page: { data: T[]; has_more: boolean; next_cursor: string | null } = await api.call(
      'GET',
      `${path}?${q}`,
    )
    items.push(...page.data)
    cursor = page.has_more ? page.next_cursor : null
  } while (cursor && items.length < max)
  return items.slice(0, max)
}
