import type { Kysely } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import { MAX_REVIEW_NOTE_LENGTH, type ReviewConfig } from '../../src/review-config.ts'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { writeAuditEntry } from '../audit/audit-log.ts'
import { findDuplicateCluster, MAX_CLUSTER_CLAIMS } from '../duplicates/duplicate-cluster.ts'
import { moveClaim, type MovedClaim, type Reviewer } from '../lifecycle/move-claim.ts'

export const DUPLICATE_DECISIONS = ['duplicate', 'not_duplicate'] as const

/**
 * A reviewer's decision on a flagged claim and one of the claims it was flagged with, or ("not_duplicate"
 * only) on every pair of its cluster: the claims connected to it by flags.
 */
export interface DuplicateDecision {
  decision: (typeof DUPLICATE_DECISIONS)[number]
  /** The other claim of the flagged pair; undefined for a cluster. */
  other?: number | undefined
  isCluster?: boolean | undefined
  /** The claim's review version the reviewer saw ("duplicate" moves the claim). */
  version: number
  note?: string | undefined
}

export function parseDuplicateDecision(body: unknown): DuplicateDecision {
  const { decision, other, cluster, version, note } = (body ?? {}) as Record<string, unknown>
  if (typeof decision !== 'string' || !(DUPLICATE_DECISIONS as readonly string[]).includes(decision)) {
    throw badRequest(`"decision" must be one of ${DUPLICATE_DECISIONS.join(', ')}`)
  }
  if (cluster !== undefined && typeof cluster !== 'boolean')
    throw badRequest('"cluster" must be true or false')
  if (cluster === true && decision !== 'not_duplicate') {
    throw badRequest('a whole cluster can only be decided "not_duplicate": name the claim it duplicates')
  }
  if (cluster === true && other !== undefined) throw badRequest('"other" is for a pair, not a cluster')
  if (cluster !== true && (!Number.isSafeInteger(other) || (other as number) < 1)) {
    throw badRequest('"other" must be the id of the claim it was flagged with')
  }
  if (!Number.isSafeInteger(version) || (version as number) < 0) {
    throw badRequest('"version" must be the claim\'s review version, a whole number')
  }
  if (note !== undefined && typeof note !== 'string') throw badRequest('"note" must be text')
  if (typeof note === 'string' && note.length > MAX_REVIEW_NOTE_LENGTH) {
    throw badRequest('the note is over 2,000 characters')
  }
  return {
    decision: decision as DuplicateDecision['decision'],
    other: cluster === true ? undefined : (other as number),
    isCluster: cluster === true,
    version: version as number,
    note: typeof note === 'string' && note.trim() !== '' ? note.trim() : undefined,
  }
}

/**
 * Decides whether a flagged claim is a copy of the claim it was flagged with. Both decisions need the
 * decide right on both claims' apps: they settle whether the claims go on.
 * - "duplicate" is the move the review config names (by default to rejected, reason duplicate), made
 *   and checked as any other move, its note naming the other claim.
 * - "not_duplicate" takes the pair out of screenshot_matches into duplicate_decisions (both ways), so
 *   neither claim is flagged for it again, with an audit entry sealed in the ledger, in one transaction.
 * - "not_duplicate" for the cluster does so for every flagged pair among the claims connected to it by
 *   flags, with one audit entry naming them, and needs the decide right on every one's app.
 * The caller has checked that the reviewer may see the claim; the other claim must be one it is still
 * flagged with, in an app the reviewer may decide (one 404 otherwise, see notYoursToDecide).
 */
