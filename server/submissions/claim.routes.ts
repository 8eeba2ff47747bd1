import { Router } from 'express'
import type { Kysely } from 'kysely'
import type { FormConfig } from '../../src/form-config.ts'
import { agreementDocument, agreementFileName } from '../agreements/agreement-document.ts'
import type { AgreementMailer } from '../agreements/agreement-mailer.ts'
import type { AgreementTemplates } from '../agreements/agreement-templates.ts'
import type { Database } from '../db/database.ts'
import { findFormOrThrow } from '../forms/form.routes.ts'
import type { ScreenshotStorage } from '../uploads/screenshot-storage.ts'
import { claimUpload, DATA_FIELD } from '../uploads/upload-middleware.ts'
import { assertFormTakesClaims, createClaim } from './create-claim.ts'

const MAX_USER_AGENT_LENGTH = 512

/** POST /api/forms/:slug/submissions — one endpoint for every app's Step 2 claims. */
export function claimRoutes({
  db,
  forms,
  storage,
  templates,
  mailer,
}: {
  db: Kysely<Database>
  forms: Map<string, FormConfig>
  storage: ScreenshotStorage
  templates: AgreementTemplates
  mailer: AgreementMailer
}): Router {
  const router = Router()
  router.post(
    '/api/forms/:slug/submissions',
    (req, _res, next) => {
      // answer 404 or 410 before reading a 10 MB body
      assertFormTakesClaims(findFormOrThrow(forms, String(req.params.slug)))
      next()
    },
    claimUpload,
    async (req, res) => {
      const config = findFormOrThrow(forms, String(req.params.slug))
      const body = (req.body ?? {}) as Record<string, unknown>
      const created = await createClaim({
        db,
        storage,
        templates,
        config,
        rawData: body[DATA_FIELD],
        agreementDate: body.agreementDate,
        file: req.file,
        signer: {
          ipAddress: req.ip ?? 'unknown',
          userAgent: (req.get('user-agent') ?? '').slice(0, MAX_USER_AGENT_LENGTH),
        },
      })
      res.status(201).json({ id: created.id, createdAt: created.createdAt })

      // the copy is a courtesy: it is sent after the claim is safe, and its failure is only logged
      const { claim, agreement } = created
      if (agreement.html.trim() === '') return // this app's form shows no agreement: nothing to send
      const title = `${config.displayName} Attorney-Client Contingency Fee Agreement`
      void mailer.send({
        to: claim.email.trim(),
        claimantName: `${claim.firstName.trim()} ${claim.lastName.trim()}`,
        appName: config.displayName,
        filename: agreementFileName({ firstName: claim.firstName, lastName: claim.lastName }, 'html'),
        html: agreementDocument({
          title,
          html: agreement.html,
          audit: {
            claimId: created.id,
            app: config.slug,
            signedAt: agreement.signedAt,
            ipAddress: req.ip ?? 'unknown',
            userAgent: (req.get('user-agent') ?? '').slice(0, MAX_USER_AGENT_LENGTH),
            sha256: agreement.sha256,
            templateVersion: agreement.templateVersion,
          },
        }),
      })
    },
  )
  return router
}
