import { readFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FAILURE_CODES, type FailureCode, type PaymentStatus } from '../../db/schema.js'
import { interpretCardCheck } from '../../src/client/index.js'
import {
  ACTION_CODE_REASONS,
  declineReason,
  FAILURE_MESSAGES_EN,
  failureCodeOf,
  gatewayMessageOf,
  type NetworkAnswer,
  RESP_CODE_REASONS,
  storedFailureCode,
  webhookAnswer,
} from '../../src/domain/failure-reasons.js'
import { webhookPayload } from '../../src/simulator/card/finish.js'
import { checkJson } from '../../src/simulator/card/transaction.js'
import { TEST_CARDS } from '../../src/simulator/constants.js'
import type { CardOutcome, CardTransaction } from '../../src/simulator/state.js'
import { openTestDb, type TestDb } from '../data/helpers.js'

const ACCOUNT = 'GADTY4NG3MIEK6VP4QMU5A5Y5URFPDGB6YVWBFOK742GTHWTBA6XERS5'

/** A finished simulator transaction, as its check endpoint and webhook describe it. */
function simulated(outcome: CardOutcome) {
  const tx = {
    cibTransactionId: '4172711234',
    transactionId: 't-1',
    orderId: 'o-1',
    account: ACCOUNT,
    amount: 150000,
    language: 'fr',
    cardNumber: null,
    approvalCode: outcome === 'approved' ? '123456' : null,
    outcome,
  } as unknown as CardTransaction
  const check = interpretCardCheck(checkJson(tx), { amount: 150000, account: ACCOUNT })
  return { check, webhook: webhookAnswer(webhookPayload(tx, 'm', 's')) }
}

describe('failure reasons: the card network answers the documents list', () => {
  it.each<[string, NetworkAnswer, FailureCode]>([
    [
      'action code 116 (webhook document: insufficient funds)',
      { actionCode: 116 },
      'insufficient_funds',
    ],
    ['action code -2007 (session expired)', { actionCode: -2007 }, 'session_expired'],
    ['action code 10 (the customer cancelled)', { actionCode: 10 }, 'canceled_by_customer'],
    ['action code 101 (expired card)', { actionCode: 101 }, 'expired_card'],
    ['action code 100 (do not honour)', { actionCode: 100 }, 'declined'],
    ['action code 117 (wrong PIN)', { actionCode: 117 }, 'authentication_failed'],
    ['action code -2006 (3-D Secure refused)', { actionCode: -2006 }, 'authentication_failed'],
    ['action code 909 (system malfunction)', { actionCode: 909 }, 'gateway_error'],
    ['an unlisted action code', { actionCode: 123, respCode: '05' }, 'declined'],
    ['resp code 05 (declined)', { respCode: '05' }, 'declined'],
    ['resp code 51 without an action code', { respCode: '51' }, 'insufficient_funds'],
    ['resp code 54', { respCode: '54' }, 'expired_card'],
    ['resp code 55', { respCode: '55' }, 'authentication_failed'],
    ['resp code 96', { respCode: '96' }, 'gateway_error'],
    ['order status 6 (declined) alone', { orderStatus: 6 }, 'declined'],
    ['order status -1 (declined) alone', { orderStatus: -1 }, 'declined'],
    ['error code 2 alone', { errorCode: 2 }, 'declined'],
    ['error code 7 (system error)', { errorCode: 7, orderStatus: 6 }, 'gateway_error'],
    [
      'order status 3 (reversed) with approval codes',
      { orderStatus: 3, respCode: '00', actionCode: 0, errorCode: 0 },
      'unknown',
    ],
    ['order status 4 (refunded)', { orderStatus: 4 }, 'unknown'],
    ['nothing at all', {}, 'unknown'],
    [
      'the action code wins over the response code',
      { actionCode: 116, respCode: '05', orderStatus: 6 },
      'insufficient_funds',
    ],
  ])('%s', (_name, answer, expected) => {
    expect(declineReason(answer)).toBe(expected)
  })

  it.each<[PaymentStatus, FailureCode | null]>([
    ['initiated', null],
    ['pending', null],
    ['paid', null],
    ['error', 'gateway_error'],
    ['expired', 'session_expired'],
    ['canceled', 'canceled_by_customer'],
    ['failed', 'insufficient_funds'],
  ])('a payment %s carries %s', (status, expected) => {
    expect(failureCodeOf(status, { actionCode: 116, respCode: '05' })).toBe(expected)
  })

  it('a paid answer whose amount or account did not match is a gateway error', () => {
    const answer = { orderStatus: 2, errorCode: 0, respCode: '00', actionCode: 0 }
    expect(failureCodeOf('failed', answer, true)).toBe('gateway_error')
    expect(failureCodeOf('failed', answer, false)).toBe('unknown')
  })

  it('reads the webhook fields as numbers or strings', () => {
    const answer = webhookAnswer({
      order_status: '6',
      error_code: 2,
      action_code: '116',
      resp_code: ' 05 ',
    })
    expect(answer).toEqual({ orderStatus: 6, errorCode: 2, actionCode: 116, respCode: '05' })
    expect(webhookAnswer('not an object')).toEqual({
      orderStatus: null,
      errorCode: null,
      actionCode: null,
      respCode: null,
    })
  })

  it('every code has an English merchant message', () => {
    for (const code of FAILURE_CODES) expect(FAILURE_MESSAGES_EN[code]).toMatch(/\w/)
  })
})

