import type { StaffSubmission } from '../../src/staff-lists.ts'
import type { SubmissionRow } from './dashboard.repository.ts'
import { isoTimestamp } from '../db/timestamp.ts'

/** A claim as the dashboards receive it (the contract lives in src/staff-lists.ts). */
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
    screenshotUrl: screenshotPath(id),
  }
}

export const SUBMISSION_CSV_HEADER = [
  'ID',
  'Submission Date',
  'First Name',
  'Last Name',
  'Email',
  'Phone Number',
  'Cash Advance Count',
  'Membership Months',
  'Language',
  'Screenshot URL',
] as const

/** One CSV record in SUBMISSION_CSV_HEADER's order; origin makes the screenshot URL absolute. */
export function submissionCsvRecord(submission: Submission, origin: string): (string | number)[] {
  return [
    submission.id,
    submission.createdAt,
    submission.firstName,
    submission.lastName,
    submission.email,
    submission.phoneNumber,
    submission.cashAdvanceCount,
    submission.membershipMonths,
    submission.locale,
    `${origin}${submission.screenshotUrl}`,
  ]
}
