import express, { Router, type RequestHandler } from 'express'
import type { Kysely } from 'kysely'
import type { CureSent, CureView } from '../../src/api/cure.ts'
import type { FormConfig } from '../../src/form-config.ts'
import type { Reviews } from '../../src/review-config.ts'
import type { AgreementTemplates } from '../agreements/agreement-templates.ts'
import { signerOf } from '../platform/signer.ts'
import type { Database } from '../db/database.ts'
import type { DuplicateScreenshots } from '../duplicates/duplicate-screenshots.ts'
import type { Languages } from '../forms/languages.ts'
import { requestLocale } from '../platform/request-locale.ts'
import type { PublicDoor } from '../public-doors.ts'
import { sendScreenshot } from '../dashboard/send-screenshot.ts'
import type { ScreenshotStorage } from '../uploads/screenshot-storage.ts'
import { cureContentThreadChecker } from '../claim-content/claim-content.ts'
import { claimUpload } from '../uploads/upload-middleware.ts'
import { openCure, submitCure } from './cure-claim.ts'
import { refusedScreenshot } from './cure-screenshot.ts'

/**
 * The claimant's side of a deficiency notice. POST /api/cures/open reads what the link's claim needs
 * (a POST: the token never goes in a URL); POST /api/cures sends the corrections, multipart like a claim.
 */
export function cureRoutes({
  db,
  reviews,
  forms,
  languages,
  evidenceKey,
  storage,
  templates,
  duplicateScreenshots,
  guardPost,
}: {
  db: Kysely<Database>
  reviews: Reviews
  forms: Map<string, FormConfig>
  languages: Languages
  evidenceKey: Buffer
  storage: ScreenshotStorage
  templates: AgreementTemplates
  duplicateScreenshots?: Pick<DuplicateScreenshots, 'wake'> | undefined
  guardPost: (door: PublicDoor) => RequestHandler
}): Router {
  const checkContent = cureContentThreadChecker(templates)
  const router = Router({ caseSensitive: true })
  router.post('/api/cures/open', guardPost('cure'), express.json({ limit: '1kb' }), async (req, res) => {
    const view = await openCure(
      { db, reviews, forms, evidenceKey },
      {
        token: (req.body as { token?: unknown } | undefined)?.token,
        speaking: { t: languages.t(requestLocale(req)), translators: languages.t },
        opener: signerOf(req),
      },
    )
    res.set('Cache-Control', 'no-store').json(view satisfies CureView)
  })
  // the refused screenshot goes only to the holder of a live link, by POST so the token stays out of
  // every address; the page shows it from a blob
  router.post(
    '/api/cures/screenshot',
    guardPost('cure'),
    express.json({ limit: '1kb' }),
    async (req, res) => {
      const screenshot = await refusedScreenshot(
        { db, reviews, storage },
        {
          token: (req.body as { token?: unknown } | undefined)?.token,
          speaking: { t: languages.t(requestLocale(req)), translators: languages.t },
        },
      )
      await sendScreenshot(res, screenshot)
    },
  )
  router.post('/api/cures', guardPost('cure'), claimUpload, async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>
    const sent = await submitCure(
      { db, reviews, evidenceKey, storage, checkContent, duplicateScreenshots },
      {
        data: body.data,
        file: req.file,
        speaking: { t: languages.t(requestLocale(req)), translators: languages.t },
        signer: signerOf(req),
      },
    )
    res
      .status(201)
      .set('Cache-Control', 'no-store')
      .json(sent satisfies CureSent)
  })
  return router
}