describe('failure reasons: each simulator outcome, from its check answer and its webhook', () => {
  const expected: Record<Exclude<CardOutcome, 'approved'>, [PaymentStatus, FailureCode]> = {
    insufficient_funds: ['failed', 'insufficient_funds'],
    declined: ['failed', 'declined'],
    expired_card: ['failed', 'expired_card'],
    canceled: ['canceled', 'canceled_by_customer'],
    session_expired: ['expired', 'session_expired'],
  }
  it.each(Object.entries(expected))('%s', (outcome, [status, code]) => {
    const { check, webhook } = simulated(outcome as CardOutcome)
    expect(check.outcome).toBe(status)
    expect(failureCodeOf(status, check)).toBe(code)
    expect(declineReason(webhook)).toBe(code)
  })

  it('every declining test card has its reason', () => {
    const declining = TEST_CARDS.filter((card) => card.outcome !== 'approved')
    expect(declining.length).toBeGreaterThan(0)
    for (const card of declining) {
      const { check } = simulated(card.outcome as CardOutcome)
      expect(failureCodeOf(check.outcome as PaymentStatus, check)).toBe(card.outcome)
    }
  })

  it('an approved payment has none', () => {
    const { check } = simulated('approved')
    expect(check.outcome).toBe('paid')
    expect(failureCodeOf('paid', check)).toBeNull()
  })
})

describe("the gateway's message from a stored check answer", () => {
  it('is respCode_desc, else actionCodeDescription', () => {
    expect(gatewayMessageOf({ respCode_desc: 'Refusé', actionCodeDescription: 'Solde' })).toBe(
      'Refusé',
    )
    expect(gatewayMessageOf({ respCode_desc: '  ', actionCodeDescription: 'Solde' })).toBe('Solde')
    expect(gatewayMessageOf({ respCode_desc: 7 })).toBe('7')
    expect(gatewayMessageOf(null)).toBeNull()
    expect(gatewayMessageOf(['x'])).toBeNull()
  })

  it('loses controls and direction overrides and is cut to 200 characters', () => {
    const text = gatewayMessageOf({ respCode_desc: `a\u202eb\u0000c\n${'é'.repeat(300)}` })!
    expect(text.startsWith('a b c ')).toBe(true)
    expect([...text].length).toBe(200)
    expect(text.endsWith('…')).toBe(true)
  })
})

