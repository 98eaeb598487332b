import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import {
  SIMULATOR_PUBLIC_KEY_PEM,
  SIMULATOR_SECRET_SEED,
  TEST_CARDS,
  TEST_OTP,
} from '../../src/simulator/index.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
let child: ChildProcess | undefined

afterAll(() => {
  if (child?.pid && child.exitCode === null) child.kill('SIGTERM')
})

/** Starts the CLI and resolves with everything it printed once it has printed the test cards. */
function startCli(args: string[]): Promise<string> {
  child = spawn(process.execPath, ['--import', 'tsx', 'src/simulator/cli.ts', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return new Promise((resolve, reject) => {
    let out = ''
    let err = ''
    child!.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8')
      if (out.includes(TEST_CARDS.at(-1)!.number)) resolve(out)
    })
    child!.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8')
    })
    child!.on('exit', (code) => reject(new Error(`the CLI exited with ${code}: ${err}`)))
  })
}

describe('npm run simulator', () => {
  it('serves on the given port and prints its URLs, credentials, test cards and key path', async () => {
    const out = await startCli(['--port', '0', '--host', '127.0.0.1'])
    const siteUrl = /site_url \(direct interface\)\s+(\S+)/.exec(out)?.[1]
    expect(siteUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(siteUrl).not.toMatch(/:0$/)
    expect(out).toContain(`${siteUrl}/api/v1`)
    expect(out).toContain(`${siteUrl}/_inspect`)
    expect(out).toContain(`${siteUrl}/gateway-public-key.pem`)
    expect(out).toContain(SIMULATOR_SECRET_SEED)
    expect(out).toContain(TEST_OTP)
    for (const card of TEST_CARDS) expect(out).toContain(card.number)
    expect(await (await fetch(`${siteUrl}/gateway-public-key.pem`)).text()).toBe(
      SIMULATOR_PUBLIC_KEY_PEM,
    )
  })

  it('refuses a port that is not a number', async () => {
    const second = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/simulator/cli.ts', '--port', 'abc'],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let err = ''
    second.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8')
    })
    const code = await new Promise((resolve) => second.on('exit', resolve))
    expect(code).toBe(2)
    expect(err).toContain('--port must be a port number')
  })
})
