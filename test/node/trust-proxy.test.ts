/**
 * Behind a reverse proxy every connection comes from the proxy. With TRUST_PROXY=true the Node
 * server counts wrong admin tokens by the address the proxy forwarded (so one guesser does not
 * lock everyone out); without it, X-Forwarded-For is anybody's header and is ignored.
 */
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { lastForwardedAddress } from '../../src/runtime/node/client-address.js'
import { builtNode, freePort, spawnListening } from '../support/server-process.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const TOKEN = 'trust-proxy-admin-token-0123456789'

const running: ChildProcess[] = []
const dirs: string[] = []
afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGKILL')
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** The Node server (built, as `npm start` runs it) on a new database; resolves with its base URL. */
async function start(env: Record<string, string>): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'paylinks-proxy-'))
  dirs.push(dir)
  const port = await freePort()
  await spawnListening(process.execPath, [(await builtNode()).server], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      DATABASE_PATH: join(dir, 'paylinks.db'),
      ADMIN_TOKEN: TOKEN,
      CAPTCHA: 'off',
      ...env,
    },
    running,
  })
  return `http://127.0.0.1:${port}`
}

/** The status of an API call with a wrong token, as forwarded for `address` by a proxy. */
async function wrongTokenFrom(base: string, address: string): Promise<number> {
  const res = await fetch(`${base}/api/v1/links`, {
    headers: { 'x-api-key': 'not-the-admin-token-at-all', 'x-forwarded-for': address },
  })
  await res.arrayBuffer()
  return res.status
}

describe('the client address behind a reverse proxy', () => {
  it('takes the address the nearest proxy appended, never an earlier one, and only an IP address', () => {
    expect(lastForwardedAddress('203.0.113.7')).toBe('203.0.113.7')
    expect(lastForwardedAddress('10.0.0.1, 198.51.100.9')).toBe('198.51.100.9')
    expect(lastForwardedAddress('2001:db8::1 ,  2001:db8:1::5 ')).toBe('2001:db8:1::5')
    expect(lastForwardedAddress('198.51.100.9, not-an-address')).toBeUndefined()
    expect(lastForwardedAddress('')).toBeUndefined()
    expect(lastForwardedAddress(undefined)).toBeUndefined()
  })

  it('with TRUST_PROXY=true, throttles the guessing address and not the others behind the same proxy', async () => {
    const base = await start({ TRUST_PROXY: 'true' })
    for (let i = 0; i < 10; i++) expect(await wrongTokenFrom(base, '203.0.113.7')).toBe(401)
    expect(await wrongTokenFrom(base, '203.0.113.7')).toBe(429)
    // A client that says it is someone else is still counted by what the proxy appended.
    expect(await wrongTokenFrom(base, '198.51.100.9, 203.0.113.7')).toBe(429)
    expect(await wrongTokenFrom(base, '198.51.100.9')).toBe(401)
  })

  it('without TRUST_PROXY, ignores X-Forwarded-For: every request counts for the connection', async () => {
    const base = await start({})
    for (let i = 0; i < 10; i++) expect(await wrongTokenFrom(base, '203.0.113.7')).toBe(401)
    expect(await wrongTokenFrom(base, '198.51.100.9')).toBe(429)
  })

  it('refuses a TRUST_PROXY other than true or false, naming it', async () => {
    await expect(start({ TRUST_PROXY: 'yes' })).rejects.toThrow(/TRUST_PROXY/)
  })
})
