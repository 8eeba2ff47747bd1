import type { Kysely } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import { intakeReference } from '../../src/journey-config.ts'
import { SIGNATURE_METHOD_FIELD } from '../../src/signing.ts'
import type { Database } from '../db/database.ts'
import { isoTimestamp } from '../db/timestamp.ts'
import type { IntakeTie } from '../confirmations/intake-ties.ts'

/** The main form's signature a Step 2 claim adopts, and which intake it was signed on, when. */
export interface AdoptedSignature {
  /** The intake's PNG, drawn or typed: it becomes the claim's signature. */
  image: string
  /** The intake's reference ("IN-000042"), kept in the claim's signed record. */
  from: string
  /** When the main form was signed (ISO). */
  signedAt: string
  /** The claim's tie to that intake, by its link. */
  tie: IntakeTie & { intakeId: number }
}

export const ADOPT_NEEDS_LINK_MESSAGE =
  'an adopted signature needs the Step 2 link from your own main form for this app; draw or type your signature instead'
export const ADOPT_NOT_YOURS_MESSAGE =
  'an adopted signature needs the e-mail or phone of the main form the Step 2 link came from; draw or type your signature instead'

/**
 * The signature of the intake whose Step 2 link the claim came by, if the claim shares that intake's
 * e-mail or phone (intakeForClaim): a link forwarded to someone else adopts nothing. Refused with 422
 * otherwise, before anything is stored (fail-closed: no link, no signature).
 */
export async function adoptIntakeSignature(
  db: Kysely<Database>,
  {
    tie,
  }: {
    /** intakeForClaim's answer for the claim's contact and its link's intake. */
    tie: IntakeTie | undefined
  },
): Promise<AdoptedSignature> {
  if (tie === undefined) throw refused(ADOPT_NEEDS_LINK_MESSAGE)
  if (!tie.byLink || tie.intakeId === null) throw refused(ADOPT_NOT_YOURS_MESSAGE)
  const intake = await db
    .selectFrom('form_submissions')
    .select(['id', 'signature', 'created_at'])
    .where('id', '=', tie.intakeId)
    .executeTakeFirst()
  if (!intake) throw refused(ADOPT_NEEDS_LINK_MESSAGE)
  return {
    image: intake.signature,
    from: intakeReference(Number(intake.id)),
    signedAt: isoTimestamp(intake.created_at),
    tie: { intakeId: tie.intakeId, byLink: true },
  }
}

function refused(message: string): AppError {
  return new AppError('VALIDATION_FAILED', {
    status: 422,
    message,
    fields: { [SIGNATURE_METHOD_FIELD]: { __errors: [message] } },
  })
}
