import { AppError } from '../../src/app-error.ts'
import type { IntakeCase, IntakeSubmission, IntakeSubmissionDetails } from '../../src/api/staff.ts'
import type { IntakeConfig } from '../../src/intake-config.ts'
import type { Reviews } from '../../src/review-config.ts'
import { isoTimestamp } from '../db/timestamp.ts'
import type { findIntakeById, findIntakeCases } from './intakes.repository.ts'

type IntakeRow = NonNullable<Awaited<ReturnType<typeof findIntakeById>>>
type IntakeListRow = Pick<
  IntakeRow,
  | 'id'
  | 'created_at'
  | 'first_name'
  | 'last_name'
  | 'email'
  | 'phone'
  | 'cash_advance_apps'
  | 'signature'
  | 'confirmed_at'
  | 'disowned_at'
>
type CaseRow = Awaited<ReturnType<typeof findIntakeCases>>[number]

/** The eligibility questions, in the form's order. */
const ELIGIBILITY_FIELDS = [
  'cashAdvanceApps',
  'feesIncurred',
  'isOver18',
  'isActiveMilitary',
  'hasBankruptcy',
]

/** An intake's id from the route's `:intakeId`: up to 15 digits, else 400. */
export function intakeIdParam(param: string): number {
  if (!/^\d{1,15}$/.test(param)) {
    throw new AppError('BAD_REQUEST', { status: 400, message: "an intake's id must be a whole number" })
  }
  return Number(param)
}

/** A row of the admin list, the apps by their labels, with the claimant's answer to the intake's e-mail. */
export function intakeRowToSubmission(row: IntakeListRow, label: (app: string) => string): IntakeSubmission {
  return {
    id: Number(row.id),
    createdAt: isoTimestamp(row.created_at),
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phone: row.phone,
    cashAdvanceApps: listedApps(row).map(label),
    signature: row.signature,
    // "This wasn't me" outranks a confirmation given before it
    confirmation:
      row.disowned_at !== null ? 'not_me' : row.confirmed_at !== null ? 'confirmed' : 'not_confirmed',
  }
}

/**
 * An intake's details: the list's fields, the address, each eligibility question (its title in
 * forms/intake.json) with the answer given, and one case per app listed, in the claimant's order, with
 * its Step 2 claim's review status by its label.
 */
export function intakeDetails({
  row,
  cases,
  intake,
  reviews,
  label,
}: {
  row: IntakeRow
  cases: CaseRow[]
  intake: IntakeConfig
  reviews: Reviews
  label: (app: string) => string
}): Omit<IntakeSubmissionDetails, 'journey' | 'unsubscribed'> {
  const answers: Record<string, string> = {
    cashAdvanceApps: listedApps(row).map(label).join(', '),
    feesIncurred: (JSON.parse(row.fees_incurred) as string[]).join(', '),
    isOver18: yesNo(row.is_over_18),
    isActiveMilitary: yesNo(row.is_active_military),
    hasBankruptcy: yesNo(row.has_bankruptcy),
  }
  const caseOf = new Map(cases.map((found) => [found.app, found]))
  return {
    ...intakeRowToSubmission(row, label),
    address: row.address,
    addressLine2: row.address_line_2,
    city: row.city,
    state: row.state,
    zipCode: row.zip_code,
    answers: ELIGIBILITY_FIELDS.map((field) => ({
      question: questionOf(intake, field),
      answer: answers[field] ?? '',
    })),
    signatureMethod: row.signature_method,
    typedSignature: row.typed_signature,
    confirmedAt: row.confirmed_at === null ? null : isoTimestamp(row.confirmed_at),
    disownedAt: row.disowned_at === null ? null : new Date(Number(row.disowned_at)).toISOString(),
    cases: listedApps(row).map((app): IntakeCase => {
      const found = caseOf.get(app)
      const claimId = found?.claim_id ?? null
      const status = found?.review_status ?? null
      return {
        app,
        appName: label(app),
        caseId: found ? Number(found.case_id) : null,
        claim:
          claimId === null || status === null
            ? null
            : { id: Number(claimId), status, statusLabel: reviews(app).statuses[status]?.label ?? status },
      }
    }),
  }
}

function listedApps(row: Pick<IntakeRow, 'cash_advance_apps'>): string[] {
  return JSON.parse(row.cash_advance_apps) as string[]
}

function questionOf(intake: IntakeConfig, field: string): string {
  const property = intake.schema.properties?.[field]
  return typeof property === 'object' && property.title ? property.title : field
}

function yesNo(value: number): string {
  return value ? 'Yes' : 'No'
}
