import { Router } from 'express'
import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { adminOnly } from '../staff/require-staff.ts'
import { computeMilitaryFigures } from './intake.repository.ts'
import { isoTimestamp } from '../db/timestamp.ts'
import { MILITARY_LIST_LIMIT, type MilitaryClaimants } from '../../src/api/staff.ts'

/** GET /api/staff/military: the intakes' military figures, and …/claimants the newest of them, for admins; mounted in the staff router, behind requireStaff. */
export function militaryRoutes({ db }: { db: Kysely<Database> }): Router {
  const router = Router({ caseSensitive: true })
  router.get('/api/staff/military', adminOnly, async (_req, res) => {
    res.set('Cache-Control', 'private, no-store').json(await computeMilitaryFigures(db))
  })
  // beside the figures, who they are: an MLA-covered claim is reviewed apart
  router.get('/api/staff/military/claimants', adminOnly, async (_req, res) => {
    const rows = await db
      .selectFrom('form_submissions')
      .select(['id', 'first_name', 'last_name', 'email', 'phone', 'state', 'created_at'])
      .where('is_active_military', '=', 1)
      .orderBy('id', 'desc')
      .limit(MILITARY_LIST_LIMIT)
      .execute()
    const { activeMilitary } = await computeMilitaryFigures(db)
    res.set('Cache-Control', 'private, no-store').json({
      claimants: rows.map((row) => ({
        id: Number(row.id),
        name: `${row.first_name} ${row.last_name}`,
        email: row.email,
        phone: row.phone,
        state: row.state,
        createdAt: isoTimestamp(row.created_at),
      })),
      total: activeMilitary,
    } satisfies MilitaryClaimants)
  })
  return router
}
