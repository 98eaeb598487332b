/**
 * The two Workers `npm run deploy:worker` deploys, by their wrangler file: the production Worker
 * and its back office, which the production Worker reaches through its DASHBOARD binding.
 */
export const WORKERS = {
  production: 'wrangler.toml',
  dashboard: 'wrangler.dashboard.toml',
} as const

export type WorkerName = keyof typeof WORKERS
