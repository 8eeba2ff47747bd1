import { Router } from 'express'
import type { Languages } from './languages.ts'
import { requestLocale } from './request-locale.ts'

/** GET /api/ui-text?lang=es — the pages' own texts in that language, keyed by their English. */
export function uiTextRoutes({ languages }: { languages: Languages }): Router {
  const router = Router()
  router.get('/api/ui-text', (req, res) => {
    res.set('Cache-Control', 'no-cache').json(languages.browserTexts(requestLocale(req)))
  })
  return router
}