describe('migration 0010 backfills what the TypeScript mapping computes', () => {
  let db: TestDb
  beforeEach(() => {
    db = openTestDb()
  })
  afterEach(() => db.cleanup())

  function seedLink() {
    db.sqlite.exec(`INSERT INTO links (id, slug, title, amount, language, created_at, updated_at)
      VALUES ('lnk_1', 's1', 'T', 10000, 'fr', 1, 1)`)
  }

  // The backfill: the migration's first statement (the file is applied whole by the migrator).
  const SQL = readFileSync(
    new URL('../../db/migrations/0010_failure_code_backfill.sql', import.meta.url),
    'utf8',
  ).split('--> statement-breakpoint')[0]!

  type Row = {
    status: PaymentStatus
    respCode: string | null
    actionCode: string | null
    checkResponse: string | null
    errorReason: string | null
  }

  function rows(): Row[] {
    const out: Row[] = []
    const statuses: PaymentStatus[] = ['failed', 'canceled', 'expired', 'error', 'paid', 'pending']
    const actions = [
      null,
      '0',
      '-100',
      '123',
      '0116',
      ' 116',
      '-0',
      'abc',
      '12345678901234567890',
      ...Object.keys(ACTION_CODE_REASONS),
    ]
    const resps = [null, '', '00', '5', ...Object.keys(RESP_CODE_REASONS)]
    const checks = [
      null,
      'not json',
      '[6]',
      '{"orderStatus":6}',
      '{"orderStatus":"6"}',
      '{"orderStatus":-1,"errorCode":"2"}',
      '{"orderStatus":"06"}',
      '{"orderStatus":6.5}',
      '{"orderStatus":6.0}',
      '{"errorCode":7}',
      '{"errorCode":"7"}',
      '{"errorCode":2}',
      '{"orderStatus":3,"errorCode":0,"respCode":"00"}',
    ]
    const reasons = [
      null,
      'check amount does not match the payment',
      'check other does not match the payment',
    ]
    for (const status of statuses)
      for (const actionCode of actions)
        out.push({ status, actionCode, respCode: null, checkResponse: null, errorReason: null })
    for (const respCode of resps)
      for (const actionCode of [null, '0', '116', '999'])
        for (const checkResponse of checks)
          out.push({ status: 'failed', actionCode, respCode, checkResponse, errorReason: null })
    for (const errorReason of reasons)
      out.push({
        status: 'failed',
        actionCode: '0',
        respCode: '00',
        checkResponse: checks[12]!,
        errorReason,
      })
    return out
  }

  it('for every combination of stored codes', () => {
    seedLink()
    const all = rows()
    const insert = db.sqlite.prepare(
      `INSERT INTO payments (id, receipt_id, link_id, status, amount, customer_name, customer_phone,
        customer_email, language, resp_code, action_code, check_response, error_reason, created_at, updated_at)
       VALUES (?, ?, 'lnk_1', ?, 100, 'n', 'p', 'e', 'fr', ?, ?, ?, ?, 1, 1)`,
    )
    for (const [i, r] of all.entries())
      insert.run(
        `p${i}`,
        `r${i}`,
        r.status,
        r.respCode,
        r.actionCode,
        r.checkResponse,
        r.errorReason,
      )
    db.sqlite.exec(SQL)
    const stored = db.sqlite
      .prepare('SELECT id, failure_code FROM payments ORDER BY rowid')
      .all() as {
      id: string
      failure_code: string | null
    }[]
    const disagreements = all
      .map((r, i) => {
        let parsed: unknown = null
        try {
          parsed = r.checkResponse === null ? null : JSON.parse(r.checkResponse)
        } catch {}
        const ts = storedFailureCode({ ...r, checkResponse: parsed })
        return { row: r, sql: stored[i]!.failure_code, ts }
      })
      .filter((d) => d.sql !== d.ts)
    expect(disagreements).toEqual([])
    // The rows cover every reason the backfill can give.
    expect(new Set(stored.map((s) => s.failure_code))).toEqual(new Set([...FAILURE_CODES, null]))
  })

  it('leaves a failure_code already written alone', () => {
    seedLink()
    db.sqlite.exec(`INSERT INTO payments (id, receipt_id, link_id, status, amount, customer_name, customer_phone,
      customer_email, language, action_code, failure_code, created_at, updated_at)
      VALUES ('p1', 'r1', 'lnk_1', 'failed', 100, 'n', 'p', 'e', 'fr', '116', 'declined', 1, 1)`)
    db.sqlite.exec(SQL)
    expect(db.sqlite.prepare('SELECT failure_code FROM payments').get()).toEqual({
      failure_code: 'declined',
    })
  })
})
