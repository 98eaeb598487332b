/**
 * Word that a payment changed state, inside one process: the confirmation tells it after its
 * conditional write took effect, and whoever watches a payment (the till's live stream) reads the
 * payment again at once instead of waiting for its next periodic read. It carries no state of
 * its own, so a missed word costs only that wait. On Node one process holds every request; a
 * Worker's isolates share nothing, so there the till polls instead (docs/decisions/till.md).
 */

import type { PaymentChanges } from '../deps.js'

/** A bus for one process. */
export function createPaymentChanges(): PaymentChanges {
  const listeners = new Map<string, Set<() => void>>()
  const closing = new Set<() => void>()
  return {
    onClose(listener) {
      closing.add(listener)
      return () => closing.delete(listener)
    },
    close() {
      for (const listener of [...closing]) {
        closing.delete(listener)
        try {
          listener()
        } catch {
          // Stopping goes on.
        }
      }
    },
    emit(linkId) {
      for (const listener of listeners.get(linkId) ?? []) {
        try {
          listener()
        } catch {
          // A watcher's failure is its own; the confirmation that told it goes on.
        }
      }
    },
    watch(linkId, listener) {
      let set = listeners.get(linkId)
      if (!set) {
        set = new Set()
        listeners.set(linkId, set)
      }
      set.add(listener)
      return () => {
        set.delete(listener)
        if (set.size === 0 && listeners.get(linkId) === set) listeners.delete(linkId)
      }
    },
  }
}
