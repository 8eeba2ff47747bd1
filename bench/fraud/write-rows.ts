import { sql, type Insertable, type Kysely } from 'kysely'
import type {
  AgreementRecordsTable,
  ClaimsTable,
  Database,
  Dialect,
  FormSubmissionsTable,
} from '../../server/db/database.ts'
import { storedSignals } from '../../src/form-signals.ts'
import type { PlannedClaim, PlannedIntake } from './plan.ts'

// bound parameters per statement: SQLite's default limit is 32,766, PostgreSQL's 65,535
const MAX_PARAMS: Record<Dialect, number> = { sqlite: 32_000, postgres: 65_000 }
const CHUNK = 20_000

/**
 * Writes the planted main forms and claims as the product stores them, oldest first so ids rise with
 * time: form_submissions (with the address and the form's signals), claims (signals, the main form's
 * id) and each claim's agreement record (its client address, which the score reads for the network).
 * The product's triggers stay in place: each claim's insert queues its fraud_scores row.
 */
export async function writeRows({
  db,
  dialect,
  claims,
  intakes,
  log,
}: {
  db: Kysely<Database>
  dialect: Dialect
  claims: PlannedClaim[]
  intakes: PlannedIntake[]
  log: (line: string) => void
}): Promise<void> {
  intakes.sort((a, b) => a.at - b.at)
  intakes.forEach((intake, n) => (intake.id = n + 1))
  claims.sort((a, b) => a.at - b.at)
  const limit = MAX_PARAMS[dialect]
  for (let start = 0; start < intakes.length; start += CHUNK) {
    const rows = intakes.slice(start, start + CHUNK).map(intakeRow)
    await db.transaction().execute(async (trx) => {
      for (const batch of batches(rows, limit))
        await trx.insertInto('form_submissions').values(batch).execute()
    })
  }
  log(`  ${intakes.length.toLocaleString('en-US')} main forms written`)
  for (let start = 0; start < claims.length; start += CHUNK) {
    const chunk = claims.slice(start, start + CHUNK)
    const claimRows = chunk.map((claim, n) => claimRow(claim, start + n + 1))
    const agreementRows = chunk.map((claim, n) => agreementRow(claim, start + n + 1))
    await db.transaction().execute(async (trx) => {
      for (const batch of batches(claimRows, limit)) await trx.insertInto('claims').values(batch).execute()
      for (const batch of batches(agreementRows, limit)) {
        await trx.insertInto('agreement_records').values(batch).execute()
      }
    })
    if ((start / CHUNK) % 10 === 9 || start + CHUNK >= claims.length) {
      log(`  ${Math.min(claims.length, start + CHUNK).toLocaleString('en-US')} claims written`)
    }
  }
  // the screenshot check is not what this bench measures: its queue is left empty
  await db.deleteFrom('screenshot_checks').execute()
  if (dialect === 'postgres') await sql`VACUUM ANALYZE`.execute(db)
  else await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db)
}

function intakeRow(intake: PlannedIntake): Insertable<FormSubmissionsTable> & { id: number } {
  return {
    id: intake.id!,
    created_at: new Date(intake.at).toISOString(),
    cash_advance_apps: '["brigit"]',
    fees_incurred: '["Subscription Fee"]',
    is_over_18: 1,
    is_active_military: 0,
    has_bankruptcy: 0,
    first_name: intake.firstName,
    last_name: intake.lastName,
    email: intake.email,
    phone: intake.phone,
    address: intake.street,
    address_line_2: intake.line2,
    city: intake.city,
    state: intake.state,
    zip_code: intake.zip,
    signature: '',
    consent_agreed: 1,
    communications_consent: 1,
    consent_version: 'bench',
    consent_text: '',
    communications_consent_text: '',
    ip_address: intake.ip,
    signals: storedSignals(intake.signals),
  }
}

function claimRow(claim: PlannedClaim, id: number): Insertable<ClaimsTable> & { id: number } {
  return {
    id,
    app: claim.app,
    created_at: new Date(claim.at).toISOString(),
    first_name: claim.firstName,
    last_name: claim.lastName,
    email: claim.email,
    phone_number: claim.phone,
    cash_advance_count: 3,
    membership_months: 12,
    screenshot_key: claim.screenshot,
    screenshot_type: claim.screenshot.endsWith('.jpg') ? 'image/jpeg' : 'image/png',
    intake_id: claim.intake?.id ?? null,
    signals: storedSignals(claim.signals),
  }
}

function agreementRow(claim: PlannedClaim, claimId: number): Insertable<AgreementRecordsTable> {
  return {
    claim_id: claimId,
    template: 'bench',
    template_version: 'bench',
    html: '',
    sha256: '',
    signature: '',
    signed_at: new Date(claim.at).toISOString(),
    ip_address: claim.ip,
    user_agent: '',
    consent_text: '',
  }
}

/** Rows split so that no statement binds more than `maxParams` values. */
export function* batches<T extends object>(rows: T[], maxParams: number): Generator<T[]> {
  if (rows.length === 0) return
  const size = Math.max(1, Math.floor(maxParams / Object.keys(rows[0]!).length))
  for (let start = 0; start < rows.length; start += size) yield rows.slice(start, start + size)
}
