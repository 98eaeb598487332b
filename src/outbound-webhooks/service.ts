/**
 * Registering and changing endpoints, for the API and the dashboard alike: the target check and
 * the endpoint limit, answered as problems each caller words in its own language.
 */
import type { WebhookEndpoint } from '../../db/schema.js'
import type { Db } from '../data/db.js'
import {
  countEndpoints,
  createEndpoint,
  type EndpointValues,
  MAX_ENDPOINTS,
  updateEndpoint,
} from './endpoints.js'
import { type TargetPolicy, type TargetProblem, targetProblem } from './target-check.js'

export interface EndpointDeps {
  db: Db
  clock: () => number
  webhookTargets: TargetPolicy
}

export type EndpointResult =
  | { ok: true; endpoint: WebhookEndpoint }
  | { ok: false; kind: 'url'; problem: TargetProblem }
  | { ok: false; kind: 'limit' }
  | { ok: false; kind: 'not_found' }

/** Registers an endpoint whose URL passes the target check. */
export async function registerEndpoint(
  deps: EndpointDeps,
  values: EndpointValues,
): Promise<EndpointResult> {
  const problem = await targetProblem(values.url, deps.webhookTargets)
  if (problem) return { ok: false, kind: 'url', problem }
  if ((await countEndpoints(deps.db)) >= MAX_ENDPOINTS) return { ok: false, kind: 'limit' }
  return { ok: true, endpoint: await createEndpoint(deps.db, values, deps.clock()) }
}

/** Changes an endpoint; a new URL passes the target check first. */
export async function changeEndpoint(
  deps: EndpointDeps,
  id: string,
  changes: Partial<EndpointValues>,
): Promise<EndpointResult> {
  if (changes.url !== undefined) {
    const problem = await targetProblem(changes.url, deps.webhookTargets)
    if (problem) return { ok: false, kind: 'url', problem }
  }
  const endpoint = await updateEndpoint(deps.db, id, changes, deps.clock())
  return endpoint ? { ok: true, endpoint } : { ok: false, kind: 'not_found' }
}

/** Sorted, without repeats: the event types as stored. */
export function normalTypes<T extends string>(types: readonly T[]): T[] {
  return [...new Set(types)].sort()
}
