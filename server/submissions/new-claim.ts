import type { Insertable } from 'kysely'
import type { RecordParts } from '../evidence/sealed-record.ts'
import type { AgreementRecordsTable, ClaimsTable } from '../db/database.ts'

/** A claim's row as the claim's path writes it; the database and the fraud score's job fill the rest. */
export type ClaimValues = Required<
  Omit<Insertable<ClaimsTable>, 'id' | 'legal_hold' | 'review_status' | 'review_version' | 'fraud_score'>
>
export type AgreementRecordValues = Required<Omit<Insertable<AgreementRecordsTable>, 'id'>>

/** A claim as it commits: its row, its signed record, its seal and its e-mail copy. */
export interface ClaimToCommit {
  claim: ClaimValues
  /** Its `html` as UTF-8 bytes, as the content thread made it: stored as text. */
  record: Omit<AgreementRecordValues, 'claim_id' | 'html'> & { html: Uint8Array }
  /** The claim's sealed record around its id: its seal goes into the ledger with the claim. */
  recordParts: RecordParts
  /** The site's origin the claim came in through, kept with its e-mail copy for the confirmation link. */
  linkOrigin: string
  /**
   * Whether the claim's screenshot is still in its store, asked after the claim's insert and before its
   * commit: another process's start-up sweep (removeOrphanScreenshots) holds claim inserts off while it
   * removes files, so a file it has already removed is caught here and the claim refused rather than
   * kept without its screenshot.
   */
  isScreenshotKept: () => Promise<boolean>
}

export const SCREENSHOT_REMOVED_MESSAGE = 'the screenshot was removed before its claim committed'

/** The columns a new claim writes, in the order every claim insert names them. */
export const CLAIM_COLUMNS = [
  'app',
  'created_at',
  'first_name',
  'last_name',
  'email',
  'phone_number',
  'cash_advance_count',
  'membership_months',
  'screenshot_key',
  'screenshot_type',
  'screenshot_sha256',
  'locale',
  'intake_id',
  'intake_by_link',
  'source',
  'attribution',
  'signals',
] as const

/** The columns of a claim's signed record. */
export const AGREEMENT_COLUMNS = [
  'claim_id',
  'template',
  'template_version',
  'html',
  'sha256',
  'signature',
  'signed_at',
  'ip_address',
  'user_agent',
  'consent_text',
  'locale',
  'signature_method',
  'typed_signature',
  'adopted_from',
] as const

/** A record's HTML bytes as the text they store (PostgreSQL takes the text, not the bytes). */
export function utf8Text(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')
}
