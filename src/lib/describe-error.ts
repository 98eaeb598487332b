/** How an error is named in a log line or a stored reason. */
import { stripUrlQueries } from './redact.js'

/**
 * A short description of an error for a log line or `payments.error_reason`. Any URL in it loses
 * its query, which may carry a customer's name, phone or e-mail: the gateway client's own errors
 * never quote one, and this keeps any other error (a runtime's, a library's) to the same rule.
 */
export function describe(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  return stripUrlQueries(text).slice(0, 300)
}
