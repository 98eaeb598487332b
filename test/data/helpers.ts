/** Shared set-up for the data tests: a real SQLite file in a fresh temp folder, and sample links. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Link } from '../../db/schema.js'
import type { PaymentRequest } from '../../src/data/payment-reserve.js'
import { openSqlite, type SqliteHandle } from '../../src/runtime/node/database.js'

export { T0 } from '../support/manual-time.js'

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
