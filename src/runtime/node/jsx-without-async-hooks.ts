/**
 * Hono's JSX renderer looks for `AsyncLocalStorage` on its first render, to follow JSX contexts
 * (`createContext`/`useContext`) across awaits. On Node 20 an `AsyncLocalStorage` turns async
 * hooks on for the whole process: every promise then pays for them, 8 to 14 µs of CPU a webhook
 * delivery (docs/decisions/performance.md, "Webhooks"). Paylinks's views read no JSX context, so
 * the Node runtime makes that first render here with Node's module lookups hidden: Hono finds no
 * `AsyncLocalStorage`, keeps that answer for the process, and renders as it does where there is
 * none. test/node/jsx-async-hooks.test.ts checks that pages render and the hooks stay off.
 */
import { jsx } from 'hono/jsx/jsx-runtime'

/** Where Hono looks for `node:async_hooks` (hono/dist/jsx/context.js). */
const LOOKUPS = ['getBuiltinModule', 'mainModule'] as const

/** Makes Hono's JSX renderer settle, once for the process, on rendering without async hooks. */
export function renderJsxWithoutAsyncHooks(): void {
  const saved = LOOKUPS.map(
    (name) => [name, Object.getOwnPropertyDescriptor(process, name)] as const,
  )
  for (const name of LOOKUPS) {
    Object.defineProperty(process, name, { value: undefined, configurable: true, writable: true })
  }
  try {
    // The probe runs synchronously as the first render starts.
    void jsx('i', {}).toString()
  } finally {
    for (const [name, descriptor] of saved) {
      if (descriptor) Object.defineProperty(process, name, descriptor)
      else delete (process as unknown as Record<string, unknown>)[name]
    }
  }
}
