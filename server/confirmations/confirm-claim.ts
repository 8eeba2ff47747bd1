import type { Kysely } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import {
  CONFIRMATION_INVALID_MESSAGE,
  CONFIRMATION_NOT_FOUND_MESSAGE,
  CONFIRMATION_TOKEN_PATTERN,
  type ClaimConfirmed,
} from '../../src/confirmation-messages.ts'
import type { Translator } from '../../src/translate.ts'
import type { SignerInfo } from '../agreements/signer.ts'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { isoTimestamp } from '../db/timestamp.ts'
import { appendToLedger, subjectOf } from '../evidence/ledger.ts'
import { confirmationRecordFromRow, sealOf } from '../evidence/sealed-record.ts'
import { tokenHash } from './confirmation-links.ts'

/**
 * Confirms the claim a link's token names: when, from where and in what browser, on the claim, and
 * sealed into the evidence ledger, in one transaction. A claim already confirmed keeps its first
 * confirmation and says so.
 */
export async function confirmClaim({
  db,
  evidenceKey,
  token,
  confirmer,
  t,
}: {
  db: Kysely<Database>
  evidenceKey: Buffer
  token: unknown
  confirmer: SignerInfo
  /** The claimant's language, for the refusals. */
  t: Translator
}): Promise<ClaimConfirmed> {
  const hash = linkHash(token, t)
  return retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      const claimId = await claimOfLink(trx, hash, t)
      const confirmedAt = new Date().toISOString()
      // only the first confirmation writes: the condition decides between two that arrive together
      const updated = await trx
        .updateTable('claims')
        .set({
          confirmed_at: confirmedAt,
          confirmed_ip: confirmer.ipAddress,
          confirmed_user_agent: confirmer.userAgent,
        })
        .where('id', '=', claimId)
        .where('confirmed_at', 'is', null)
        .executeTakeFirst()
      if (Number(updated.numUpdatedRows) === 0) {
        const claim = await trx
          .selectFrom('claims')
          .select('confirmed_at')
          .where('id', '=', claimId)
          .executeTakeFirstOrThrow()
        return { confirmedAt: isoTimestamp(claim.confirmed_at!), alreadyConfirmed: true }
      }
      const record = confirmationRecordFromRow({
        id: claimId,
        confirmed_at: confirmedAt,
        confirmed_ip: confirmer.ipAddress,
        confirmed_user_agent: confirmer.userAgent,
      })!
      await appendToLedger(trx, evidenceKey, [
        { kind: 'confirmation', subject: subjectOf('claim', claimId), seal: sealOf(record) },
      ])
      return { confirmedAt, alreadyConfirmed: false }
    }),
  )
}

/** The SHA-256 a link's token is stored as; 400 for a token that cannot be one. */
export function linkHash(token: unknown, t: Translator): string {
  if (typeof token !== 'string' || !CONFIRMATION_TOKEN_PATTERN.test(token)) {
    throw new AppError('BAD_REQUEST', { status: 400, message: t(CONFIRMATION_INVALID_MESSAGE) })
  }
  return tokenHash(token)
}

/** The claim a link names, by its token's hash; 404 for a link never issued. */
export async function claimOfLink(db: Kysely<Database>, hash: string, t: Translator): Promise<number> {
  const link = await db
    .selectFrom('claim_confirmation_links')
    .select('claim_id')
    .where('token_hash', '=', hash)
    .executeTakeFirst()
  if (!link) {
    throw new AppError('CONFIRMATION_NOT_FOUND', { status: 404, message: t(CONFIRMATION_NOT_FOUND_MESSAGE) })
  }
  return Number(link.claim_id)
}
