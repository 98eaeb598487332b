/** Values shared by the bench's parent and its server process. */

export const BENCH_ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef'
/** The header a load generator sets to stand for distinct customers (see docs/benchmarks.md). */
export const CLIENT_HEADER = 'x-bench-client'

export type ServerMode = 'bare' | 'paylinks'

/** Webhook ingestion's goal: this share of the shortest correct ingestion measured beside it. */
export const WEBHOOK_GOAL = 0.9
