import type { Insertable, Kysely } from 'kysely'
import type { AgreementRecordsTable, Database } from '../db/database.ts'
import { isoTimestamp } from '../db/timestamp.ts'
import type { ClaimSigningMethod } from '../../src/signing.ts'
import type { ClaimAnswers } from '../../src/api/staff.ts'

export type NewAgreementRecord = Insertable<AgreementRecordsTable>

export interface SignedAgreementRow extends ClaimAnswers {
  claimId: number
  app: string
  html: string
  sha256: string
  template: string
  templateVersion: string
  signedAt: string
  ipAddress: string
  userAgent: string
  locale: string
  signatureMethod: ClaimSigningMethod
  typedSignature: string | null
  /** The consent statement shown above the submit button, as signed. */
  consentText: string
  /** The signature image, a PNG data URL. */
  signature: string
}

function signedAgreements(db: Kysely<Database>) {
  return db
    .selectFrom('claims')
    .innerJoin('agreement_records', 'agreement_records.claim_id', 'claims.id')
    .select([
      'claims.id as claimId',
      'claims.app as app',
      'claims.first_name as firstName',
      'claims.last_name as lastName',
      'claims.email as email',
      'claims.phone_number as phoneNumber',
      'claims.cash_advance_count as cashAdvanceCount',
      'claims.membership_months as membershipMonths',
      'agreement_records.html as html',
      'agreement_records.sha256 as sha256',
      'agreement_records.template as template',
      'agreement_records.template_version as templateVersion',
      'agreement_records.signed_at as signedAt',
      'agreement_records.ip_address as ipAddress',
      'agreement_records.user_agent as userAgent',
      'agreement_records.locale as locale',
      'agreement_records.signature_method as signatureMethod',
      'agreement_records.typed_signature as typedSignature',
      'agreement_records.consent_text as consentText',
      'agreement_records.signature as signature',
    ])
}

type StoredRow = Awaited<ReturnType<ReturnType<typeof signedAgreements>['execute']>>[number]

function toSignedAgreement(row: StoredRow): SignedAgreementRow {
  return { ...row, claimId: Number(row.claimId), signedAt: isoTimestamp(row.signedAt) }
}

/** Every signed agreement whose claim has this e-mail AND one of these phones (one indexed query, all apps). */
export async function findAgreementsByContact(
  db: Kysely<Database>,
  { email, phoneNumbers, claimId }: { email: string; phoneNumbers: string[]; claimId?: number },
): Promise<SignedAgreementRow[]> {
  if (phoneNumbers.length === 0) return []
  let query = signedAgreements(db)
    .where('claims.email', '=', email)
    .where('claims.phone_number', 'in', phoneNumbers)
  if (claimId !== undefined) query = query.where('claims.id', '=', claimId)
  return (await query.execute()).map(toSignedAgreement)
}

/** One claim's signed agreement, if it has one. */
export async function findAgreementByClaimId(
  db: Kysely<Database>,
  claimId: number,
): Promise<SignedAgreementRow | undefined> {
  const row = await signedAgreements(db).where('claims.id', '=', claimId).executeTakeFirst()
  return row && toSignedAgreement(row)
}
