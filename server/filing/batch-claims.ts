import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { isIntakeAddressConfirmed } from '../confirmations/intake-ties.ts'
import { isClearOfFraudHold } from './fraud-hold.ts'
import { chunks } from '../db/id-chunks.ts'
import type { FilingClaim } from './provider-spreadsheet.ts'

/** A claim as a batch reads it: what its documents print, and where it stands with notices and filings. */
export interface BatchClaimRow extends FilingClaim {
  status: string
  noticeBatchId: number | null
  filingBatchId: number | null
  /** The notice's sending day (YYYY-MM-DD) and how it went, once its notice batch is marked sent. */
  noticeSentOn: string | null
  noticeMethod: string | null
  /** When the claimant signed (ISO 8601). */
  signedAt: string
  /** The claim names an intake whose address the claimant has not confirmed (intake-ties.ts). */
  addressUnconfirmed: boolean
  /** The owner of the claim's e-mail said "This wasn't me". */
  disowned: boolean
  /** Its fraud score, null until scored; and whether a decider cleared it ("Not fraud"). */
  fraudScore: number | null
  fraudCleared: boolean
}

/**
 * The claims of `app` with these ids, or (without ids) its claims ready to file (in the review's
 * readyToFile status, `ready`) that a batch of `kind` could take, clear of the fraud hold at `hold`
 * (fraud-hold.ts), oldest first, with its notice batch's sending. Each prints its intake's address only when the claimant
 * confirmed it: the intake was confirmed from their e-mail (and not disowned), or the claim came through
 * that intake's Step 2 link; anyone can send an intake with another person's e-mail and phone. Otherwise
 * the address is null (an intake with an empty field gives '').
 */
export async function readBatchClaims(
  db: Kysely<Database>,
  app: string,
  select: { ids: readonly number[] } | { kind: 'notice' | 'filing'; ready: string; hold: number },
): Promise<BatchClaimRow[]> {
  const base = db
    .selectFrom('claims')
    .leftJoin('form_submissions as intake', 'intake.id', 'claims.intake_id')
    .leftJoin('filing_batches as notice', 'notice.id', 'claims.notice_batch_id')
    .leftJoin('agreement_records as record', 'record.claim_id', 'claims.id')
    .select([
      'claims.id',
      'claims.first_name',
      'claims.last_name',
      'claims.email',
      'claims.phone_number',
      'claims.created_at',
      'claims.review_status',
      'claims.notice_batch_id',
      'claims.filing_batch_id',
      'claims.intake_by_link',
      'claims.disowned_at',
      'claims.fraud_score',
      'claims.fraud_cleared_at',
      'intake.id as intake_id',
      'intake.confirmed_at as intake_confirmed_at',
      'intake.disowned_at as intake_disowned_at',
      'intake.address',
      'intake.address_line_2',
      'intake.city',
      'intake.state',
      'intake.zip_code',
      'notice.sent_on',
      'notice.sent_method',
      'record.signed_at',
    ])
    .where('claims.app', '=', app)
  const rows =
    'ids' in select
      ? (
          await Promise.all(chunks(select.ids).map((ids) => base.where('claims.id', 'in', ids).execute()))
        ).flat()
      : await base
          .where('claims.review_status', '=', select.ready)
          .where('claims.disowned_at', 'is', null)
          .where(isClearOfFraudHold(select.hold))
          .$call((query) =>
            select.kind === 'notice'
              ? query.where('claims.notice_batch_id', 'is', null)
              : query
                  .where('claims.filing_batch_id', 'is', null)
                  .where('claims.notice_batch_id', 'is not', null),
          )
          .orderBy('claims.id')
          .execute()
  return rows
    .map((row) => ({ row, confirmed: isIntakeAddressConfirmed(row) }))
    .map(({ row, confirmed }) => ({
      claimId: Number(row.id),
      rowId: '',
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      phone: row.phone_number,
      app,
      filedAt: iso(row.created_at),
      address:
        row.intake_id === null || !confirmed
          ? null
          : {
              street: row.address ?? '',
              addressLine2: row.address_line_2 ?? '',
              city: row.city ?? '',
              state: row.state ?? '',
              zip: row.zip_code ?? '',
            },
      status: row.review_status,
      noticeBatchId: row.notice_batch_id === null ? null : Number(row.notice_batch_id),
      filingBatchId: row.filing_batch_id === null ? null : Number(row.filing_batch_id),
      noticeSentOn: row.sent_on ?? null,
      noticeMethod: row.sent_method ?? null,
      signedAt: row.signed_at === null ? '' : iso(row.signed_at),
      addressUnconfirmed: row.intake_id !== null && !confirmed,
      disowned: row.disowned_at !== null,
      fraudScore: row.fraud_score === null ? null : Number(row.fraud_score),
      fraudCleared: row.fraud_cleared_at !== null,
    }))
    .sort((a, b) => a.claimId - b.claimId)
}

function iso(value: Date | string): string {
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString()
}
