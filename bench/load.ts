/**
 * One load run with autocannon. Latencies are recorded from each response with sub-millisecond
 * precision (autocannon's own histogram counts whole milliseconds, too coarse for a hello-world).
 */
import autocannon from 'autocannon'

export interface LoadOptions {
  url: string
  /** Seconds; ignored when `amount` is set. */
  duration?: number
  /** Exactly this many requests. */
  amount?: number
  connections?: number
  method?: 'GET' | 'POST'
  path?: string
  headers?: Record<string, string>
  body?: string
  /** Called before each request: return what to change (path, headers, body). */
  each?: (n: number) => {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string
  }
}

export interface LoadResult {
  requests: number
  rps: number
  p50: number
  p99: number
  /** Answers outside 2xx/3xx and connection errors. */
  bad: number
  statuses: Record<string, number>
  /** Seconds from the start of the run to its last response (autocannon's own end is later). */
  activeSeconds?: number
  /** CPU seconds spent during the run by the server process and by this one (autocannon). */
  cpu?: { server: number; client: number } | undefined
}

/** The `q`-quantile of sorted values (nearest rank). */
export function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))
  return sorted[rank] as number
}

/** Runs autocannon against one route and summarises it. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = []
  const statuses: Record<string, number> = {}
  let n = 0
  const each = options.each
  let finish: (result: autocannon.Result) => void = () => {}
  let fail: (error: Error) => void = () => {}
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    finish = resolve
    fail = reject
  })
  const started = performance.now()
  let lastResponse = started
  const instance = autocannon(
    {
      url: options.url,
      connections: options.connections ?? 10,
      ...(options.amount ? { amount: options.amount } : { duration: options.duration ?? 8 }),
      requests: [
        {
          method: options.method ?? 'GET',
          path: options.path ?? '/',
          ...(options.headers ? { headers: options.headers } : {}),
          ...(options.body !== undefined ? { body: options.body } : {}),
          ...(each
            ? {
                setupRequest: (request: autocannon.Request): autocannon.Request => {
                  const change = each(n++)
                  return {
                    ...request,
                    ...(change.method ? { method: change.method as 'GET' } : {}),
                    ...(change.path ? { path: change.path } : {}),
                    ...(change.body !== undefined ? { body: change.body } : {}),
                    headers: { ...request.headers, ...change.headers },
                  }
                },
              }
            : {}),
        },
      ],
    },
    (error, result) => (error ? fail(error) : finish(result)),
  )
  instance.on('response', (_client, status, _bytes, responseTime) => {
    latencies.push(responseTime)
    lastResponse = performance.now()
    statuses[status] = (statuses[status] ?? 0) + 1
  })
  const result = await done
  const sorted = Float64Array.from(latencies).sort()
  const good = Object.entries(statuses)
    .filter(([s]) => Number(s) < 400)
    .reduce((sum, [, count]) => sum + count, 0)
  return {
    requests: latencies.length,
    rps: latencies.length / result.duration,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    bad: latencies.length - good + result.errors,
    statuses,
    activeSeconds: (lastResponse - started) / 1000,
  }
}
