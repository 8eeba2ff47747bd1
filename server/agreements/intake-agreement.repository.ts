import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { isoTimestamp } from '../db/timestamp.ts'
import type { SigningMethod } from '../../src/signing.ts'

/** The agreement a main-form signer signed with their intake, as the lookup and downloads read it. */
export interface IntakeAgreementRow {
  intakeId: number
  /** The apps chosen (values), for the agreement's name. */
  apps: string[]
  firstName: string
  lastName: string
  email: string
  phoneNumber: string
  html: string
  sha256: string
  template: string
  templateVersion: string
  signedAt: string
  ipAddress: string
  userAgent: string
  locale: string
  signatureMethod: SigningMethod
  typedSignature: string | null
  consentText: string
  signature: string
  /** The postal address sent with the intake, on one line. */
  address: string
  confirmedAt: string | null
  disownedAt: string | null
}

/**
 * The intake with this e-mail AND one of these phones, if it was signed with its agreement (the unique index on
 * (email, phone) finds it; intakes from before the main form kept its agreement have none to give).
 */
export async function findIntakeAgreementsByContact(
  db: Kysely<Database>,
  { email, phoneNumbers, intakeId }: { email: string; phoneNumbers: string[]; intakeId?: number },
): Promise<IntakeAgreementRow[]> {
  if (phoneNumbers.length === 0) return []
  let query = db
    .selectFrom('form_submissions')
    .select([
      'id',
      'cash_advance_apps',
      'first_name',
      'last_name',
      'email',
      'phone',
      'agreement_html',
      'agreement_sha256',
      'agreement_template',
      'agreement_template_version',
      'created_at',
      'ip_address',
      'user_agent',
      'locale',
      'signature_method',
      'typed_signature',
      'consent_text',
      'signature',
      'address',
      'address_line_2',
      'city',
      'state',
      'zip_code',
      'confirmed_at',
      'disowned_at',
    ])
    .where('email', '=', email)
    .where('phone', 'in', phoneNumbers)
    .where('agreement_sha256', '!=', '')
  if (intakeId !== undefined) query = query.where('id', '=', intakeId)
  const rows = await query.execute()
  return rows.map((row) => ({
    intakeId: Number(row.id),
    apps: JSON.parse(row.cash_advance_apps) as string[],
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phoneNumber: row.phone,
    html: row.agreement_html,
    sha256: row.agreement_sha256,
    template: row.agreement_template,
    templateVersion: row.agreement_template_version,
    signedAt: isoTimestamp(row.created_at),
    ipAddress: row.ip_address,
    userAgent: row.user_agent,
    locale: row.locale,
    signatureMethod: row.signature_method,
    typedSignature: row.typed_signature,
    consentText: row.consent_text,
    signature: row.signature,
    address: postalAddress(row),
    confirmedAt: row.confirmed_at === null ? null : isoTimestamp(row.confirmed_at),
    // epoch milliseconds (a bigint on PostgreSQL, hence the Number)
    disownedAt: row.disowned_at === null ? null : new Date(Number(row.disowned_at)).toISOString(),
  }))
}

/** "5 Main St, Apt 2, Albany, NY 12207": the second line only when there is one. */
function postalAddress(row: {
  address: string
  address_line_2: string
  city: string
  state: string
  zip_code: string
}): string {
  const street = [row.address, row.address_line_2].map((line) => line.trim()).filter(Boolean)
  return [...street, `${row.city.trim()}, ${row.state.trim()} ${row.zip_code.trim()}`].join(', ')
}
