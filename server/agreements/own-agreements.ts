import type { Kysely } from 'kysely'
import { AppError, type FieldErrors } from '../../src/app-error.ts'
import type { FoundAgreement } from '../../src/api/agreements.ts'
import type { FormConfig } from '../../src/form-config.ts'
import { intakeAgreementApp } from '../../src/intake-config.ts'
import { checkLookupInput } from '../../src/lookup-messages.ts'
import { storedPhoneCandidates } from '../../src/phone.ts'
import type { Locale } from '../../src/translate.ts'
import type { Database } from '../db/database.ts'
import type { Languages } from '../forms/languages.ts'
import { findAgreementsByContact, type SignedAgreementRow } from './agreement-record.repository.ts'
import { findIntakeAgreementsByContact, type IntakeAgreementRow } from './intake-agreement.repository.ts'

/** E-mail and phone as the lookup compares them with the stored ones. */
export interface Contact {
  email: string
  /** Every stored form of the phone the claimant typed. */
  phoneNumbers: string[]
}

export interface OwnAgreements {
  claims: SignedAgreementRow[]
  intakes: IntakeAgreementRow[]
}

/** The lookup form's e-mail and phone, normalised; 422 with a message per field when either is unusable. */
export function parseContact(body: unknown): Contact {
  const { email, phone } = (body ?? {}) as { email?: unknown; phone?: unknown }
  const input = {
    email: typeof email === 'string' ? email : '',
    phone: typeof phone === 'string' ? phone : '',
  }
  const problems = checkLookupInput(input)
  if (Object.keys(problems).length > 0) {
    const fields: FieldErrors = {}
    for (const [field, message] of Object.entries(problems)) fields[field] = { __errors: [message] }
    throw new AppError('VALIDATION_FAILED', {
      status: 422,
      message: Object.values(problems).join('; '),
      fields,
    })
  }
  return {
    email: input.email.trim().toLowerCase(),
    // whichever way the claimant writes it now, and however it was stored then
    phoneNumbers: storedPhoneCandidates(input.phone),
  }
}

/** The contact's signed agreements, Step 2 claims and the main form's alike; one of them when an id is given. */
export async function findOwnAgreements(
  db: Kysely<Database>,
  contact: Contact,
  { claimId, intakeId }: { claimId?: number; intakeId?: number } = {},
): Promise<OwnAgreements> {
  const [claims, intakes] = await Promise.all([
    intakeId === undefined
      ? findAgreementsByContact(db, { ...contact, ...(claimId === undefined ? {} : { claimId }) })
      : [],
    claimId === undefined
      ? findIntakeAgreementsByContact(db, { ...contact, ...(intakeId === undefined ? {} : { intakeId }) })
      : [],
  ])
  return { claims, intakes }
}

/** What the claimant's page shows of each agreement, the main form's first, then the apps in registry order. */
export function toFoundAgreements({
  own: { claims, intakes },
  forms,
  languages,
  locale,
}: {
  own: OwnAgreements
  forms: Map<string, FormConfig>
  languages: Languages
  locale: Locale
}): FoundAgreement[] {
  const order = (app: string) => forms.get(app)?.lookupOrder ?? Number.MAX_SAFE_INTEGER
  const sorted = [...claims].sort(
    (a, b) => order(a.app) - order(b.app) || a.signedAt.localeCompare(b.signedAt),
  )
  // the main form's agreement first: it was signed first, and names every app chosen
  return [
    ...intakes.map((row): FoundAgreement => ({
      kind: 'intake',
      intakeId: row.intakeId,
      appName: intakeAgreementApp({
        config: languages.intake(locale),
        chosen: row.apps,
        locale,
        noneChosen: '',
      }).displayName,
      signedAt: row.signedAt,
      firstName: row.firstName,
      lastName: row.lastName,
      email: row.email,
      phoneNumber: row.phoneNumber,
      signatureMethod: row.signatureMethod,
      typedSignature: row.typedSignature,
      html: row.html,
      address: row.address,
      confirmedAt: row.confirmedAt,
      disownedAt: row.disownedAt,
    })),
    ...sorted.map((row): FoundAgreement => ({
      kind: 'claim',
      claimId: row.claimId,
      app: row.app,
      appName: forms.get(row.app)?.displayName ?? row.app,
      signedAt: row.signedAt,
      firstName: row.firstName,
      lastName: row.lastName,
      email: row.email,
      phoneNumber: row.phoneNumber,
      cashAdvanceCount: row.cashAdvanceCount,
      membershipMonths: row.membershipMonths,
      signatureMethod: row.signatureMethod,
      typedSignature: row.typedSignature,
      html: row.html,
    })),
  ]
}
