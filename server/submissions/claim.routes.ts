import { adoptIntakeSignature } from '../intake/adopted-signature.ts'
import { intakeForClaim } from '../confirmations/intake-ties.ts'
import { Router, type RequestHandler } from 'express'
import type { Kysely } from 'kysely'
import type { FormConfig } from '../../src/form-config.ts'
import type { AgreementCopies } from '../agreements/agreement-copies.ts'
import type { AgreementTemplates } from '../agreements/agreement-templates.ts'
import type { DuplicateScreenshots } from '../duplicates/duplicate-screenshots.ts'
import type { Database } from '../db/database.ts'
import { findFormOrThrow } from '../forms/find-form.ts'
import type { Languages } from '../forms/languages.ts'
import { requestLocale } from '../platform/request-locale.ts'
import type { ScreenshotStorage } from '../uploads/screenshot-storage.ts'
import { claimUpload } from '../uploads/upload-middleware.ts'
import { readClaimFields } from './claim-input.ts'
import { signerOf } from '../platform/signer.ts'
import { claimStore } from './claim-store.ts'
import { contentThreadChecker } from '../claim-content/claim-content.ts'
import { assertFormTakesClaims, createClaim } from './create-claim.ts'
import type { CreatedStep2Claim } from '../../src/api/claims.ts'
import type { PublicDoor } from '../public-doors.ts'
import { linkOrigin } from '../public-origin.ts'
import type { ClaimantJourney } from '../journey/claimant-journey.ts'
import { claimNextSteps } from '../journey/claim-next-steps.ts'
import { queueWebhookEventAfterCommit } from '../webhooks/webhook-events.ts'

/** POST /api/forms/:slug/submissions — one endpoint for every app's Step 2 claims. */
export function claimRoutes({
  db,
  forms,
  languages,
  storage,
  templates,
  agreementCopies,
  duplicateScreenshots,
  fraudScores,
  evidenceKey,
  guardPost,
  journey,
}: {
  db: Kysely<Database>
  forms: Map<string, FormConfig>
  languages: Languages
  storage: ScreenshotStorage
  templates: AgreementTemplates
  agreementCopies: AgreementCopies
  /** Checks the claim's screenshot against other claimants' once the server is quiet. */
  duplicateScreenshots?: Pick<DuplicateScreenshots, 'wake'>
  /** Scores the claim for fraud once the server is quiet. */
  fraudScores?: { wake(): void } | undefined
  evidenceKey: Buffer
  /** The Origin check and the limits every public POST passes first (guardPublicPost). */
  guardPost: (door: PublicDoor) => RequestHandler
  /** Reads the pre-fill token a claim from a Step 2 link carries, and gives the intake's next links. */
  journey: Pick<ClaimantJourney, 'tokens' | 'pendingSteps'>
}): Router {
  const router = Router({ caseSensitive: true })
  const services = {
    claims: claimStore(db, evidenceKey),
    storage,
    checkContent: contentThreadChecker(templates),
    templateVersion: templates.version,
    intakeFor: (contact: { email: string; phoneNumber: string; linkedIntakeId?: number }) =>
      intakeForClaim(db, contact),
    // no token that names an intake, nothing to adopt
    adoptSignature: async (contact: { email: string; phoneNumber: string; linkedIntakeId?: number }) =>
      adoptIntakeSignature(db, {
        tie: contact.linkedIntakeId === undefined ? undefined : await intakeForClaim(db, contact),
      }),
  }
  router.post(
    '/api/forms/:slug/submissions',
    (req, _res, next) => {
      // answer 404 or 410 before reading a 10 MB body
      assertFormTakesClaims(findFormOrThrow(forms, String(req.params.slug)))
      next()
    },
    guardPost('claim'),
    claimUpload,
    async (req, res) => {
      const slug = String(req.params.slug)
      // a reader of a language the app is not offered in was shown the English form: it is signed in English
      const locale = languages.formLocale(slug, requestLocale(req))
      const config = findFormOrThrow(languages.forms(locale), slug)
      const { rawData, agreementDate, signatureMethod, typedSignature, journeyToken, attribution, signals } =
        readClaimFields(req.body)
      const created = await createClaim(services, {
        config,
        locale,
        t: languages.t(locale),
        rawData,
        agreementDate,
        signing: { signatureMethod, typedSignature },
        file: req.file,
        signer: signerOf(req),
        siteOrigin: linkOrigin(req),
        // a forged, expired or other app's token ties nothing: the claim is matched by its contact instead
        linkedIntakeId: journey.tokens.readPrefill(journeyToken, slug),
        attribution,
        signals,
      })
      const nextSteps = await claimNextSteps({ db, journey, claimId: created.id, forPage: true })
      res.status(201).json({ ...created, nextSteps } satisfies CreatedStep2Claim)
      // the claimant's e-mail copy was queued with the claim; the sender takes it when the server is quiet
      agreementCopies.wake()
      duplicateScreenshots?.wake()
      fraudScores?.wake()
      queueWebhookEventAfterCommit(db, { type: 'claim.created', claimId: created.id })
    },
  )
  return router
}
