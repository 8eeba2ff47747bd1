import { Router } from 'express'
import type { Kysely } from 'kysely'
import type { FormConfig } from '../../src/form-config.ts'
import type { Database } from '../db/database.ts'
import { findFormOrThrow } from '../forms/form.routes.ts'
import type { ScreenshotStorage } from '../uploads/screenshot-storage.ts'
import { claimUpload, DATA_FIELD } from '../uploads/upload-middleware.ts'
import { assertFormTakesClaims, createClaim } from './create-claim.ts'

/** POST /api/forms/:slug/submissions — one endpoint for every app's Step 2 claims. */
export function claimRoutes({
  db,
  forms,
  storage,
}: {
  db: Kysely<Database>
  forms: Map<string, FormConfig>
  storage: ScreenshotStorage
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
      const created = await createClaim({ db, storage, config, rawData: body[DATA_FIELD], file: req.file })
      res.status(201).json(created)
    },
  )
  return router
}
