/**
 * Fault injection: per endpoint (latency, a 5xx, a hang, malformed JSON) and for webhooks
 * (duplicated, out of order, late, never sent). A fault with `times` applies that many times and
 * then switches itself off.
 */
import * as z from 'zod'

const times = z.number().int().positive().optional()

export const endpointFaultSchema = z.strictObject({
  latencyMs: z.number().int().min(0).max(120_000).optional(),
  status5xx: z.number().int().min(500).max(599).optional(),
  hang: z.boolean().optional(),
  malformedJson: z.boolean().optional(),
  times,
})

export const webhookFaultSchema = z.strictObject({
  duplicate: z.boolean().optional(),
  /** true holds deliveries back in batches of 2; a number sets the batch size. */
  outOfOrder: z.union([z.boolean(), z.number().int().min(2).max(100)]).optional(),
  lateMs: z.number().int().min(0).max(86_400_000).optional(),
  never: z.boolean().optional(),
  times,
})

export const faultSettingsSchema = z.strictObject({
  endpoints: z.record(z.string().min(1), endpointFaultSchema.nullable()).optional(),
  webhooks: webhookFaultSchema.nullable().optional(),
})

export type EndpointFault = z.infer<typeof endpointFaultSchema>
export type WebhookFault = z.infer<typeof webhookFaultSchema>
/** What `faults.set()` and `POST /_faults` take; `null` switches a fault off. */
export type FaultSettings = z.infer<typeof faultSettingsSchema>

/** The fault registry of one simulator instance. */
export interface Faults {
  /** Merges settings in: each key given replaces that fault, `null` removes it. Throws on bad input. */
  set(settings: FaultSettings): void
  /** Switches every fault off. */
  clear(): void
  /** The faults now on. */
  get(): { endpoints: Record<string, EndpointFault>; webhooks: WebhookFault | null }
  /** The fault for an endpoint key (exact key, then `v1/*` for `/v1` keys, then `*`), counting one use. */
  takeEndpoint(key: string): EndpointFault | null
  /** The webhook fault, counting one use. */
  takeWebhook(): WebhookFault | null
}

/** Creates an empty fault registry. */
export function createFaults(): Faults {
  const endpoints = new Map<string, EndpointFault>()
  let webhooks: WebhookFault | null = null

  const use = <T extends { times?: number | undefined }>(fault: T, remove: () => void): T => {
    if (fault.times !== undefined) {
      if (fault.times <= 1) remove()
      else fault.times -= 1
    }
    return { ...fault }
  }

  return {
    set(settings) {
      const parsed = faultSettingsSchema.parse(settings)
      for (const [key, fault] of Object.entries(parsed.endpoints ?? {})) {
        if (fault === null) endpoints.delete(key)
        else endpoints.set(key, { ...fault })
      }
      if (parsed.webhooks !== undefined) webhooks = parsed.webhooks && { ...parsed.webhooks }
    },
    clear() {
      endpoints.clear()
      webhooks = null
    },
    get() {
      return {
        endpoints: Object.fromEntries([...endpoints].map(([k, v]) => [k, { ...v }])),
        webhooks: webhooks && { ...webhooks },
      }
    },
    takeEndpoint(key) {
      const candidates = key.startsWith('v1/') ? [key, 'v1/*', '*'] : [key, '*']
      for (const candidate of candidates) {
        const fault = endpoints.get(candidate)
        if (fault) return use(fault, () => endpoints.delete(candidate))
      }
      return null
    },
    takeWebhook() {
      if (!webhooks) return null
      return use(webhooks, () => {
        webhooks = null
      })
    },
  }
}
