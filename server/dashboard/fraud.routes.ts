import express, { Router } from 'express'
import type { Kysely } from 'kysely'
import { claimFraudStanding, type ClaimFraud, type FraudCluster } from '../../src/api/fraud.ts'
import { canDecideApp, canSeeApp } from '../../src/api/staff.ts'
import type { FormConfig } from '../../src/form-config.ts'
import type { FraudConfigs } from '../../src/fraud-config.ts'
import type { Reviews } from '../../src/review-config.ts'
import { actorOf } from '../audit/audit-log.ts'
import type { Database } from '../db/database.ts'
import { clearFraud } from '../review/clear-fraud.ts'
import { staffAccountOf } from '../staff/require-staff.ts'
import { visibleClaim } from './claim-id.ts'
import { readClaimFraud } from './claim-fraud.ts'
import { findFraudCluster } from './fraud-cluster.ts'

const NO_STORE = 'private, no-store'

/**
 * A claim's fraud score for its details (GET /api/staff/claims/:id/fraud), its cluster (GET
 * …/cluster: the claims sharing an identity key with it) and a decider's "Not fraud" (POST
 * …/not-fraud). Every claim named is one of an app the account may see. Mounted after requireStaff
 * and sameOriginOnly.
 */
export function fraudRoutes({
  db,
  forms,
  reviews,
  fraud,
  evidenceKey,
}: {
  db: Kysely<Database>
  forms: Map<string, FormConfig>
  reviews: Reviews
  fraud: FraudConfigs
  evidenceKey: Buffer
}): Router {
  const router = Router({ caseSensitive: true })
  const json = express.json({ limit: '16kb' })

  const claimFraud = (claim: { id: number; app: string }, account: ReturnType<typeof staffAccountOf>) =>
    readClaimFraud(db, {
      claimId: claim.id,
      config: fraud(claim.app),
      canSee: (app) => canSeeApp(account, app),
      mayDecide: canDecideApp(account, claim.app),
    })

  router.get('/api/staff/claims/:id/fraud', async (req, res) => {
    const claim = await visibleClaim(db, res, req.params.id)
    const answer = await claimFraud(claim, staffAccountOf(res))
    res.set('Cache-Control', NO_STORE).json(answer satisfies ClaimFraud)
  })

  router.post('/api/staff/claims/:id/not-fraud', json, async (req, res) => {
    const claim = await visibleClaim(db, res, req.params.id)
    const account = staffAccountOf(res)
    await clearFraud({
      db,
      evidenceKey,
      claim,
      body: req.body,
      reviewer: {
        ...actorOf(req, res),
        accountId: account.id,
        actor: account.email,
        mayDecide: (app) => canDecideApp(account, app),
      },
    })
    res.status(200).json((await claimFraud(claim, account)) satisfies ClaimFraud)
  })

  router.get('/api/staff/claims/:id/cluster', async (req, res) => {
    const claim = await visibleClaim(db, res, req.params.id)
    const account = staffAccountOf(res)
    const cluster = await findFraudCluster(db, claim.id)
    // a claim of an app the account may not see is not named, nor counted
    const members = cluster.members.filter((member) => canSeeApp(account, member.app))
    const rows = await db
      .selectFrom('claims')
      .select([
        'id',
        'app',
        'first_name',
        'last_name',
        'email',
        'phone_number',
        'fraud_score',
        'fraud_cleared_at',
        'review_status',
      ])
      .where(
        'id',
        'in',
        members.map((member) => member.id),
      )
      .execute()
    const byId = new Map(rows.map((row) => [Number(row.id), row]))
    const claims = members.flatMap(({ id, app, shared }) => {
      const row = byId.get(id)
      if (!row) return []
      const score = row.fraud_score === null ? null : Number(row.fraud_score)
      return [
        {
          id,
          app,
          appName: forms.get(app)?.displayName ?? app,
          firstName: row.first_name,
          lastName: row.last_name,
          email: row.email,
          phoneNumber: row.phone_number,
          score,
          standing: claimFraudStanding(fraud(app), {
            score,
            clearedAt: row.fraud_cleared_at === null ? null : Number(row.fraud_cleared_at),
          }),
          status: row.review_status,
          statusLabel: reviews(app).statuses[row.review_status]?.label ?? row.review_status,
          shared,
        },
      ]
    })
    res.set('Cache-Control', NO_STORE).json({
      claimId: claim.id,
      app: claim.app,
      keys: cluster.keys.map((kind) => ({
        kind,
        // this claim and those listed sharing it
        count: 1 + claims.filter((other) => other.shared.includes(kind)).length,
      })),
      claims,
      isCapped: cluster.isCapped,
    } satisfies FraudCluster)
  })

  return router
}
