/** Starts bench/server.ts in a child process and talks to it over the IPC channel. */
import { type ChildProcess, fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { ServerMode } from './constants.js'
import type { ServerCommands } from './server.js'

const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url))

export interface BenchServer {
  url: string
  pid: number
  call<K extends keyof ServerCommands>(cmd: K, args?: ServerCommands[K]): Promise<unknown>
  stop(): Promise<void>
}

/** Forks a server process in `mode` (Paylinks: on `databasePath` if given) and resolves once it listens. */
export function startServer(mode: ServerMode, databasePath?: string): Promise<BenchServer> {
  const child: ChildProcess = fork(SERVER, databasePath ? [mode, databasePath] : [mode], {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  let next = 0
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>()
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => {
      const error = new Error(`bench server (${mode}) exited with ${code}`)
      reject(error)
      for (const w of waiting.values()) w.reject(error)
    })
    child.on('message', (message: Record<string, unknown>) => {
      if (message.ready) {
        resolve({
          url: String(message.url),
          pid: Number(message.pid),
          call(cmd, args) {
            const id = ++next
            return new Promise((res, rej) => {
              waiting.set(id, { resolve: res, reject: rej })
              child.send({ id, cmd, args: args ?? {} })
            })
          },
          stop() {
            return new Promise((res) => {
              if (child.exitCode !== null) return res()
              child.once('exit', () => res())
              // The server closes its database and exits when the channel closes.
              child.disconnect()
              setTimeout(() => child.kill('SIGKILL'), 5000).unref()
            })
          },
        })
        return
      }
      const w = waiting.get(Number(message.id))
      if (!w) return
      waiting.delete(Number(message.id))
      if (message.ok) w.resolve(message.result)
      else w.reject(new Error(String(message.error)))
    })
  })
}
