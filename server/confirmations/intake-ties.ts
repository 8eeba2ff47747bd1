import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'

/** The intake a new claim names, and whether it came through that intake's Step 2 link. */
export interface IntakeTie {
  intakeId: number | null
  byLink: boolean
}

/**
 * The main-form intake a new claim names. Its Step 2 link's intake when the claim shares that intake's
 * e-mail or phone: a link forwarded to someone else's claim ties nothing. Else the intake, not disowned,
 * with the same e-mail and phone, whose address is the claim's only once the intake is confirmed from
 * that e-mail (batch-claims.ts), since anyone can send an intake with another person's e-mail and phone.
 */
export async function intakeForClaim(
  db: Kysely<Database>,
  { email, phoneNumber, linkedIntakeId }: { email: string; phoneNumber: string; linkedIntakeId?: number },
): Promise<IntakeTie> {
  if (linkedIntakeId !== undefined) {
    const linked = await db
      .selectFrom('form_submissions')
      .select(['id', 'email', 'phone'])
      .where('id', '=', linkedIntakeId)
      .where('disowned_at', 'is', null)
      .executeTakeFirst()
    if (linked && (linked.email === email || linked.phone === phoneNumber)) {
      return { intakeId: Number(linked.id), byLink: true }
    }
  }
  const matched = await db
    .selectFrom('form_submissions')
    .select('id')
    .where('email', '=', email)
    .where('phone', '=', phoneNumber)
    .where('disowned_at', 'is', null)
    .executeTakeFirst()
  return { intakeId: matched ? Number(matched.id) : null, byLink: false }
}

/**
 * Whether the address of the intake a claim names is the claim's: the claim came through that intake's
 * Step 2 link, or the intake was confirmed from the claimant's e-mail and not disowned since.
 */
export function isIntakeAddressConfirmed(tie: {
  intake_by_link: number
  intake_confirmed_at: string | Date | null
  intake_disowned_at: number | string | null
}): boolean {
  if (tie.intake_disowned_at !== null) return false
  return Number(tie.intake_by_link) === 1 || tie.intake_confirmed_at !== null
}

/**
 * "This wasn't me" on an intake: its claims name it no more (the intake itself is kept as evidence) and
 * its e-mails and text messages stop. Its e-mail and phone are free again (the unique index counts only
 * intakes not disowned), so the real claimant's own intake is taken and named by their claims.
 */
export async function untieDisownedIntake(trx: Kysely<Database>, intakeId: number): Promise<void> {
  await trx
    .updateTable('claims')
    .set({ intake_id: null, intake_by_link: 0 })
    .where('intake_id', '=', intakeId)
    .execute()
  await trx.deleteFrom('claimant_journeys').where('intake_id', '=', intakeId).execute()
}

/**
 * "This wasn't me" on an intake taken back: the claims of its e-mail and phone that name no intake name
 * it again, as a new claim would (intakeForClaim). A claim that came by its Step 2 link sharing only one
 * of the two is not found this way (its tie was not kept), and its reminders stay stopped: the claimant
 * has the links already.
 */
export async function retieUndisownedIntake(trx: Kysely<Database>, intakeId: number): Promise<void> {
  const intake = await trx
    .selectFrom('form_submissions')
    .select(['email', 'phone'])
    .where('id', '=', intakeId)
    .executeTakeFirstOrThrow()
  await trx
    .updateTable('claims')
    .set({ intake_id: intakeId, intake_by_link: 0 })
    .where('intake_id', 'is', null)
    .where('email', '=', intake.email)
    .where('phone_number', '=', intake.phone)
    .execute()
}
