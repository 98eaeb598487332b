/** The part of the Workers runtime's `cloudflare:workers` module that Paylinks uses. */
declare module 'cloudflare:workers' {
  /** The Worker's bindings, readable while its module is evaluated. */
  export const env: Record<string, unknown>
  /** A named entrypoint another Worker calls through a service binding (Workers RPC). */
  export abstract class WorkerEntrypoint<Env = unknown> {
    protected readonly env: Env
    protected readonly ctx: import('@cloudflare/workers-types/index.ts').ExecutionContext
    constructor(ctx: import('@cloudflare/workers-types/index.ts').ExecutionContext, env: Env)
  }
}

/** The part of the Workers runtime's `cloudflare:sockets` module that Paylinks uses (SMTP). */
declare module 'cloudflare:sockets' {
  export interface Socket {
    readonly readable: ReadableStream<Uint8Array>
    readonly writable: WritableStream<Uint8Array>
    readonly opened: Promise<unknown>
    close(): Promise<void>
    startTls(): Socket
  }
  export function connect(
    address: { hostname: string; port: number },
    options?: { secureTransport?: 'off' | 'on' | 'starttls'; allowHalfOpen?: boolean },
  ): Socket
}
