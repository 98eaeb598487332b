/** Shared set-up for the data tests: a real SQLite file in a fresh temp folder, and sample links. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Link } from '../../db/schema.js'
import { createLink } from '../../src/data/links.js'
import type { PaymentRequest } from '../../src/data/payment-reserve.js'
import type { LinkValues } from '../../src/domain/link-rules.js'
import { openSqlite, type SqliteHandle } from '../../src/node/sqlite.js'

export const T0 = Date.UTC(2026, 0, 15, 10, 0, 0)

export type TestDb = SqliteHandle & { path: string; cleanup: () => void }

/** Opens a migrated database file in a new temp folder; `cleanup` closes and removes it. */
export function openTestDb(): TestDb {
  const dir = mkdtempSync(join(tmpdir(), 'paylinks-data-'))
  const path = join(dir, 'nested', 'paylinks.db')
  const handle = openSqlite(path)
  return {
    ...handle,
    path,
    cleanup: () => {
      handle.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** A fixed-amount link's values (1500 DZD), with overrides. */
export function linkValues(overrides: Partial<LinkValues> = {}): LinkValues {
  return {
    title: 'Consultation',
    description: null,
    amount: 150000,
    amountMin: null,
    amountMax: null,
    invoiceId: null,
    invoiceItems: null,
    maxPayments: null,
    expiresAt: null,
    language: 'fr',
    memo: null,
    successMessage: null,
    successUrl: null,
    active: true,
    inactiveMessage: null,
    ...overrides,
  }
}

/** Creates a link in the database. */
export function makeLink(db: TestDb['db'], overrides: Partial<LinkValues> = {}, now = T0) {
  return createLink(db, linkValues(overrides), now)
}

/** A checkout request for a link. */
export function paymentRequest(
  link: Link,
  overrides: Partial<PaymentRequest> = {},
): PaymentRequest {
  return {
    linkId: link.id,
    amount: link.amount ?? 10000,
    customerName: 'Amina Benali',
    customerPhone: '0550123456',
    customerEmail: 'amina@example.dz',
    language: link.language,
    ...overrides,
  }
}
