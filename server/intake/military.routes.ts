import { Router } from 'express'
import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { adminOnly } from '../staff/require-staff.ts'
import { computeMilitaryFigures } from './intake.repository.ts'

/** GET /api/staff/military: the intakes' military figures, for admins; mounted in the staff router, behind requireStaff. */
export function militaryRoutes({ db }: { db: Kysely<Database> }): Router {
  const router = Router({ caseSensitive: true })
  router.get('/api/staff/military', adminOnly, async (_req, res) => {
    res.set('Cache-Control', 'private, no-store').json(await computeMilitaryFigures(db))
  })
  return router
}
