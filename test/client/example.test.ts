import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))

function runExample(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'examples/client.ts'],
      { cwd: root, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
    )
  })
}

describe('the client example', () => {
  it('runs against the simulator: a card payment goes from pending to paid, a mistake is caught locally', async () => {
    const { code, stdout, stderr } = await runExample()
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(stdout).toContain('apiKey=[redacted], secretKey=[redacted]')
    expect(stdout).toMatch(/pay at: http:\/\/gateway\.test\/\S+ \(order \d+\)/)
    expect(stdout).toContain('before paying: pending')
    expect(stdout).toMatch(/after paying: paid, .+, approval \S+/)
    expect(stdout).toContain('top-up: success')
    expect(stdout).toMatch(/products matching PUBG: [1-9]/)
    expect(stdout).toContain('rejected locally:')
    expect(stdout).toContain('must be 10 digits for IDOOM 4G (mobile)')
  })

  it('is the same code as the README shows', () => {
    const readme = readFileSync(`${root}README.md`, 'utf8')
    const section = readme.slice(readme.indexOf('## Using the client on its own'))
    const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1]
    expect(block).toBe(readFileSync(`${root}examples/client.ts`, 'utf8'))
  })
})
