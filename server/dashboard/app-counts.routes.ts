import { Router } from 'express'
import type { Kysely } from 'kysely'
import type { AppCount, AppCounts } from '../../src/api/staff-home.ts'
import { canSeeApp } from '../../src/api/staff.ts'
import type { FormConfig } from '../../src/form-config.ts'
import type { ReviewConfig, Reviews } from '../../src/review-config.ts'
import type { Database } from '../db/database.ts'
import { staffAccountOf } from '../staff/require-staff.ts'
import { appStatusCounts } from './status-counts.ts'

type Role = 'toReview' | 'deficient' | 'readyToFile'

/**
 * Which count a status adds to, by the roles its config declares (what the claimant's page says of it):
 * "attention" is deficient, "approved" ready to file, and a status that neither decides nor ends a claim
 * and tells the claimant "received" waits for a reviewer. Any other status counts nowhere.
 */
function roleOf(config: ReviewConfig, status: string): Role | undefined {
  const declared = config.statuses[status]
  if (!declared) return undefined
  if (declared.claimant === 'attention') return 'deficient'
  if (declared.claimant === 'approved') return 'readyToFile'
  if ((declared.claimant ?? 'received') === 'received' && !declared.decision && !declared.final) {
    return 'toReview'
  }
  return undefined
}

/**
 * The staff home's counts a dashboard: GET /api/staff/app-counts, for the apps the account may see, read
 * from the counters kept per app (claim_app_totals) and status (claim_app_statuses), never a scan.
 */
export function appCountsRoutes({
  db,
  forms,
  reviews,
}: {
  db: Kysely<Database>
  forms: Map<string, FormConfig>
  reviews: Reviews
}): Router {
  const router = Router({ caseSensitive: true })
  router.get('/api/staff/app-counts', async (_req, res) => {
    const account = staffAccountOf(res)
    const visible = [...forms.values()].filter((form) => canSeeApp(account, form.slug))
    const totals = await db.selectFrom('claim_app_totals').select(['app', 'claims']).execute()
    const totalOf = new Map(totals.map((row) => [row.app, Number(row.claims)]))
    const apps = await Promise.all(
      visible.map(async (form): Promise<AppCount> => {
        const count = { slug: form.slug, name: form.displayName, toReview: 0, deficient: 0, readyToFile: 0 }
        const review = reviews(form.slug)
        const statuses = await appStatusCounts(db, { app: form.slug, total: totalOf.get(form.slug) ?? 0 })
        for (const [status, claims] of statuses) {
          const role = roleOf(review, status)
          if (role) count[role] += claims
        }
        return count
      }),
    )
    res.set('Cache-Control', 'private, no-store').json({ apps } satisfies AppCounts)
  })
  return router
}
