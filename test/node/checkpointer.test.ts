import { statSync } from 'node:fs'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { startCheckpointer } from '../../src/runtime/node/checkpointer.js'
import { openTestDb, type TestDb } from '../data/helpers.js'

let t: TestDb | undefined
afterEach(() => t?.cleanup())

const until = async (done: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms
  while (!done()) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('WAL checkpoints on a worker thread', () => {
  it('copies the log into the database while the main connection never checkpoints', async () => {
    t = openTestDb()
    const seen: Array<{ log: number; checkpointed: number }> = []
    const checkpointer = startCheckpointer(t, { everyMs: 20, onCheckpoint: (i) => seen.push(i) })
    expect(t.sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(0)
    const before = statSync(t.path).size
    const insert = t.sqlite.prepare(
      `INSERT INTO webhook_events (id, dedupe_key, payload, received_at) VALUES (?, ?, ?, ?)`,
    )
    const body = 'x'.repeat(1000)
    for (let i = 0; i < 3000; i++) insert.run(`evt_${i}`, `key_${i}`, body, i)
    // More than SQLite's own 1,000-page threshold went to the log, yet the main connection
    // never copied it: the worker did, so the database file itself grows.
    await until(() => statSync(t!.path).size > before + 3_000_000)
    await until(() => seen.some((s) => s.log > 0 && s.checkpointed === s.log))
    checkpointer.stop()
    await until(() => t!.sqlite.pragma('wal_autocheckpoint', { simple: true }) === 1000)
    const other = new Database(t.path, { readonly: true })
    try {
      expect(other.prepare('SELECT count(*) FROM webhook_events').pluck().get()).toBe(3000)
    } finally {
      other.close()
    }
  })

  it('checkpoints again after the log starts over at the same length', async () => {
    t = openTestDb()
    const seen: Array<{ log: number; checkpointed: number; by: string }> = []
    const checkpointer = startCheckpointer(t, { everyMs: 20, onCheckpoint: (i) => seen.push(i) })
    const insert = t.sqlite.prepare(
      `INSERT INTO webhook_events (id, dedupe_key, payload, received_at) VALUES (?, ?, ?, ?)`,
    )
    for (let i = 0; i < 500; i++) insert.run(`evt_${i}`, `key_${i}`, 'x'.repeat(1000), i)
    // Once every frame is copied, a write starts the log over and the file keeps its length (a
    // moment when the worker happens to be reading would defer that: try again then).
    let rewound = false
    let from = 0
    for (let attempt = 0; attempt < 5 && !rewound; attempt++) {
      await until(() => seen.slice(from).some((s) => s.log > 0 && s.checkpointed === s.log))
      const walSize = statSync(`${t.path}-wal`).size
      from = seen.length
      insert.run(`evt_again_${attempt}`, `key_again_${attempt}`, 'y', 1)
      rewound = statSync(`${t.path}-wal`).size === walSize
    }
    expect(rewound).toBe(true)
    await until(() => seen.some((s) => s.log > 0 && s.log < 20 && s.checkpointed === s.log))
    checkpointer.stop()
  })

  it('keeps the log short under a steady stream of writes: the main connection catches up', async () => {
    t = openTestDb()
    const seen: Array<{ log: number; checkpointed: number; by: string }> = []
    const checkpointer = startCheckpointer(t, {
      everyMs: 10,
      catchUpFrames: 256,
      onCheckpoint: (i) => seen.push(i),
    })
    const insert = t.sqlite.prepare(
      `INSERT INTO webhook_events (id, dedupe_key, payload, received_at) VALUES (?, ?, ?, ?)`,
    )
    const batch = t.sqlite.transaction((from: number) => {
      for (let i = from; i < from + 5; i++) insert.run(`evt_${i}`, `key_${i}`, 'x'.repeat(100), i)
    })
    let largest = 0
    // Small commits for about two seconds, pausing between them as a server does: the worker's
    // copies run beside the writes, so without the main connection the log would never start over.
    for (let from = 0; from < 7500; from += 5) {
      batch(from)
      largest = Math.max(largest, statSync(`${t.path}-wal`).size)
      await new Promise((resolve) => setTimeout(resolve, 1))
    }
    checkpointer.stop()
    expect(seen.some((s) => s.by === 'main' && s.checkpointed === s.log)).toBe(true)
    expect(largest).toBeLessThan(6 * 1024 * 1024)
    expect(t.sqlite.prepare('SELECT count(*) FROM webhook_events').pluck().get()).toBe(7500)
  })
})
