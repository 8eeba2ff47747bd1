import type { Kysely } from 'kysely'
import { MAX_FRAUD_NOTE_LENGTH } from '../../src/api/fraud.ts'
import { AppError } from '../../src/app-error.ts'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { writeAuditEntry } from '../audit/audit-log.ts'
import type { Reviewer } from '../lifecycle/move-claim.ts'
import { fraudCodesOf } from '../fraud/fraud-summary.ts'
import { FRAUD_CLEARED, fraudClearedDetail } from '../fraud/fraud-clearance.ts'

/** The note of a "Not fraud" decision, checked: required, at most MAX_FRAUD_NOTE_LENGTH characters. */
function parseNotFraud(body: unknown): { note: string } {
  const { note } = (body ?? {}) as Record<string, unknown>
  if (note !== undefined && typeof note !== 'string') throw badRequest('"note" must be text')
  const text = typeof note === 'string' ? note.trim() : ''
  if (text === '') {
    throw badRequest('a note is required: say why the claim is not fraud (what you checked)')
  }
  if (text.length > MAX_FRAUD_NOTE_LENGTH) {
    throw badRequest(`the note is over ${MAX_FRAUD_NOTE_LENGTH} characters (it has ${text.length})`)
  }
  return { note: text }
}

/**
 * A decider's "Not fraud" on one claim: clears its hold (claims.fraud_cleared_at), keeps who decided,
 * their note and the score they saw (fraud_scores), and writes an audit entry sealed in the ledger that
 * names the claim, the score and the reasons' codes decided on, in one transaction. Needs the app's
 * decide right (403), then a note (400: the body's `note`); refuses a claim not scored yet or cleared
 * already (409). The caller has checked that the reviewer may see the claim.
 */
export async function clearFraud({
  db,
  evidenceKey,
  claim,
  body,
  reviewer,
}: {
  db: Kysely<Database>
  evidenceKey: Buffer
  claim: { id: number; app: string }
  /** The request's body: { note } (NotFraudRequest). */
  body: unknown
  reviewer: Pick<Reviewer, 'clientAddress' | 'accountId' | 'actor' | 'mayDecide'>
}): Promise<void> {
  // fail-closed: only an account granted the app's decide right clears a hold
  if (!reviewer.mayDecide(claim.app)) {
    throw new AppError('FORBIDDEN', {
      status: 403,
      message: `deciding a claim is not fraud needs the app's decide right, which an admin grants`,
    })
  }
  const { note } = parseNotFraud(body)
  await retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('claims')
        .innerJoin('fraud_scores', 'fraud_scores.claim_id', 'claims.id')
        .select(['claims.fraud_score', 'claims.fraud_cleared_at', 'fraud_scores.cleared_by'])
        .where('claims.id', '=', claim.id)
        .executeTakeFirst()
      if (row?.fraud_score == null) {
        throw new AppError('CONFLICT', {
          status: 409,
          message: 'the claim is not scored yet: its score follows within a minute of its arrival; try then',
        })
      }
      const at = Date.now()
      const cleared = await trx
        .updateTable('claims')
        .set({ fraud_cleared_at: at })
        .where('id', '=', claim.id)
        .where('fraud_cleared_at', 'is', null)
        .executeTakeFirst()
      if (Number(cleared.numUpdatedRows) !== 1) {
        throw new AppError('CONFLICT', {
          status: 409,
          message: `the claim was decided not fraud already${row.cleared_by ? `, by ${row.cleared_by}` : ''}: reload it`,
        })
      }
      const score = Number(row.fraud_score)
      const codes = await fraudCodesOf(trx, claim.id)
      // the entry's detail is the whole clearance: verify-evidence checks the rows below against it
      const auditId = await writeAuditEntry(trx, evidenceKey, {
        clientAddress: reviewer.clientAddress,
        accountId: reviewer.accountId,
        actor: reviewer.actor,
        app: claim.app,
        action: FRAUD_CLEARED,
        detail: fraudClearedDetail({
          claimId: claim.id,
          clearedAt: at,
          by: reviewer.actor,
          note,
          score,
          codes,
        }),
      })
      await trx
        .updateTable('fraud_scores')
        .set({
          cleared_by: reviewer.actor,
          cleared_note: note,
          cleared_score: score,
          cleared_codes: codes.join(' '),
          cleared_audit_id: auditId,
        })
        .where('claim_id', '=', claim.id)
        .execute()
    }),
  )
}

function badRequest(message: string): AppError {
  return new AppError('BAD_REQUEST', { status: 400, message })
}
