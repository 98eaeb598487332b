/** The part of the Workers runtime's `cloudflare:workers` module that Paylinks uses. */
declare module 'cloudflare:workers' {
  /** The Worker's bindings, readable while its module is evaluated. */
  export const env: Record<string, unknown>
}
