/** A small least-recently-used map with a size limit. */
export interface Lru<V> {
  get(key: string): V | undefined
  set(key: string, value: V): void
}

/** Creates an LRU holding at most `limit` entries. */
export function createLru<V>(limit: number): Lru<V> {
  const entries = new Map<string, V>()
  // The entry moved last is already the newest: a run of hits on one key moves nothing.
  let newest: string | undefined
  return {
    get(key) {
      const hit = entries.get(key)
      if (hit !== undefined && key !== newest) {
        entries.delete(key)
        entries.set(key, hit)
        newest = key
      }
      return hit
    },
    set(key, value) {
      entries.delete(key)
      entries.set(key, value)
      newest = key
      if (entries.size > limit) entries.delete(entries.keys().next().value as string)
    },
  }
}
