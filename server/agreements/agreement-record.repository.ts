import type { Insertable, Kysely } from 'kysely'
import type { AgreementRecordsTable, Database } from '../db/database.ts'

export type NewAgreementRecord = Insertable<AgreementRecordsTable>

export async function insertAgreementRecord(db: Kysely<Database>, record: NewAgreementRecord): Promise<void> {
  await db.insertInto('agreement_records').values(record).execute()
}

export interface SignedAgreementRow {
  claimId: number
  app: string
  firstName: string
  lastName: string
  email: string
  phoneNumber: string
  cashAdvanceCount: number
  membershipMonths: number
  html: string
  sha256: string
  template: string
  templateVersion: string
  signedAt: string
  ipAddress: string
  userAgent: string
}

/** Every signed agreement whose claim has this e-mail AND this phone (one indexed query, all apps). */
export async function findAgreementsByContact(
  db: Kysely<Database>,
  { email, phoneNumber, claimId }: { email: string; phoneNumber: string; claimId?: number },
): Promise<SignedAgreementRow[]> {
  let query = db
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
    ])
    .where('claims.email', '=', email)
    .where('claims.phone_number', '=', phoneNumber)
  if (claimId !== undefined) query = query.where('claims.id', '=', claimId)
  const rows = await query.execute()
  return rows.map((row) => ({
    ...row,
    claimId: Number(row.claimId),
    signedAt: new Date(row.signedAt).toISOString(),
  }))
}
