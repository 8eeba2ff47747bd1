import { sql, type RawBuilder } from 'kysely'
import type { StaffClaimRow, VisibleApps } from '../../src/api/staff.ts'
import type { ClaimListRow, SubmissionValues } from './claim-list.ts'
import { isoTimestamp } from '../db/timestamp.ts'
import { flaggedCellsSql } from './flagged-claims.ts'
import { csvCell, csvCellSql, csvCountSql, CSV_LINE_END } from '../platform/csv.ts'
import { CSV_TIME_ZONE, csvTime, csvTimeSql, TIME_ZONE_HEADER } from '../platform/csv-time.ts'
import { intakeReference } from '../../src/journey-config.ts'
import { ATTRIBUTION_KEYS, type Attribution } from '../../src/attribution.ts'
import { claimFraudStanding } from '../../src/api/fraud.ts'
import { MAX_SCORE, type FraudConfig } from '../../src/fraud-config.ts'

/** A claim as the dashboards receive it (the contract lives in src/api/staff.ts). */
export type Submission = StaffClaimRow

export function screenshotPath(claimId: number): string {
  return `/api/staff/claims/${claimId}/screenshot`
}

/** A claim as the dashboards receive it, its fraud standing by its app's thresholds (`fraud`). */
export function toStaffClaimRow(row: ClaimListRow, fraud: FraudConfig): Submission {
  const id = Number(row.id)
  const fraudScore = row.fraud_score === null ? null : Number(row.fraud_score)
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
    reviewStatus: row.review_status,
    reviewReason: row.review_reason,
    reviewMovedAt: row.review_moved_at === null ? null : new Date(Number(row.review_moved_at)).toISOString(),
    assignee:
      row.assignee_id === null ? null : { id: Number(row.assignee_id), email: row.assignee_email ?? '' },
    attribution: row.attribution === null ? null : (JSON.parse(row.attribution) as Attribution),
    fraudScore,
    fraudStanding: claimFraudStanding(fraud, {
      score: fraudScore,
      clearedAt: row.fraud_cleared_at === null ? null : Number(row.fraud_cleared_at),
    }),
  }
}

/** The CSV's attribution columns, in ATTRIBUTION_KEYS' order. */
const ATTRIBUTION_HEADERS = [
  'UTM Source',
  'UTM Medium',
  'UTM Campaign',
  'UTM Content',
  'UTM Term',
  'GCLID',
  'FBCLID',
  'Referrer',
] as const satisfies { length: (typeof ATTRIBUTION_KEYS)['length'] }

/**
 * The claims CSV's columns: first the nine of the site it replaces, named and ordered as there, so that
 * an import reading columns by name or by position keeps working; then Time Zone, the zone of the
 * record's times; every column added since comes after them.
 */
export const CLAIMS_CSV_HEADER = [
  'ID',
  'Submission Date',
  'First Name',
  'Last Name',
  'Email',
  'Phone Number',
  'Cash Advance Count',
  'Membership Months',
  'Screenshot URL',
  TIME_ZONE_HEADER,
  'Confirmed At',
  'Language',
  'Flagged',
  'Flagged Claim IDs',
  'Status',
  'Reason',
  'Status Date',
  'Assignee',
  'Main Form Reference',
  // where the claimant came from: the first landing's parameters (src/attribution.ts), each its column
  ...ATTRIBUTION_HEADERS,
  // empty until scored; the reasons' codes (forms/base/fraud.json), in the codes' order, space-separated
  'Fraud Score',
  'Fraud Reasons',
] as const

/** The Time Zone cell, the same in every record. */
const ZONE_CELL = csvCell(CSV_TIME_ZONE)

/** The attribution's cells, empty where a key was not kept. */
function attributionCells(stored: string | null): string {
  if (stored === null) return ','.repeat(ATTRIBUTION_KEYS.length - 1)
  const attribution = JSON.parse(stored) as Attribution
  return ATTRIBUTION_KEYS.map((key) => {
    const value = attribution[key]
    return value === undefined ? '' : csvCell(value)
  }).join(',')
}

/**
 * The screenshot link's cell around a claim's id, for this origin: csvCell of the whole URL, cut where
 * the id goes (digits change neither the formula prefix nor the quoting).
 */
function screenshotCellAround(origin: string): [before: string, after: string] {
  const idMark = String(Number.MAX_SAFE_INTEGER)
  const cell = csvCell(`${origin}${screenshotPath(Number.MAX_SAFE_INTEGER)}`)
  const idAt = cell.lastIndexOf(idMark)
  return [cell.slice(0, idAt), cell.slice(idAt + idMark.length)]
}

/**
 * Renders a claim, read as SubmissionValues, as one CSV record in CLAIMS_CSV_HEADER's order, line
 * end included, with this origin in the screenshot link, the ids of its duplicates (lowest first;
 * none when not flagged) and its fraud reasons' codes (in their order; none when it has none). Written
 * straight from the values, with no object built per claim: an export renders a million.
 */
