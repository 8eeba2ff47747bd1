import { sql, type RawBuilder } from 'kysely'
import type { StaffSubmission, VisibleApps } from '../../src/api/staff.ts'
import type { SubmissionRow } from './claim-list.ts'
import { isoTimestamp } from '../db/timestamp.ts'
import { duplicateIdsCsvSql } from '../duplicates/flagged-claims.ts'
import { csvCell, csvCellSql, csvCountSql, CSV_LINE_END } from './csv.ts'

/** A claim as the dashboards receive it (the contract lives in src/api/staff.ts). */
export type Submission = StaffSubmission

export function screenshotPath(claimId: number): string {
  return `/api/staff/claims/${claimId}/screenshot`
}

export function submissionRowToSubmission(row: SubmissionRow): Submission {
  const id = Number(row.id)
  return {
    id,
    // pg gives a Date, SQLite the stored text
    createdAt: isoTimestamp(row.created_at),
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phoneNumber: row.phone_number,
    cashAdvanceCount: Number(row.cash_advance_count),
    membershipMonths: Number(row.membership_months),
    locale: row.locale,
    confirmedAt: row.confirmed_at === null ? null : isoTimestamp(row.confirmed_at),
    screenshotUrl: screenshotPath(id),
    duplicateOf: row.duplicate_of ?? [],
  }
}

export const SUBMISSION_CSV_HEADER = [
  'ID',
  'Submission Date',
  'Confirmed At',
  'First Name',
  'Last Name',
  'Email',
  'Phone Number',
  'Cash Advance Count',
  'Membership Months',
  'Language',
  'Screenshot URL',
  'Flagged',
] as const

/** One CSV record in SUBMISSION_CSV_HEADER's order; origin makes the screenshot URL absolute. */
export function submissionCsvRecord(submission: Submission, origin: string): (string | number)[] {
  return [
    submission.id,
    submission.createdAt,
    submission.confirmedAt ?? '',
    submission.firstName,
    submission.lastName,
    submission.email,
    submission.phoneNumber,
    submission.cashAdvanceCount,
    submission.membershipMonths,
    submission.locale,
    `${origin}${submission.screenshotUrl}`,
    // the claims of other claimants with the same screenshot; empty when it is not flagged
    submission.duplicateOf.join(' '),
  ]
}

/**
 * submissionCsvRecord rendered by PostgreSQL, as one text value per claim (a whole CSV record, with its
 * line end): what the export streams from the database. Each cell follows csvCell, the date
 * toISOString (to the millisecond, cut rather than rounded, as pg's Date is).
 */
export function submissionCsvRecordSql({
  origin,
  apps,
}: {
  origin: string
  /** The apps whose claims the Flagged cell may name. */
  apps: VisibleApps
}): RawBuilder<string> {
  // the screenshot URL's cell around its id: digits change neither the formula prefix nor the quoting
  const idMark = String(Number.MAX_SAFE_INTEGER)
  const urlCell = csvCell(`${origin}${screenshotPath(Number.MAX_SAFE_INTEGER)}`)
  const idAt = urlCell.lastIndexOf(idMark)
  const cells = [
    sql`claims.id::text`,
    sql`to_char(claims.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    // empty while the claim is not confirmed
    sql`coalesce(to_char(claims.confirmed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), '')`,
    csvCellSql(sql.ref('claims.first_name')),
    csvCellSql(sql.ref('claims.last_name')),
    csvCellSql(sql.ref('claims.email')),
    csvCellSql(sql.ref('claims.phone_number')),
    csvCountSql(sql.ref('claims.cash_advance_count')),
    csvCountSql(sql.ref('claims.membership_months')),
    csvCellSql(sql.ref('claims.locale')),
    sql`${urlCell.slice(0, idAt)}::text || claims.id || ${urlCell.slice(idAt + idMark.length)}::text`,
    duplicateIdsCsvSql(apps),
  ]
  return sql<string>`${sql.join(cells, sql` || ',' || `)} || ${CSV_LINE_END}::text`
}
