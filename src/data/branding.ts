/**
 * The branding row and the logos (db/schema.ts). Every change is one upsert that also raises the
 * row's `version`, which the checkout reads with the link (links.ts): each process and Workers
 * isolate then knows at once that what it keeps is out of date (brand-store.ts).
 */
import { eq, ne, sql } from 'drizzle-orm'
import { type Branding, branding, logo } from '../../db/schema.js'
import type { Db } from './db.js'

/** What the settings page sets; null leaves the environment's value in force. */
export type BrandingFields = Pick<
  Branding,
  | 'merchantName'
  | 'brandColor'
  | 'contactPhone'
  | 'contactEmail'
  | 'contactAddress'
  | 'termsUrl'
  | 'termsAr'
  | 'termsFr'
  | 'termsEn'
  | 'defaultLanguage'
  | 'receiptFooter'
>

type LogoColumns = Pick<Branding, 'logoHash' | 'logoType' | 'logoWidth' | 'logoHeight'>

/** The stored branding, or null while nothing was ever set. */
export async function getBranding(db: Db): Promise<Branding | null> {
  const [row] = await db.select().from(branding).where(eq(branding.id, 1))
  return row ?? null
}

/** The branding row's version as one SQL expression (0 while there is no row). */
export const brandingVersionSql = sql<number>`coalesce((SELECT ${branding.version} FROM ${branding} WHERE ${branding.id} = 1), 0)`

async function upsert(db: Db, changes: Partial<BrandingFields & LogoColumns>, now: number) {
  const [row] = await db
    .insert(branding)
    .values({ id: 1, version: 1, ...changes, updatedAt: now })
    .onConflictDoUpdate({
      target: branding.id,
      set: { ...changes, version: sql`${branding.version} + 1`, updatedAt: now },
    })
    .returning()
  return row as Branding
}

/** Stores the settings page's fields in one statement; returns the new row. */
export function saveBranding(db: Db, fields: BrandingFields, now: number): Promise<Branding> {
  return upsert(db, fields, now)
}

/** A logo to store: its checked bytes and what they were found to be. */
export interface NewLogo {
  sha256: string
  contentType: string
  bytes: Uint8Array
  width: number
  height: number
}

/**
 * Makes `image` the logo (null removes it): the bytes are stored first, then the branding points
 * at them, then the other logos go — at every step the branding's logo exists.
 */
export async function replaceLogo(db: Db, image: NewLogo | null, now: number): Promise<Branding> {
  if (image) {
    await db
      .insert(logo)
      .values({ ...image, updatedAt: now })
      .onConflictDoNothing()
  }
  const row = await upsert(
    db,
    {
      logoHash: image?.sha256 ?? null,
      logoType: image?.contentType ?? null,
      logoWidth: image?.width ?? null,
      logoHeight: image?.height ?? null,
    },
    now,
  )
  await (image ? db.delete(logo).where(ne(logo.sha256, image.sha256)) : db.delete(logo))
  return row
}

/** A stored logo by its hash: what its address serves. */
export async function getLogo(
  db: Db,
  sha256: string,
): Promise<{ contentType: string; bytes: Uint8Array } | null> {
  const [row] = await db
    .select({ contentType: logo.contentType, bytes: logo.bytes })
    .from(logo)
    .where(eq(logo.sha256, sha256))
  return row ?? null
}

/** The logo the branding points at, with its bytes (the receipt PDF draws it); null without one. */
export async function getBrandLogo(
  db: Db,
): Promise<{ contentType: string; bytes: Uint8Array } | null> {
  const [row] = await db
    .select({ contentType: logo.contentType, bytes: logo.bytes })
    .from(branding)
    .innerJoin(logo, eq(logo.sha256, branding.logoHash))
    .where(eq(branding.id, 1))
  return row ?? null
}
