/**
 * WAL checkpoints on a worker thread. SQLite normally checkpoints inside whichever commit pushes the
 * write-ahead log past 1,000 pages, and a checkpoint syncs both files to disk: on the event loop
 * that is a pause of milliseconds every few hundred writes. Here the main connection never
 * checkpoints; a second connection on a worker thread copies the log into the database (PASSIVE:
 * it never waits for, nor blocks, readers and writers) a few times a second while the log has grown.
 * Durability is unchanged: commits still go to the log first, and the log is replayed on open.
 */
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type { SqliteHandle } from './sqlite.js'

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
const sizeOf = () => { try { return require('node:fs').statSync(workerData.path + '-wal').size } catch { return 0 } }
let last = -1
const tick = () => {
  try {
    const size = sizeOf()
    if (size !== last) {
      const [row] = db.pragma('wal_checkpoint(PASSIVE)')
      parentPort.postMessage({ checkpointed: row.checkpointed, log: row.log })
      last = sizeOf()
    }
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
    onCheckpoint?: (info: { log: number; checkpointed: number }) => void
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
  worker.on('message', (message: { checkpointed?: number; log?: number }) => {
    if (message.log !== undefined)
      options.onCheckpoint?.({ log: message.log, checkpointed: message.checkpointed ?? 0 })
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
