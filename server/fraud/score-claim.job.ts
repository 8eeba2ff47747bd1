import type { Kysely } from 'kysely'
import type { FraudConfigs } from '../../src/fraud-config.ts'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import type { RowJobHandler } from '../jobs/job-handler.ts'
import type { Logger } from '../logger.ts'
import type { ScreenshotStorage } from '../uploads/screenshot-storage.ts'
import { fileKeys, loadScoredClaim, neighboursOf, saveScore, wakeRelated } from './fraud-repository.ts'
import { scoreClaim } from './fraud-tests.ts'
import { screenshotFacts } from './screenshot-facts.ts'

export const SCORE_CLAIM = 'score-claim'

/**
 * A claim's fraud score, after the claim is stored (a trigger queues it in the claim's transaction):
 * its keys filed, its neighbours read, the tests of its app's fraud.json run, the score and reasons
 * written in one transaction. A claim scored for the first time makes the claims it is related to by
 * device, e-mail, phone or address due again, so a ring's earlier claims see it grow; the duplicate
 * check, a company's list and a decision make a claim due again too (wakeScores).
 */
export function scoreClaimJob({
  db,
  storage,
  fraud,
  logger,
  pollMs = 10_000,
}: {
  db: Kysely<Database>
  storage: Pick<ScreenshotStorage, 'read'>
  fraud: FraudConfigs
  logger: Logger
  pollMs?: number
}): RowJobHandler<'fraud_scores'> {
  return {
    kind: SCORE_CLAIM,
    table: 'fraud_scores',
    pollMs,
    batch: 100,
    // claims come first: a score can wait for a quiet moment
    waitsForQuiet: true,
    async run({ row, now, end }) {
      const claimId = Number(row.claim_id)
      const claim = await loadScoredClaim(db, claimId)
      if (!claim) return 'ended' // purged meanwhile: its row went with it
      const screenshot = await storage
        .read(claim.screenshotKey)
        .then(screenshotFacts)
        .catch((error: unknown) => {
          logger.warn(
            { claimId, err: (error as { code?: string }).code },
            'screenshot not read for the fraud score',
          )
          return undefined
        })
      const neighbours = await neighboursOf(db, claim)
      const { score, reasons } = scoreClaim(fraud(claim.app), { ...claim, screenshot }, neighbours)
      const firstScore = row.scored_at === null
      await retryWhileLocked(() =>
        db.transaction().execute(async (trx) => {
          if (!(await end(trx))) return // another process took it over
          await fileKeys(trx, claim)
          await saveScore(trx, { claimId, score, reasons, now })
          if (firstScore) {
            const related = neighbours.filter((n) => n.kind !== 'network').map((n) => n.claimId)
            await wakeRelated(trx, { related, now })
          }
        }),
      )
      return 'ended'
    },
  }
}
