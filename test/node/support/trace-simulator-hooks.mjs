/** Module resolution hooks (they run on the loader thread) of trace-simulator.mjs. */
import { appendFileSync } from 'node:fs'

/** Records the resolved URL when it lies in src/simulator, then resolves as usual. */
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context)
  const file = process.env.PAYLINKS_TRACE_FILE
  if (file && result.url.includes('/src/simulator/')) appendFileSync(file, `${result.url}\n`)
  return result
}
