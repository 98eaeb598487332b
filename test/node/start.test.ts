import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { networkInterfaces, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { builtNode, freePort, type Listening, spawnListening } from '../support/server-process.js'

const ROOT = new URL('../..', import.meta.url).pathname
const TRACE = join(ROOT, 'test/node/support/trace-simulator.mjs')
const ACCOUNT = 'GCAZI7YBLIDJWIVEL7ETNAZGPP3LC24NO6KAOBWZHUERXQ7M5BC52DLV'

/**
 * An address of this machine other than 127.0.0.1: its first external IPv4 address, else
 * 127.0.0.2 (on Linux all of 127/8 reaches a server bound to every interface, and only that one).
 */
function otherAddress(): string {
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address
  return '127.0.0.2'
}

type Started = Listening

/**
 * Starts Paylinks with only the given environment: as `npm start` runs it (the build, made once
 * per run), or, with `trace`, from its sources under tsx, appending the modules of src/simulator
 * it loads to that file (the build holds them in chunks without their names).
 */
async function start(env: Record<string, string>, trace?: string): Promise<Started> {
  // Node itself, with tsx as its loader (not the tsx launcher, whose child a SIGKILL would orphan).
  const args = trace
    ? ['--import', 'tsx', '--import', TRACE, 'src/runtime/node/main.ts']
    : [(await builtNode()).server]
  return spawnListening(process.execPath, args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      ...(trace ? { PAYLINKS_TRACE_FILE: trace } : {}),
      ...env,
    },
    running,
  })
}

const running: ChildProcess[] = []
const dirs: string[] = []
afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGKILL')
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('npm start', () => {
  it('starts with no configuration, prints the admin token once, serves, and stops cleanly on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paylinks-start-'))
    dirs.push(dir)
    const port = await freePort()
    const env = { PORT: String(port), DATABASE_PATH: join(dir, 'db', 'paylinks.db') }

    const first = await start(env)
    const token = /Admin token \(shown once, keep it\): (plk_\w+)/.exec(first.output())?.[1]
    expect(token).toBeTruthy()
    expect(first.output()).toContain(`http://localhost:${port}/dashboard`)
    const health = await fetch(`http://127.0.0.1:${port}/healthz`)
    expect(await health.json()).toEqual({ status: 'ok', mode: 'simulator' })
    expect((await fetch(`http://127.0.0.1:${port}/_sim/gateway-public-key.pem`)).status).toBe(200)
    // The generated token is the merchant API key.
    const api = await fetch(`http://127.0.0.1:${port}/api/v1/links`, {
      headers: { 'x-api-key': token ?? '' },
    })
    expect(api.status).toBe(200)
    first.child.kill('SIGTERM')
    expect(await first.exited).toBe(0)
    expect(first.output()).toContain('"event":"stopping"')
    // Printed once, and in no log line after it.
    expect(first.output().split(token ?? 'no token')).toHaveLength(2)

    const second = await start(env)
    expect(second.output()).not.toContain('Admin token')
    const again = await fetch(`http://127.0.0.1:${port}/api/v1/links`, {
      headers: { 'x-api-key': token ?? '' },
    })
    expect(again.status).toBe(200)
    second.child.kill('SIGTERM')
    expect(await second.exited).toBe(0)
  }, 60_000)

  it('in simulator mode, loads the simulator and listens on loopback only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paylinks-host-'))
    dirs.push(dir)
    const port = await freePort()
    const trace = join(dir, 'trace.txt')
    const started = await start({ PORT: String(port), DATABASE_PATH: join(dir, 'p.db') }, trace)
    expect(started.output()).toContain(`listening on port ${port} of 127.0.0.1 (simulator mode)`)
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200)
    // Its inspector and fault controls have no login: another address of the machine is refused.
    await expect(fetch(`http://${otherAddress()}:${port}/healthz`)).rejects.toThrow()
    expect(readFileSync(trace, 'utf8')).toContain('/src/simulator/index.ts')
  }, 60_000)

  it('in sandbox mode, listens on every interface and never loads the simulator', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paylinks-host-'))
    dirs.push(dir)
    const port = await freePort()
    const trace = join(dir, 'trace.txt')
    const env = {
      PORT: String(port),
      DATABASE_PATH: join(dir, 'p.db'),
      GATEWAY_MODE: 'sandbox',
      GATEWAY_SITE_URL: 'https://gateway.invalid',
      MERCHANT_ACCOUNT: ACCOUNT,
    }
    const started = await start(env, trace)
    expect(started.output()).toContain(`listening on port ${port} of 0.0.0.0 (sandbox mode)`)
    const health = await fetch(`http://${otherAddress()}:${port}/healthz`)
    expect(await health.json()).toEqual({ status: 'ok', mode: 'sandbox' })
    expect((await fetch(`http://127.0.0.1:${port}/_sim/_inspect`)).status).toBe(404)
    expect(existsSync(trace) ? readFileSync(trace, 'utf8') : '').toBe('')
  }, 60_000)

  it('listens where HOST says, and says when that opens the simulator to the network', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paylinks-host-'))
    dirs.push(dir)
    const port = await freePort()
    const started = await start({
      PORT: String(port),
      DATABASE_PATH: join(dir, 'p.db'),
      HOST: '0.0.0.0',
    })
    expect(started.output()).toContain(`listening on port ${port} of 0.0.0.0 (simulator mode)`)
    expect(started.output()).toContain('HOST=0.0.0.0: the simulator')
    expect((await fetch(`http://${otherAddress()}:${port}/healthz`)).status).toBe(200)
  }, 60_000)

  it('refuses to start in live mode without what it needs, naming each setting', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paylinks-live-'))
    dirs.push(dir)
    const child = spawn(process.execPath, [(await builtNode()).server], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        GATEWAY_MODE: 'live',
        PUBLIC_URL: 'http://shop.example.dz',
        DATABASE_PATH: join(dir, 'p.db'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    running.push(child)
    let out = ''
    child.stdout?.on('data', (d) => {
      out += d
    })
    child.stderr?.on('data', (d) => {
      out += d
    })
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    expect(code).toBe(1)
    expect(out).toContain('MERCHANT_ACCOUNT')
    expect(out).toContain('PUBLIC_URL: must start with https://')
    expect(out).toContain('GATEWAY_SITE_URL')
  }, 30_000)
})