export async function decideDuplicate({
  db,
  evidenceKey,
  review,
  claim,
  decision,
  reviewer,
}: {
  db: Kysely<Database>
  evidenceKey: Buffer
  review: ReviewConfig
  claim: { id: number; app: string }
  decision: DuplicateDecision
  reviewer: Reviewer
}): Promise<MovedClaim & { flagged: boolean }> {
  if (!reviewer.mayDecide(claim.app)) {
    throw new AppError('FORBIDDEN', {
      status: 403,
      message: "deciding whether a claim is a duplicate needs the app's decide right, which an admin grants",
    })
  }
  const claimIds = decision.isCluster
    ? await decidableCluster(db, claim.id, reviewer)
    : [claim.id, await decidablePair(db, claim.id, decision.other!, reviewer)]

  if (decision.decision === 'duplicate') {
    if (!review.duplicate) {
      throw new AppError('CONFLICT', {
        status: 409,
        message: 'the review config names no move for a duplicate: move the claim with a reason instead',
      })
    }
    const moved = await moveClaim({
      db,
      evidenceKey,
      review,
      claimId: claim.id,
      move: {
        to: review.duplicate.status,
        reason: review.duplicate.reason,
        note: [`Duplicate of claim ${decision.other}.`, decision.note].filter(Boolean).join(' '),
        version: decision.version,
      },
      reviewer,
    })
    return { ...moved, flagged: true }
  }

  return retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      const current = await trx
        .selectFrom('claims')
        .select(['review_status', 'review_version'])
        .where('id', '=', claim.id)
        .executeTakeFirstOrThrow()
      const rows = await trx
        .deleteFrom('screenshot_matches')
        .where('claim_id', 'in', claimIds)
        .where('other_claim_id', 'in', claimIds)
        .returning(['claim_id', 'other_claim_id', 'kind', 'distance'])
        .execute()
      // another reviewer decided the pair meanwhile
      if (rows.length === 0) throw notYoursToDecide()
      const auditId = await writeAuditEntry(trx, evidenceKey, {
        clientAddress: reviewer.clientAddress,
        accountId: reviewer.accountId,
        actor: reviewer.actor,
        app: claim.app,
        action: 'duplicate_cleared',
        detail: decision.isCluster
          ? `claim ${claim.id}: its cluster, claims ${claimIds.join(', ')}, not duplicates of each other (${rows.length / 2} pairs)`
          : `claim ${claim.id}: not a duplicate of claim ${decision.other}`,
      })
      const decidedAt = Date.now()
      await trx
        .insertInto('duplicate_decisions')
        .values(
          rows.map((row) => ({
            claim_id: row.claim_id,
            other_claim_id: row.other_claim_id,
            kind: row.kind,
            distance: row.distance,
            decided_at: decidedAt,
            account_id: reviewer.accountId,
            actor: reviewer.actor,
            audit_id: auditId,
          })),
        )
        .execute()
      const still = await trx
        .selectFrom('screenshot_matches')
        .select('other_claim_id')
        .where('claim_id', '=', claim.id)
        .limit(1)
        .executeTakeFirst()
      return {
        status: current.review_status,
        version: Number(current.review_version),
        flagged: still !== undefined,
      }
    }),
  )
}

/** The other claim's id, when the claim is still flagged with it and the reviewer may decide its app. */
async function decidablePair(
  db: Kysely<Database>,
  claimId: number,
  other: number,
  reviewer: Reviewer,
): Promise<number> {
  const pair = await db
    .selectFrom('screenshot_matches')
    .innerJoin('claims', 'claims.id', 'screenshot_matches.other_claim_id')
    .select('claims.app')
    .where('screenshot_matches.claim_id', '=', claimId)
    .where('screenshot_matches.other_claim_id', '=', other)
    .executeTakeFirst()
  // Fails closed: a decision settles both claims, so it needs the decide right on the other claim's app
  // too, and a missing, decided or out-of-reach pair all get one answer so the reviewer learns nothing
  // of another app's claims.
  if (!pair || !reviewer.mayDecide(pair.app)) throw notYoursToDecide()
  return other
}

/** The ids of the claim's cluster, when it is flagged and the reviewer may decide every one's app. */
async function decidableCluster(
  db: Kysely<Database>,
  claimId: number,
  reviewer: Reviewer,
): Promise<number[]> {
  const { claims, isTooLarge } = await findDuplicateCluster(db, claimId)
  if (isTooLarge) {
    throw new AppError('CONFLICT', {
      status: 409,
      message: `the cluster has more than ${MAX_CLUSTER_CLAIMS} claims: decide its pairs one by one`,
    })
  }
  // fails closed, with the pair's one answer: one claim out of reach keeps the whole cluster undecided
  if (claims.length < 2 || !claims.every((other) => reviewer.mayDecide(other.app))) throw notYoursToDecide()
  return claims.map((other) => other.id)
}

/**
 * The one refusal for a pair the reviewer may not decide, whatever the reason: it names neither the other
 * claim nor anyone who decided it, and its status is the same whether that claim exists or not.
 */
function notYoursToDecide(): AppError {
  return new AppError('NOT_FOUND', {
    status: 404,
    message:
      "this pair is not flagged for you to decide: it may be decided already, or it needs a reviewer with the decide right on both claims' apps",
  })
}

function badRequest(message: string): AppError {
  return new AppError('BAD_REQUEST', { status: 400, message })
}
