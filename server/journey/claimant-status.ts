import type { Kysely } from 'kysely'
import type { ClaimantStatus } from '../../src/api/agreements.ts'
import { CURE_PAGE_PATH } from '../../src/api/cure.ts'
import type { FormConfig } from '../../src/form-config.ts'
import { intakeReference } from '../../src/journey-config.ts'
import type { Reviews } from '../../src/review-config.ts'
import { DEFAULT_LOCALE, type Locale } from '../../src/translate.ts'
import type { OwnAgreements } from '../agreements/own-agreements.ts'
import { issueCureLink } from '../review/claim-cures.ts'
import type { Database } from '../db/database.ts'
import type { ClaimantJourney } from './claimant-journey.ts'

/**
 * Where the claimant stands, for the page their one-time link opens: each Step 2 claim's state as
 * review.json's "claimant" says it (a claim needing a correction with a new link to its cure page), and
 * each app chosen on the main form still without a claim, with its Step 2 link. Nothing of the review's
 * own (status, reason code, note) leaves here.
 */
export async function claimantStatus({
  db,
  own,
  reviews,
  forms,
  journey,
  locale,
  now = Date.now(),
}: {
  db: Kysely<Database>
  own: OwnAgreements
  reviews: Reviews
  /** The apps' configs in the reader's language. */
  forms: Map<string, FormConfig>
  journey: Pick<ClaimantJourney, 'pendingSteps' | 'step2Links'>
  locale: Locale
  now?: number
}): Promise<ClaimantStatus> {
  const ids = own.claims.map((claim) => claim.claimId)
  const rows =
    ids.length === 0
      ? []
      : await db
          .selectFrom('claims')
          .leftJoin('claim_cures', (join) =>
            join.onRef('claim_cures.claim_id', '=', 'claims.id').on('claim_cures.ended_at', 'is', null),
          )
          .select([
            'claims.id',
            'claims.app',
            'claims.review_status',
            'claims.case_number',
            'claim_cures.id as cure_id',
          ])
          .where('claims.id', 'in', ids)
          .orderBy('claims.id')
          .execute()
  const lang = locale === DEFAULT_LOCALE ? '' : `?lang=${locale}`
  const claims = await Promise.all(
    rows.map(async (row) => {
      const state = reviews(row.app).statuses[row.review_status]?.claimant ?? 'received'
      const cureUrl =
        state === 'attention' && row.cure_id !== null
          ? `${CURE_PAGE_PATH}${lang}#token=${await issueCureLink(db, Number(row.cure_id), now)}`
          : undefined
      return {
        claimId: Number(row.id),
        app: row.app,
        appName: forms.get(row.app)?.displayName ?? row.app,
        state,
        ...(cureUrl ? { cureUrl } : {}),
        ...(state === 'filed' && row.case_number !== null ? { caseNumber: row.case_number } : {}),
      }
    }),
  )
  const intakes = [...own.intakes].sort((a, b) => a.intakeId - b.intakeId)
  const pending = (
    await Promise.all(intakes.map((intake) => journey.pendingSteps(intake.intakeId, now)))
  ).flat()
  const first = intakes[0]
  // an app missed on the main form can still be added, tied to the same intake
  const done = new Set([...own.intakes.flatMap((intake) => intake.apps), ...rows.map((row) => row.app)])
  const others = first
    ? journey.step2Links({
        intakeId: first.intakeId,
        apps: [...forms.keys()].filter((app) => !done.has(app)),
        locale,
        now,
      })
    : []
  return {
    ...(first ? { reference: intakeReference(first.intakeId) } : {}),
    claims,
    pending,
    others,
  }
}
