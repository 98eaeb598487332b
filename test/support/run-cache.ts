/**
 * What the test files of one `vitest run` share, made by the first file that needs it, in the
 * run's cache directory: each Worker entry's build and one local D1 with the migrations applied
 * (test/worker/build.ts), and the Node build the server and command tests start
 * (test/support/server-process.ts)
 * (test/support/global-setup.ts). Test files run in separate processes, so the first one takes a
 * lock (an exclusive `mkdir`) and the others wait for the finished directory.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { inject } from 'vitest'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The directory this run's builds and D1 template are kept in. */
    runCache: string
  }
}

function cacheRoot(): string {
  const root = inject('runCache')
  if (!root)
    throw new Error('No run cache: run the tests through vitest.config.ts (its globalSetup)')
  return root
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Waits until the holder of `lock` has made `done`, failed, or died. */
async function waitFor(name: string, done: string, lock: string): Promise<string> {
  const failed = join(lock, 'failed')
  const owner = join(lock, 'pid')
  for (;;) {
    if (existsSync(done)) return done
    if (existsSync(failed))
      throw new Error(`${name} failed in another test file: ${readFileSync(failed, 'utf8')}`)
    // The pid is written just after the lock is taken: no file yet means the holder is starting.
    const pid = existsSync(owner) ? Number(readFileSync(owner, 'utf8')) : 0
    if (pid > 0 && !isAlive(pid) && !existsSync(done))
      throw new Error(`${name}: the test process making it (${pid}) exited before it was made`)
    await sleep(100)
  }
}

/**
 * The directory `name` in this run's cache, made by `make` (which writes into the directory it is
 * given) at most once per run, whichever test file asks first; the others wait for it. Treat it
 * as read-only: copy what a test changes.
 */
export async function madeOncePerRun(
  name: string,
  make: (dir: string) => Promise<void>,
): Promise<string> {
  const root = cacheRoot()
  const done = join(root, name)
  const lock = `${done}.lock`
  try {
    mkdirSync(lock)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    return waitFor(name, done, lock)
  }
  writeFileSync(join(lock, 'pid'), String(process.pid))
  const partial = `${done}.partial`
  try {
    rmSync(partial, { recursive: true, force: true })
    mkdirSync(partial)
    await make(partial)
    // Others see the directory whole or not at all.
    renameSync(partial, done)
    return done
  } catch (error) {
    writeFileSync(join(lock, 'failed'), String((error as Error)?.stack ?? error))
    throw error
  }
}
