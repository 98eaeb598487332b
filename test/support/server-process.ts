/** Paylinks as a real process, as a user starts it: a free port, the process, its output. */
import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

export interface Listening {
  child: ChildProcess
  /** Everything it has written so far, stdout and stderr together. */
  output: () => string
  exited: Promise<number | null>
}

export interface SpawnOptions {
  cwd: string
  /** The whole environment: nothing of this process leaks in (no stray PAYLINKS_* or GATEWAY_*). */
  env: Record<string, string>
  /** In its own process group, as a terminal or a service manager starts it. */
  detached?: boolean
  /** Every child started is pushed here, for the test's clean-up to kill. */
  running: ChildProcess[]
}

/** Starts `command args` and resolves once it says it is listening (30 s at most). */
export async function spawnListening(
  command: string,
  args: string[],
  options: SpawnOptions,
): Promise<Listening> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    detached: options.detached ?? false,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  options.running.push(child)
  let out = ''
  child.stdout?.on('data', (d) => {
    out += d
  })
  child.stderr?.on('data', (d) => {
    out += d
  })
  // 'close', not 'exit': it waits until every process holding the output has ended and all of
  // it is read (under `npm start`, the server is npm's child and may write after npm exits).
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  const deadline = Date.now() + 30_000
  while (!out.includes('Paylinks is listening')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`did not start:\n${out}`)
    await new Promise((r) => setTimeout(r, 50))
  }
  return { child, output: () => out, exited }
}

/** The sources run by Node with tsx as its loader (a SIGKILL then reaches the server itself). */
export const NODE_SOURCES = ['--import', 'tsx', 'src/runtime/node/main.ts']
