/**
 * WAL checkpoints on a worker thread, off the event loop (docs/decisions/performance.md,
 * "Checkpoints on a worker thread, and a log that starts over"). The main connection never
 * checkpoints on its own; a second connection on a worker thread copies the log into the database
 * (PASSIVE: it never waits for, nor blocks, readers and writers) a few times a second whenever
 * another connection has committed (`PRAGMA data_version`). Once the worker reports a log of
 * `catchUpFrames` or more, the main connection copies the few frames written since, so the next
 * write rewinds the log. Durability is unchanged: commits still go to the log first, and the log
 * is replayed on open.
 */
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type { SqliteHandle } from './database.js'

type CheckpointRow = { busy: number; log: number; checkpointed: number }

export interface Checkpointer {
  /** Stops the worker (the main connection then checkpoints on its own again). */
  stop(): void
}

// Plain JavaScript, evaluated in the worker: no TypeScript loader is needed there.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
const db = new Database(workerData.path)
db.pragma('busy_timeout = 1000')
db.pragma('synchronous = NORMAL')
// Changes whenever another connection commits (the worker's own checkpoints do not change it).
let seen = -1
const tick = () => {
  try {
    const version = db.pragma('data_version', { simple: true })
    if (version === seen) return
    seen = version
    const [row] = db.pragma('wal_checkpoint(PASSIVE)')
    parentPort.postMessage({ checkpointed: row.checkpointed, log: row.log })
  } catch (error) {
    parentPort.postMessage({ error: String(error) })
  }
}
const timer = setInterval(tick, workerData.everyMs)
parentPort.on('message', (message) => {
  if (message === 'stop') { clearInterval(timer); tick(); db.close(); process.exit(0) }
})
`

/** Moves the checkpoints of `handle`'s database file to a worker thread. */
export function startCheckpointer(
  handle: SqliteHandle,
  options: {
    everyMs?: number
    /** Log length (frames) from which the main connection copies what the worker has not. */
    catchUpFrames?: number
    onCheckpoint?: (info: { log: number; checkpointed: number; by: 'worker' | 'main' }) => void
  } = {},
): Checkpointer {
  const path = handle.sqlite.name
  const driver = createRequire(import.meta.url).resolve('better-sqlite3')
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { path, driver, everyMs: options.everyMs ?? 250 },
  })
  worker.unref()
  const restore = () => handle.sqlite.open && handle.sqlite.pragma('wal_autocheckpoint = 1000')
  const catchUpFrames = options.catchUpFrames ?? 16_384
  worker.on('message', (message: { checkpointed?: number; log?: number }) => {
    if (message.log === undefined) return
    options.onCheckpoint?.({
      log: message.log,
      checkpointed: message.checkpointed ?? 0,
      by: 'worker',
    })
    if (message.log < catchUpFrames || !handle.sqlite.open) return
    try {
      const [row] = handle.sqlite.pragma('wal_checkpoint(PASSIVE)') as CheckpointRow[]
      if (row) options.onCheckpoint?.({ log: row.log, checkpointed: row.checkpointed, by: 'main' })
    } catch {
      // The next report tries again; meanwhile the log only grows.
    }
  })
  // Without the worker, SQLite's own checkpoints take over again.
  worker.on('error', restore)
  worker.on('exit', restore)
  handle.sqlite.pragma('wal_autocheckpoint = 0')
  return {
    stop() {
      worker.postMessage('stop')
    },
  }
}
