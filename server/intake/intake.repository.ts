import type { Insertable, Kysely } from 'kysely'
import type { Database, FormSubmissionsTable } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { appendToLedger, subjectOf } from '../evidence/ledger.ts'
import { intakeRecordFromRow, sealOf } from '../evidence/sealed-record.ts'
import type { MilitaryFigures } from '../../src/api/staff.ts'

export type NewIntakeRow = Required<Omit<Insertable<FormSubmissionsTable>, 'id' | 'legal_hold'>>

/**
 * The intake row, one case per chosen app, the intake's seal in the evidence ledger and its claimant's
 * journey (the e-mail due now, then the reminders), in one transaction: all are stored or none. Step 2
 * claims filed before with the same e-mail and phone name the intake; its address becomes theirs only
 * once the intake is confirmed from that e-mail (intake-ties.ts).
 */
export async function insertIntakeWithCases(
  db: Kysely<Database>,
  evidenceKey: Buffer,
  {
    intake,
    apps,
    journey,
  }: {
    intake: NewIntakeRow
    apps: string[]
    journey: { timeZone: string; linkOrigin: string; now: number }
  },
): Promise<number> {
  // another server process may hold SQLite's write lock
  return retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('form_submissions')
        .values(intake)
        .returning('id')
        .executeTakeFirstOrThrow()
      const submissionId = Number(id)
      await appendToLedger(trx, evidenceKey, [
        {
          kind: 'intake',
          subject: subjectOf('intake', submissionId),
          seal: sealOf(intakeRecordFromRow({ ...intake, id: submissionId })),
        },
      ])
      if (apps.length > 0) {
        await trx
          .insertInto('intake_cases')
          .values(
            apps.map((app) => ({
              original_submission_id: submissionId,
              app,
              created_at: intake.created_at,
              first_name: intake.first_name,
              last_name: intake.last_name,
              email: intake.email,
              phone: intake.phone,
              address: intake.address,
              address_line_2: intake.address_line_2,
              city: intake.city,
              state: intake.state,
              zip_code: intake.zip_code,
              fees_incurred: intake.fees_incurred,
              is_over_18: intake.is_over_18,
              is_active_military: intake.is_active_military,
              has_bankruptcy: intake.has_bankruptcy,
              signature: intake.signature,
              consent_agreed: intake.consent_agreed,
            })),
          )
          .execute()
      }
      await trx
        .insertInto('claimant_journeys')
        .values({
          intake_id: submissionId,
          created_at: journey.now,
          due_at: journey.now,
          last_mail_at: null,
          time_zone: journey.timeZone,
          link_origin: journey.linkOrigin,
        })
        .execute()
      await trx
        .updateTable('claims')
        .set({ intake_id: submissionId })
        .where('email', '=', intake.email)
        .where('phone_number', '=', intake.phone)
        .where('intake_id', 'is', null)
        .execute()
      return submissionId
    }),
  )
}

/** The three figures only: no claimant's row ever leaves this function. */
export async function computeMilitaryFigures(db: Kysely<Database>): Promise<MilitaryFigures> {
  const row = await db
    .selectFrom('form_submissions')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('total'),
      eb.fn.coalesce(eb.fn.sum<number | string>('is_active_military'), eb.lit(0)).as('active'),
    ])
    .executeTakeFirstOrThrow()
  const total = Number(row.total)
  const activeMilitary = Number(row.active)
  const percentage = total === 0 ? 0 : Math.round((activeMilitary / total) * 1000) / 10
  return { activeMilitary, total, percentage }
}
