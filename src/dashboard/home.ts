/**
 * A role's home: the first page it may open, where signing in lands and where a refusal leads
 * back. Whether a role may open a page is read from the route policy (src/auth/policy.ts), the one
 * table access is decided by, so a home is never a page that is itself refused.
 */
import { requirementOf } from '../auth/policy.js'
import { type Role, roleAllows } from '../auth/roles.js'
import type { DashKey } from './messages.js'

/** A page a role can land on, and the words of a way back to it. */
export interface Landing {
  href: string
  label: DashKey
}

/**
 * The pages to land on, by preference: the overview for those who read everything, the till for
 * those who sell at the counter, today's payments, and one's own account, which every signed-in
 * person may open.
 */
const LANDINGS: readonly Landing[] = [
  { href: '/dashboard', label: 'backToOverview' },
  { href: '/dashboard/till', label: 'tillBackToTill' },
  { href: '/dashboard/payments', label: 'backToPayments' },
  { href: '/dashboard/account', label: 'backToAccount' },
]

/** Whether `role` may open the page at `path` (a GET the policy lists). */
export function mayOpen(role: Role, path: string): boolean {
  const requirement = requirementOf('GET', path)
  if (requirement === 'unlisted') return false
  return requirement === 'signed-in' || roleAllows(role, requirement)
}

/** The first page `role` may open. */
export function landingOf(role: Role): Landing {
  // The account page is open to every signed-in person: the list always ends on a page.
  return LANDINGS.find((landing) => mayOpen(role, landing.href)) ?? LANDINGS.at(-1)!
}

/** Where `role` lands after signing in. */
export function homeOf(role: Role): string {
  return landingOf(role).href
}
