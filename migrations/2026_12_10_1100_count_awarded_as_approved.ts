import type { Kysely } from 'kysely'
import { APPROVED, approvedByRoles, replaceClaimTriggers } from './2026_12_07_1630_count_funnel_by_roles.ts'

/**
 * An award moves a filed claim to its app's awarded status (src/review-config.ts REVIEW_ROLES): the
 * claim stays approved, so the funnel's claim triggers count the awarded role among the approved ones.
 * The server writes each app's awarded role into review_roles at start-up and recounts an app whose
 * roles changed (server/lifecycle/review-roles.ts), so no count is taken here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await replaceClaimTriggers(db, approvedByRoles(['readyToFile', 'filed', 'awarded']))
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await replaceClaimTriggers(db, APPROVED)
}