export function claimCsvRenderer(
  origin: string,
): (
  claim: SubmissionValues,
  duplicateOf: readonly number[] | undefined,
  fraudCodes: readonly string[] | undefined,
) => string {
  const [linkBefore, linkAfter] = screenshotCellAround(origin)
  return (claim, duplicateOf, fraudCodes) => {
    const [
      claimId,
      createdAt,
      firstName,
      lastName,
      email,
      phone,
      advances,
      months,
      locale,
      confirmedAt,
      status,
      reason,
      movedAt,
      ,
      assigneeEmail,
      intakeId,
      attribution,
      fraudScore,
    ] = claim
    const id = Number(claimId)
    const flagged = duplicateOf !== undefined && duplicateOf.length > 0
    return (
      `${id},${csvTime(createdAt)},${csvCell(firstName)},${csvCell(lastName)},` +
      `${csvCell(email)},${csvCell(phone)},${csvCell(Number(advances))},` +
      `${csvCell(Number(months))},${linkBefore}${id}${linkAfter},${ZONE_CELL},` +
      `${confirmedAt === null ? '' : csvTime(confirmedAt)},${csvCell(locale)},` +
      `${flagged ? `Yes,${duplicateOf.join(' ')}` : 'No,'},${csvCell(status)},` +
      `${reason === null ? '' : csvCell(reason)},` +
      `${movedAt === null ? '' : csvTime(new Date(Number(movedAt)))},` +
      `${assigneeEmail === null ? '' : csvCell(assigneeEmail)},` +
      `${intakeId === null ? '' : intakeReference(Number(intakeId))},` +
      `${attributionCells(attribution)},` +
      `${fraudScore === null ? '' : Number(fraudScore)},${fraudCodes?.join(' ') ?? ''}${CSV_LINE_END}`
    )
  }
}

/**
 * claimCsvRenderer's records rendered by PostgreSQL, as one text value per claim (a whole CSV
 * record, with its line end): what the export streams from the database. Each cell follows csvCell and
 * csvTime, byte for byte.
 */
export function claimCsvRecordSql({
  origin,
  apps,
}: {
  origin: string
  /** The apps whose claims the Flagged cells may name. */
  apps: VisibleApps
}): RawBuilder<string> {
  const [linkBefore, linkAfter] = screenshotCellAround(origin)
  const cells = [
    sql`claims.id::text`,
    csvTimeSql(sql.ref('claims.created_at')),
    csvCellSql(sql.ref('claims.first_name')),
    csvCellSql(sql.ref('claims.last_name')),
    csvCellSql(sql.ref('claims.email')),
    csvCellSql(sql.ref('claims.phone_number')),
    csvCountSql(sql.ref('claims.cash_advance_count')),
    csvCountSql(sql.ref('claims.membership_months')),
    sql`${linkBefore}::text || claims.id || ${linkAfter}::text`,
    sql`${ZONE_CELL}::text`,
    // empty while the claim is not confirmed
    sql`coalesce(${csvTimeSql(sql.ref('claims.confirmed_at'))}, '')`,
    csvCellSql(sql.ref('claims.locale')),
    // Flagged and Flagged Claim IDs together
    flaggedCellsSql(apps),
    csvCellSql(sql.ref('claims.review_status')),
    // the last four are empty before a move, or while nobody is assigned
    sql`coalesce(${csvCellSql(sql.ref('claims.review_reason'))}, '')`,
    // epoch ms to whole seconds: csvTime cuts the seconds, it does not round them
    sql`coalesce(${csvTimeSql(sql`to_timestamp(claims.review_moved_at / 1000)`)}, '')`,
    // looked up once, and only for an assigned claim: csvCellSql writes its value out several times
    sql`CASE WHEN claims.assignee_id IS NULL THEN '' ELSE coalesce((SELECT ${csvCellSql(sql.ref('staff_accounts.email'))} FROM staff_accounts WHERE staff_accounts.id = claims.assignee_id), '') END`,
    // intakeReference: 'IN-' and the id, zero-padded to six digits (lpad would cut a longer one)
    sql`coalesce('IN-' || CASE WHEN claims.intake_id < 1000000 THEN lpad(claims.intake_id::text, 6, '0') ELSE claims.intake_id::text END, '')`,
    attributionCellsSql(),
    sql`coalesce(claims.fraud_score::text, '')`,
    fraudCodesSql(),
  ]
  return sql<string>`${sql.join(cells, sql` || ',' || `)} || ${CSV_LINE_END}::text`
}

/**
 * The Fraud Reasons cell in PostgreSQL: the codes in byte order (as JavaScript sorts them, whatever the
 * database's collation), read by fraud_reasons' primary key only for a claim with a deduction. The codes
 * are lowercase letters and underscores: nothing to quote.
 */
function fraudCodesSql(): RawBuilder<string> {
  return sql<string>`CASE WHEN claims.fraud_score < ${MAX_SCORE} THEN coalesce((SELECT string_agg(fraud_reasons.code, ' ' ORDER BY fraud_reasons.code COLLATE "C")
    FROM fraud_reasons WHERE fraud_reasons.claim_id = claims.id), '') ELSE '' END`
}

/**
 * attributionCells in PostgreSQL: the stored JSON parsed once a claim, into a record of its keys' text
 * (as ->> reads them), rather than once a cell and again for each test csvCellSql makes; a claim
 * without attribution parses nothing.
 */
function attributionCellsSql(): RawBuilder<string> {
  const cells = ATTRIBUTION_KEYS.map((key) => sql`coalesce(${csvCellSql(sql.ref(`attribution.${key}`))}, '')`)
  const columns = ATTRIBUTION_KEYS.map((key) => sql`${sql.id(key)} text`)
  return sql<string>`CASE WHEN claims.attribution IS NULL THEN ${','.repeat(ATTRIBUTION_KEYS.length - 1)}::text
    ELSE (SELECT ${sql.join(cells, sql` || ',' || `)}
      FROM json_to_record(claims.attribution::json) AS attribution(${sql.join(columns)})) END`
}
