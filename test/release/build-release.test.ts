/**
 * The release as the Dockerfile makes it, made outside any container: scripts/build-release.sh
 * copies this checkout to a fresh directory, builds it and installs the production dependencies
 * only; the result then runs with `node` alone (and with `npm start`), serves pages, the API and
 * the database, and stops cleanly on SIGTERM.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { freePort, type Listening, spawnListening } from '../support/server-process.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const TOKEN = 'release-test-admin-token-0123456789'

let dir = ''
let release = ''
const running: ChildProcess[] = []

interface Started extends Listening {
  base: string
}

/** The Dockerfile's instruction `name` in its exec form (a JSON array), e.g. CMD. */
function dockerfileExec(name: 'CMD' | 'HEALTHCHECK'): string[] {
  const line = dockerfileLines().find((l) => l.startsWith(`${name} `))
  const json = /(\[.*\])\s*$/.exec(line ?? '')?.[1]
  if (!json) throw new Error(`no ${name} in exec form in the Dockerfile`)
  return JSON.parse(json)
}

/** The ENV settings of the Dockerfile's final image. */
function dockerfileEnv(): Record<string, string> {
  const lines = dockerfileLines()
  const lastFrom = lines.map((l) => l.startsWith('FROM ')).lastIndexOf(true)
  const final = lines.slice(lastFrom)
  const env: Record<string, string> = {}
  for (const line of final.filter((l) => l.startsWith('ENV ')))
    for (const [, key, value] of line.matchAll(/(\w+)=(\S+)/g)) env[key as string] = value as string
  return env
}

/** The Dockerfile's instructions, one a line (continued lines joined). */
function dockerfileLines(): string[] {
  return readFileSync(join(ROOT, 'Dockerfile'), 'utf8')
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
}

/**
 * Starts `command` in the release with a bare environment, in its own process group (as a
 * terminal or a service manager does); resolves once it is listening.
 */
async function startRelease(
  command: string,
  args: string[],
  extraEnv: Record<string, string> = {},
): Promise<Started> {
  const port = await freePort()
  const started = await spawnListening(command, args, {
    cwd: release,
    detached: true,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      DATABASE_PATH: join(dir, `data-${port}`, 'paylinks.db'),
      ADMIN_TOKEN: TOKEN,
      CAPTCHA: 'off',
      ...extraEnv,
      PORT: String(port),
    },
    running,
  })
  return { ...started, base: `http://127.0.0.1:${port}` }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paylinks-release-'))
  release = join(dir, 'release')
  // The development install and the compiled SQLite driver come from this checkout: a production
  // install that builds better-sqlite3 from source takes minutes where no prebuilt one downloads.
  const modules = realpathSync(join(ROOT, 'node_modules'))
  await promisify(execFile)('bash', ['scripts/build-release.sh', '--reuse', modules, release], {
    cwd: ROOT,
    maxBuffer: 16 * 1024 * 1024,
  })
}, 180_000)

afterEach(() => {
  for (const child of running.splice(0)) {
    try {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGKILL')
    } catch {
      // Already gone.
    }
  }
})

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('the release', () => {
  it('holds the compiled server and no development dependency', () => {
    expect(existsSync(join(release, 'dist/server/main.js'))).toBe(true)
    expect(existsSync(join(release, 'node_modules/better-sqlite3'))).toBe(true)
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
    const present = Object.keys(pkg.devDependencies).filter((name) =>
      existsSync(join(release, 'node_modules', name)),
    )
    expect(present).toEqual([])
    // Nor can anything reach tsx or esbuild through another package.
    for (const tool of ['tsx', 'esbuild', 'vitest', 'drizzle-kit'])
      expect(existsSync(join(release, 'node_modules', '.bin', tool)), tool).toBe(false)
  })

  it('runs with node alone: health check, the API writes to a new database, a page renders, SIGTERM ends it with 0', async () => {
    const server = await startRelease(process.execPath, ['dist/server/main.js'])
    const health = await fetch(`${server.base}/healthz`)
    expect(health.status).toBe(200)
    expect(await health.json()).toEqual({ status: 'ok', mode: 'simulator' })

    const created = await fetch(`${server.base}/api/v1/links`, {
      method: 'POST',
      headers: { 'x-api-key': TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Abonnement', amount: 2500 }),
    })
    expect(created.status).toBe(201)
    const link = (await created.json()) as { slug: string }
    const page = await fetch(`${server.base}/l/${link.slug}`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('Abonnement')

    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    expect(server.output()).toContain('"event":"stopping"')
  })

  it('starts with npm start, which keeps the build it finds (no esbuild to rebuild with)', async () => {
    const server = await startRelease('npm', ['start', '--silent'])
    expect((await fetch(`${server.base}/healthz`)).status).toBe(200)
    expect(server.output()).not.toContain('esbuild is missing')
    // npm runs the server through a shell: the whole group is told, as Ctrl-C or systemd does.
    process.kill(-(server.child.pid as number), 'SIGTERM')
    await server.exited
    expect(server.output()).toContain('"event":"stopping"')
  })

  it("runs the Dockerfile's command with its environment in live mode, and its health check passes, then fails once stopped", async () => {
    // The image is this release: built by the same script, run by the same command.
    expect(dockerfileLines()).toContain('RUN scripts/build-release.sh /app')
    const [command, ...args] = dockerfileExec('CMD')
    // And the systemd unit starts the same file.
    const unit = readFileSync(join(ROOT, 'deploy/paylinks.service'), 'utf8')
    expect(/^ExecStart=\S*\/node (.+)$/m.exec(unit)?.[1]).toBe(args.join(' '))
    const env = dockerfileEnv()
    expect(env).toMatchObject({ GATEWAY_MODE: 'live', DATABASE_PATH: '/data/paylinks.db' })
    const server = await startRelease(
      command === 'node' ? process.execPath : (command as string),
      args,
      {
        ...env,
        // The container's paths and interface, moved to this machine's.
        DATABASE_PATH: join(dir, 'live', 'paylinks.db'),
        HOST: '127.0.0.1',
        PUBLIC_URL: 'https://pay.example.dz',
        GATEWAY_SITE_URL: 'https://gateway.example.dz',
        MERCHANT_ACCOUNT: 'GCAZI7YBLIDJWIVEL7ETNAZGPP3LC24NO6KAOBWZHUERXQ7M5BC52DLV',
      },
    )
    expect(server.output()).toContain('(live mode)')
    const port = new URL(server.base).port
    const [healthCommand, ...healthArgs] = dockerfileExec('HEALTHCHECK')
    expect(healthCommand).toBe('node')
    const health = () =>
      new Promise<number | null>((resolve) =>
        spawn(process.execPath, healthArgs, { env: { PORT: port }, stdio: 'ignore' }).on(
          'exit',
          resolve,
        ),
      )
    expect(await health()).toBe(0)
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    expect(await health()).toBe(1)
  })
})
