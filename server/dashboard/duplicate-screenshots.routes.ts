import { Router } from 'express'
import type { Kysely } from 'kysely'
import type { DuplicateCluster, DuplicateScreenshot, StaffClaim } from '../../src/api/staff.ts'
import type { FormConfig } from '../../src/form-config.ts'
import type { Database } from '../db/database.ts'
import { CLAIM_LIST_COLUMNS } from './claim-list.ts'
import { toStaffClaimRow } from './claim-row.ts'
import { findDuplicateIds } from './flagged-claims.ts'
import { canSeeApp, visibleApps } from '../../src/api/staff.ts'
import { assertCanSee, staffAccountOf } from '../staff/require-staff.ts'
import { actorOf, type RecordAudit } from '../audit/audit-log.ts'
import { findMatchesOf } from '../duplicates/screenshot-matches.repository.ts'
import { findDuplicateCluster } from '../duplicates/duplicate-cluster.ts'
import { claimIdParam, visibleClaim } from './claim-id.ts'
import { claimNotFound } from '../lifecycle/move-claim.ts'
import type { FraudConfigs } from '../../src/fraud-config.ts'

const NO_STORE = 'private, no-store'

/**
 * One claim by its id (GET /api/staff/claims/:id), which the dashboard's details panel and a flagged
 * claim's links open, each view written to the audit log; and the claims a flagged one matches
 * (GET /api/staff/claims/:id/duplicates), surest first, and the claims connected to it by flags
 * (GET /api/staff/claims/:id/duplicate-cluster). Mounted after requireStaff.
 */
export function duplicateScreenshotRoutes({
  db,
  forms,
  audit,
  fraud,
}: {
  db: Kysely<Database>
  forms: Map<string, FormConfig>
  audit: RecordAudit
  fraud: FraudConfigs
}): Router {
  const router = Router({ caseSensitive: true })

  router.get('/api/staff/claims/:id', async (req, res) => {
    const id = claimIdParam(req.params.id)
    const row = await db
      .selectFrom('claims')
      .select([...CLAIM_LIST_COLUMNS, 'claims.app'])
      .where('claims.id', '=', id)
      .executeTakeFirst()
    if (!row) throw claimNotFound(req.params.id)
    assertCanSee(res, row.app)
    const duplicates = await findDuplicateIds(db, {
      claimIds: [id],
      apps: visibleApps(staffAccountOf(res)),
    })
    // nothing is shown unless the view is on record
    await audit({ ...actorOf(req, res), app: row.app, action: 'claim_view', detail: `claim ${id}` })
    const { app, ...submission } = row
    res.set('Cache-Control', NO_STORE).json({
      ...toStaffClaimRow({ ...submission, duplicate_of: duplicates.get(id) ?? [] }, fraud(app)),
      app,
    } satisfies StaffClaim)
  })

  router.get('/api/staff/claims/:id/duplicates', async (req, res) => {
    const { id } = await visibleClaim(db, res, req.params.id)
    const account = staffAccountOf(res)
    // a match in an app this account may not see is not listed: its link would only answer 403
    const matches = ((await findMatchesOf(db, [id])).get(id) ?? []).filter((match) =>
      canSeeApp(account, match.app),
    )
    res.set('Cache-Control', NO_STORE).json(
      matches.map(({ id: other, app, kind, distance }): DuplicateScreenshot => ({
        id: other,
        app,
        appName: forms.get(app)?.displayName ?? app,
        kind,
        distance,
      })),
    )
  })

  router.get('/api/staff/claims/:id/duplicate-cluster', async (req, res) => {
    const { id } = await visibleClaim(db, res, req.params.id)
    const account = staffAccountOf(res)
    const cluster = await findDuplicateCluster(db, id)
    // a claim the account may not see is not named; deciding the cluster is refused while it holds one
    const visible = cluster.claims.filter((claim) => canSeeApp(account, claim.app))
    res.set('Cache-Control', NO_STORE).json({
      claimIds: visible.map((claim) => claim.id),
      isWhole: visible.length === cluster.claims.length && !cluster.isTooLarge,
    } satisfies DuplicateCluster)
  })

  return router
}
