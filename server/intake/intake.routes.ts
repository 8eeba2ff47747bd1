import express, { Router, type RequestHandler } from 'express'
import type { Kysely } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import type { Database } from '../db/database.ts'
import { describeContentType } from '../error-handler.ts'
import { sendValidatorModule } from '../forms/form.routes.ts'
import type { ValidatorModules } from '../forms/validator-modules.ts'
import type { AgreementTemplates } from '../agreements/agreement-templates.ts'
import type { Languages } from '../forms/languages.ts'
import { signerOf } from '../platform/signer.ts'
import { requestLocale } from '../platform/request-locale.ts'
import { createIntake, DUPLICATE_INTAKE_LINK_MESSAGE } from './create-intake.ts'
import type { AgreementLinks } from '../agreements/agreement-links.ts'
import { storedPhoneCandidates } from '../../src/phone.ts'
import { intakeContentThreadChecker } from '../claim-content/claim-content.ts'
import type { CreatedIntake } from '../../src/api/claims.ts'
import type { PublicDoor } from '../public-doors.ts'
import { linkOrigin } from '../public-origin.ts'
import { intakeReference } from '../../src/journey-config.ts'
import type { ClaimantJourney } from '../journey/claimant-journey.ts'
import { queueWebhookEventAfterCommit } from '../webhooks/webhook-events.ts'

/** The main intake form (public); its military figures are staff's (military.routes.ts). */
export function intakeRoutes({
  db,
  templates,
  languages,
  validators,
  evidenceKey,
  guardPost,
  journey,
  reminders,
  agreementLinks,
}: {
  db: Kysely<Database>
  templates: AgreementTemplates
  languages: Languages
  validators: ValidatorModules
  evidenceKey: Buffer
  /** The Origin check and the limits every public POST passes first (guardPublicPost). */
  guardPost: (door: PublicDoor) => RequestHandler
  /** The claimant's Step 2 links. */
  journey: Pick<ClaimantJourney, 'step2Links'>
  /** The job that sends the e-mail after the intake (journey/send-reminder.job.ts). */
  reminders: { wake(): void }
  /** E-mails a returning claimant the link to their claims. */
  agreementLinks: Pick<AgreementLinks, 'request'>
}): Router {
  const router = Router({ caseSensitive: true })
  const checkContent = intakeContentThreadChecker(templates)
  router.get('/api/intake/config', (req, res) => {
    res.set('Cache-Control', 'no-cache').json(languages.intake(requestLocale(req)))
  })
  router.get('/api/intake/validator.js', async (req, res) => {
    const locale = languages.intakeLocale(requestLocale(req))
    sendValidatorModule(req, res, await validators.forIntake(languages.intake(locale), locale))
  })
  // the signature travels inside the JSON as a PNG data URL; strict: false lets createIntake name a
  // top-level null or number instead of body-parser calling it invalid JSON
  router.post(
    '/api/intake',
    guardPost('intake'),
    requireJsonBody,
    express.json({ limit: '1500kb', strict: false }),
    async (req, res) => {
      // a reader of a language the intake is not offered in was shown it in English: it is signed in English
      const locale = languages.intakeLocale(requestLocale(req))
      const created = await createIntake({
        db,
        evidenceKey,
        templates,
        checkContent,
        config: languages.intake(locale),
        locale,
        t: languages.t(locale),
        data: req.body,
        agreementDate: req.query.agreementDate,
        signer: signerOf(req),
        linkOrigin: linkOrigin(req),
      }).catch((error: unknown) => {
        if (!(error instanceof AppError) || error.code !== 'DUPLICATE_SUBMISSION') throw error
        // a returning claimant: the one-time link to their claims goes to the stored address (the same
        // as the lookup's, limited the same way), where they see where they stand and add an app
        const { email, phone } = req.body as { email: string; phone: string }
        agreementLinks.request({
          contact: { email: email.trim().toLowerCase(), phoneNumbers: storedPhoneCandidates(phone) },
          origin: linkOrigin(req),
          locale,
        })
        throw new AppError('DUPLICATE_SUBMISSION', { status: 409, message: DUPLICATE_INTAKE_LINK_MESSAGE })
      })
      res.status(201).json({
        id: created.id,
        createdAt: created.createdAt,
        reference: intakeReference(created.id),
        steps: journey.step2Links({ intakeId: created.id, apps: created.apps, locale }),
      } satisfies CreatedIntake)
      // the e-mail with the agreement and these links is due now; the sender takes it when the server is quiet
      reminders.wake()
      queueWebhookEventAfterCommit(db, { type: 'intake.created', intakeId: created.id })
    },
  )
  return router
}

/** express.json skips other content types silently, which would leave an empty intake to explain. */
const requireJsonBody: RequestHandler = (req, _res, next) => {
  if (req.is('application/json')) return next()
  throw new AppError('BAD_REQUEST', {
    status: 400,
    message: `send the intake as a JSON object with Content-Type "application/json" (${describeContentType(req)})`,
  })
}
