/**
 * A cache of database reads that is never stale: each entry keeps the database's change stamp
 * taken before the read, and is used only while the stamp is unchanged. Any committed write — by
 * this connection or another one on the same file — changes the stamp, so a change shows at once.
 * Between writes, a read costs one stamp query (docs/decisions/performance.md, "Link reads
 * between writes from memory").
 *
 * The stamp comes from the runtime: on Node, SQLite's `total_changes()` and `PRAGMA data_version`
 * (src/runtime/node/runtime.ts). D1 offers no such stamp, so Workers read through without a cache.
 */

/** Two numbers that together change whenever the database may have changed. */
export type ChangeStamp = () => readonly [number, number]

export interface ReadCache<V> {
  /** The cached value for `key`, or what `read` returns (then cached unless null). */
  read(key: string, read: () => Promise<V>): Promise<V>
  /** The cached value for `key` if it is still current, without reading anything else. */
  peek(key: string): V | undefined
}

type Entry<V> = { a: number; b: number; value: V }

/** A read cache of at most `limit` keys, dropping the oldest entries first. */
export function createReadCache<V>(stamp: ChangeStamp, limit = 1000): ReadCache<V> {
  const entries = new Map<string, Entry<V>>()
  return {
    peek(key) {
      const hit = entries.get(key)
      if (!hit) return undefined
      const [a, b] = stamp()
      return hit.a === a && hit.b === b ? hit.value : undefined
    },
    async read(key, read) {
      const [a, b] = stamp()
      const hit = entries.get(key)
      if (hit && hit.a === a && hit.b === b) return hit.value
      const value = await read()
      if (value === null) return value
      entries.delete(key)
      entries.set(key, { a, b, value })
      if (entries.size > limit) entries.delete(entries.keys().next().value as string)
      return value
    },
  }
}
