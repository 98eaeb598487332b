/** Running Paylinks and the `paylinks` command as real processes, built as `npm start` runs them. */
import { type ChildProcess, spawn } from 'node:child_process'
import { builtNode, freePort, spawnListening } from '../support/server-process.js'

export { freePort }

export const ROOT = new URL('../..', import.meta.url).pathname

/** Only what a process needs from this one: no stray PAYLINKS_* or GATEWAY_* of the machine. */
const baseEnv = () => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' })

export interface Server {
  child: ChildProcess
  url: string
  /** The admin token the first start printed, when it generated one. */
  token: string | undefined
  output: () => string
  stop: () => Promise<number | null>
}

const running: ChildProcess[] = []

/** Kills whatever is still running (afterAll). */
export function killAll(): void {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
}

/** Starts the server with the given environment on a free port; resolves once it listens. */
export async function startServer(env: Record<string, string>): Promise<Server> {
  const port = await freePort()
  const { child, output, exited } = await spawnListening(
    process.execPath,
    [(await builtNode()).server],
    {
      cwd: ROOT,
      env: { ...baseEnv(), CAPTCHA: 'off', PORT: String(port), ...env },
      running,
    },
  )
  const out = output()
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    token: /Admin token \(shown once, keep it\): (plk_\w+)/.exec(out)?.[1],
    output,
    stop: () => {
      child.kill('SIGTERM')
      return exited
    },
  }
}

export interface CliRun {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs `paylinks <args>` (the built src/runtime/node/cli/main.ts) with only the given environment and no terminal. */
export async function runCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const child = spawn(process.execPath, [(await builtNode()).cli, ...args], {
    cwd: ROOT,
    env: { ...baseEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.push(child)
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (d) => {
    stdout += d
  })
  child.stderr?.on('data', (d) => {
    stderr += d
  })
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
}

/**
 * Submits the checkout form the way a customer's browser does (the form, then its POST) and returns
 * the status: 303 to the gateway, 429 past the checkout limit (10 a minute per address).
 */
export async function submit(base: string, slug: string): Promise<number> {
  const page = await fetch(`${base}/l/${slug}`)
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? ''
  const res = await fetch(`${base}/l/${slug}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      name: 'Amina Benali',
      phone: '0550123456',
      email: 'amina@example.dz',
      terms: 'yes',
      csrf,
    }),
  })
  await res.body?.cancel()
  return res.status
}

/** Starts a payment (a checkout answered 303). */
export async function pay(base: string, slug: string): Promise<void> {
  const status = await submit(base, slug)
  if (status !== 303) throw new Error(`checkout answered ${status}`)
}
