import type { Kysely } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import { MAX_REVIEW_NOTE_LENGTH, type ReviewConfig } from '../../src/review-config.ts'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { writeAuditEntry } from '../staff/audit-log.ts'
import { moveClaim, type MovedClaim, type Reviewer } from './move-claim.ts'

export const DUPLICATE_DECISIONS = ['duplicate', 'not_duplicate'] as const

/** A reviewer's decision on a flagged claim and one of the claims it was flagged with. */
export interface DuplicateDecision {
  decision: (typeof DUPLICATE_DECISIONS)[number]
  /** The other claim of the flagged pair. */
  other: number
  /** The claim's review version the reviewer saw ("duplicate" moves the claim). */
  version: number
  note?: string | undefined
}

export function parseDuplicateDecision(body: unknown): DuplicateDecision {
  const { decision, other, version, note } = (body ?? {}) as Record<string, unknown>
  if (typeof decision !== 'string' || !(DUPLICATE_DECISIONS as readonly string[]).includes(decision)) {
    throw badRequest(`"decision" must be one of ${DUPLICATE_DECISIONS.join(', ')}`)
  }
  if (!Number.isSafeInteger(other) || (other as number) < 1) {
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
    other: other as number,
    version: version as number,
    note: typeof note === 'string' && note.trim() !== '' ? note.trim() : undefined,
  }
}

/**
 * Decides whether a flagged claim is a copy of the claim it was flagged with. Both decisions need the
 * app's decide right: they settle whether the claim goes on.
 * - "duplicate" is the move the review config names (by default to rejected, reason duplicate), made
 *   and checked as any other move, its note naming the other claim.
 * - "not_duplicate" takes the pair out of screenshot_matches into duplicate_decisions (both ways), so
 *   neither claim is flagged for it again, with an audit entry sealed in the ledger, in one transaction.
 * The caller has checked that the reviewer may see the claim; the other claim must be one it was
 * flagged with (404 otherwise, 409 once the pair was decided).
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
  const pair = await db
    .selectFrom('screenshot_matches')
    .select('kind')
    .where('claim_id', '=', claim.id)
    .where('other_claim_id', '=', decision.other)
    .executeTakeFirst()
  if (!pair) await refuseUnflagged(db, claim.id, decision.other)

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
        .where((eb) =>
          eb.or([
            eb.and([eb('claim_id', '=', claim.id), eb('other_claim_id', '=', decision.other)]),
            eb.and([eb('claim_id', '=', decision.other), eb('other_claim_id', '=', claim.id)]),
          ]),
        )
        .returning(['claim_id', 'other_claim_id', 'kind', 'distance'])
        .execute()
      // another reviewer decided the pair meanwhile
      if (rows.length === 0) await refuseUnflagged(trx, claim.id, decision.other)
      const auditId = await writeAuditEntry(trx, evidenceKey, {
        clientAddress: reviewer.clientAddress,
        accountId: reviewer.accountId,
        actor: reviewer.actor,
        app: claim.app,
        action: 'duplicate_cleared',
        detail: `claim ${claim.id}: not a duplicate of claim ${decision.other}`,
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

/** The other claim is not (or no longer) flagged with this one: 409 if the pair was decided, else 404. */
async function refuseUnflagged(db: Kysely<Database>, claimId: number, other: number): Promise<never> {
  const decided = await db
    .selectFrom('duplicate_decisions')
    .select(['actor', 'decided_at'])
    .where('claim_id', '=', claimId)
    .where('other_claim_id', '=', other)
    .executeTakeFirst()
  if (decided) {
    throw new AppError('CONFLICT', {
      status: 409,
      message: `claim ${claimId} was already decided not a duplicate of claim ${other}, by ${decided.actor}`,
    })
  }
  throw new AppError('NOT_FOUND', {
    status: 404,
    message: `claim ${claimId} is not flagged as a copy of claim ${other}`,
  })
}

function badRequest(message: string): AppError {
  return new AppError('BAD_REQUEST', { status: 400, message })
}
