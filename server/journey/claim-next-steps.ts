import type { Kysely } from 'kysely'
import type { Step2Link } from '../../src/journey-config.ts'
import type { Database } from '../db/database.ts'
import type { ClaimantJourney } from './claimant-journey.ts'

/**
 * The apps the claim's intake chose that still have no claim, with their Step 2 links: what the
 * success page offers next and the claim's e-mail copy lists. `forPage` keeps the pre-fill only for a
 * claim that came by the intake's own Step 2 link: a claim tied by typing an intake's e-mail and phone
 * proves no hold of that inbox, and the pre-fill would show that intake's name and address to whoever
 * typed them (the e-mail copy goes to the intake's own address, so it keeps the pre-fill).
 */
export async function claimNextSteps({
  db,
  journey,
  claimId,
  forPage,
}: {
  db: Kysely<Database>
  journey: Pick<ClaimantJourney, 'pendingSteps'>
  claimId: number
  forPage: boolean
}): Promise<Step2Link[]> {
  const claim = await db
    .selectFrom('claims')
    .select(['intake_id', 'intake_by_link'])
    .where('id', '=', claimId)
    .executeTakeFirst()
  if (!claim || claim.intake_id === null) return []
  const steps = await journey.pendingSteps(Number(claim.intake_id))
  if (!forPage || Number(claim.intake_by_link) === 1) return steps
  return steps.map((step) => ({ ...step, path: step.path.split('#')[0]! }))
}
