/** Link queries. A link with payments is never deleted, only deactivated. */
import { and, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm'
import {
  checkouts,
  type Link,
  type LinkCounters,
  type LinkSource,
  links,
  payments,
} from '../../db/schema.js'
import { newLinkId, newSlug } from '../domain/ids.js'
import type { LinkChanges, LinkValues } from '../domain/link-rules.js'
import { METADATA_MAX_KEYS, type MetadataPatch, toMergePatch } from '../domain/metadata.js'
import { brandingVersionSql } from './branding.js'
import type { Db } from './db.js'
import { afterCursor, type Page, type PageOptions, pageSize, toPage } from './paging.js'
import { prepared } from './prepared.js'
import type { ReadCache } from './read-cache.js'
import type { SearchTerm } from './search.js'
import { linkSearch } from './search-sql.js'
import { col } from './sql.js'

/**
 * What a link has collected (paid payments and their total in centimes) and the places its
 * in-flight payments hold: columns of the link row, kept by the database (db/schema.ts), so a
 * link and its totals are one row read whatever the number of payments.
 */
export type LinkStats = LinkCounters
export type LinkWithStats = Link & LinkStats
/** A link as its customer pages read it: with the branding's version (brand-store.ts). */
export type PublicLink = LinkWithStats & { brandingVersion: number }

const SLUG_ATTEMPTS = 3

/** Where a new link comes from, and who made it (the till names its cashier). */
export type LinkOrigin = { source: LinkSource; createdBy?: string | null }

/** Creates a link with a fresh id and unguessable slug. */
export async function createLink(
  db: Db,
  values: LinkValues,
  now: number,
  origin: LinkOrigin = { source: 'dashboard' },
): Promise<LinkWithStats> {
  // A slug collision is astronomically unlikely, but a unique index turns it into a retry, not a 500.
  for (let attempt = 1; ; attempt++) {
    const [row] = await db
      .insert(links)
      .values({
        ...values,
        source: origin.source,
        createdBy: origin.createdBy ?? null,
        id: newLinkId(),
        slug: newSlug(),
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning()
    if (row) return row
    if (attempt >= SLUG_ATTEMPTS) throw new Error('Could not allocate a unique link id and slug')
  }
}

// The stored metadata as a JSON object, whatever was written there by other means.
const storedMetadata = sql`CASE WHEN json_valid(${col(links.metadata)})
  AND json_type(${col(links.metadata)}) = 'object' THEN ${col(links.metadata)} ELSE '{}' END`

/**
 * A metadata change as the UPDATE applies it: the stored keys merged with the change by
 * json_patch (a removed key is null in a merge patch), and the condition that the result holds at
 * most METADATA_MAX_KEYS keys. Read and written by the one statement, two changes at once each
 * keep the other's keys.
 */
function metadataUpdate(patch: MetadataPatch) {
  if (patch === null) return { value: sql`'{}'`, fits: undefined }
  const merged = sql`json_patch(${storedMetadata}, ${JSON.stringify(toMergePatch(patch))})`
  return {
    value: merged,
    fits: sql`(SELECT count(*) FROM json_each(${merged})) <= ${METADATA_MAX_KEYS}`,
  }
}

/**
 * Changes the given columns of a link; returns the updated link, or null when there is none, or
 * when a metadata change would leave it more than METADATA_MAX_KEYS keys (nothing is changed).
 */
export async function updateLink(
  db: Db,
  id: string,
  changes: LinkChanges,
  now: number,
): Promise<LinkWithStats | null> {
  const { metadata, ...columns } = changes
  const meta = metadata === undefined ? null : metadataUpdate(metadata)
  const [row] = await db
    .update(links)
    .set({ ...columns, ...(meta ? { metadata: meta.value } : {}), updatedAt: now })
    .where(and(eq(links.id, id), meta?.fits))
    .returning()
  return row ?? null
}

/** A link and its paid totals, by id. */
export async function getLinkById(db: Db, id: string): Promise<LinkWithStats | null> {
  const query = prepared(db, 'linkById', (d) =>
    d
      .select()
      .from(links)
      .where(eq(links.id, sql.placeholder('id')))
      .limit(1)
      .prepare(),
  )
  return ((await query.all({ id })) as LinkWithStats[])[0] ?? null
}

/** The titles of the links named, by id, in one query (a link that does not exist is left out). */
export async function linkTitles(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  const titles = new Map<string, string>()
  if (ids.length === 0) return titles
  const rows = await db
    .select({ id: links.id, title: links.title })
    .from(links)
    .where(inArray(links.id, [...ids]))
  for (const row of rows) titles.set(row.id, row.title)
  return titles
}

/**
 * The titles and custom fields of the links named, by id, in one query: what the payments export
 * writes beside each payment (a link that does not exist is left out).
 */
export async function linkHeads(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, Pick<Link, 'title' | 'customFields'>>> {
  const heads = new Map<string, Pick<Link, 'title' | 'customFields'>>()
  if (ids.length === 0) return heads
  const rows = await db
    .select({ id: links.id, title: links.title, customFields: links.customFields })
    .from(links)
    .where(inArray(links.id, [...ids]))
  for (const { id, ...head } of rows) heads.set(id, head)
  return heads
}

/**
 * A link and its paid totals, by public slug, with the branding's version read in the same query
 * (one more row on D1): pages prepared for an older version are not served.
 */
export async function getLinkBySlug(db: Db, slug: string): Promise<PublicLink | null> {
  return ((await linkBySlugQuery(db).all({ slug })) as PublicLink[])[0] ?? null
}

/**
 * `getLinkBySlug`'s query for `db`, built on first use and kept: building reads nothing, so a
 * Worker builds it as its isolate starts (src/runtime/worker/warm.tsx).
 */
export function linkBySlugQuery(db: Db) {
  return prepared(db, 'linkBySlug', (d) =>
    d
      .select({ ...getTableColumns(links), brandingVersion: brandingVersionSql })
      .from(links)
      .where(eq(links.slug, sql.placeholder('slug')))
      .limit(1)
      .prepare(),
  )
}

/**
 * `getLinkBySlug` through `cache` when the runtime has one (see read-cache.ts). A cached link is
 * shared by every request that reads it, so it is frozen.
 */
export function readLinkBySlug(
  db: Db,
  slug: string,
  cache: ReadCache<PublicLink | null> | undefined,
): Promise<PublicLink | null> {
  if (!cache) return getLinkBySlug(db, slug)
  return cache.read(slug, async () => {
    const link = await getLinkBySlug(db, slug)
    return link && Object.freeze(link)
  })
}

/**
 * Which links a list shows by where they were made: one source; `own`, the merchant's own links
 * (neither the till's sales nor the links checkouts pay through); or `not_checkout`, every link
 * but the checkouts' (a checkout is the shop's order, listed as a checkout).
 */
export type LinkSourceFilter = LinkSource | 'own' | 'not_checkout'

/**
 * The condition of a source filter, null read as `dashboard`. Written around `coalesce` so that
 * SQLite keeps walking `links_created_at_idx` in list order, checking each row's source, instead of
 * the source index (which has no `id` and would sort the page): the till's sales are many and
 * recent, the merchant's own links few, so "the merchant's own" reads the sales newer than the
 * page's last link and stops; a page of till sales reads the links made among them.
 */
function sourceCondition(filter: LinkSourceFilter) {
  const source = sql`coalesce(${links.source}, 'dashboard')`
  if (filter === 'own') return sql`${source} NOT IN ('till', 'checkout')`
  if (filter === 'not_checkout') return sql`${source} <> 'checkout'`
  return sql`${source} = ${filter}`
}

/**
 * Links newest first, with paid totals; `active` filters on the merchant's on/off switch, `source`
 * on where they were made, `search` on the title (search.ts).
 */
export async function listLinks(
  db: Db,
  options: PageOptions & {
    active?: boolean
    source?: LinkSourceFilter
    search?: SearchTerm
  } = {},
): Promise<Page<LinkWithStats>> {
  const limit = pageSize(options.limit)
  const where = and(
    options.active === undefined ? undefined : eq(links.active, options.active),
    options.source === undefined ? undefined : sourceCondition(options.source),
    options.search ? await linkSearch(db, options.search) : undefined,
    options.cursor ? afterCursor(links.createdAt, links.id, options.cursor) : undefined,
  )
  const rows = await db
    .select()
    .from(links)
    .where(where)
    .orderBy(desc(links.createdAt), desc(links.id))
    .limit(limit + 1)
    .offset(options.cursor ? 0 : Math.max(0, Math.trunc(options.offset ?? 0)))
  return toPage(rows, limit)
}

/** Whether any payment, in any state, refers to the link. */
export async function linkHasPayments(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(payments)
    .where(eq(payments.linkId, id))
    .limit(1)
  return rows.length > 0
}

/**
 * Deletes a link only if no payment refers to it, in one conditional statement (so a payment
 * started meanwhile keeps it), and never a checkout's (the checkout names it). Returns whether it
 * was deleted.
 */
export async function deleteLinkIfUnused(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .delete(links)
    .where(
      and(
        eq(links.id, id),
        sql`NOT EXISTS (SELECT 1 FROM ${payments} WHERE ${col(payments.linkId)} = ${col(links.id)})`,
        sql`NOT EXISTS (SELECT 1 FROM ${checkouts} WHERE ${col(checkouts.linkId)} = ${col(links.id)})`,
      ),
    )
    .returning({ id: links.id })
  return rows.length > 0
}
