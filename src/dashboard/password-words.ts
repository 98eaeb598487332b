/** What each new-password rule's refusal says (src/security/passwords.ts names the rules). */
import type { PasswordProblem } from '../security/passwords.js'
import type { DashKey } from './messages.js'

export const PASSWORD_PROBLEM_KEYS: Record<PasswordProblem, DashKey> = {
  too_short: 'pwTooShort',
  too_long: 'pwTooLong',
  common: 'pwCommon',
}
