/**
 * The branding every page shows, kept per process (Node) or isolate (Workers) and never stale:
 * - the checkout reads the branding's version with its link in one query (links.ts) and asks for
 *   that version (`at`): no read while it is the one kept;
 * - other pages ask for the current one (`fresh`): on Node through the read cache's change stamp
 *   (a read only after a write), on Workers by reading the one row (D1 has no stamp).
 * A settings change raises the version, so the next page anywhere shows it.
 */
import type { Config } from '../config.js'
import { type Brand, resolveBrand } from '../domain/brand.js'
import { getBranding } from './branding.js'
import type { Db } from './db.js'
import { type ChangeStamp, createReadCache } from './read-cache.js'

export interface BrandStore {
  /** The branding last read (the environment's until a row is read). */
  current(): Brand
  /** The branding at `version` (as read with a link); reads only when it is not the one kept. */
  at(db: Db, version: number): Promise<Brand>
  /** The branding as stored now. */
  fresh(db: Db): Promise<Brand>
}

/** A store starting from the environment's values; `stamp` where the runtime has one (Node). */
export function createBrandStore(config: Config, stamp?: ChangeStamp): BrandStore {
  let kept = resolveBrand(null, config)
  const cache = stamp ? createReadCache<Brand>(stamp, 1) : undefined
  const load = async (db: Db) => {
    const brand = resolveBrand(await getBranding(db), config)
    // Two reads racing: the later version wins, whichever finishes last.
    if (brand.version >= kept.version) kept = brand
    return brand
  }
  return {
    current: () => kept,
    at: (db, version) => (version === kept.version ? Promise.resolve(kept) : load(db)),
    fresh: (db) => (cache ? cache.read('brand', () => load(db)) : load(db)),
  }
}
