import { Router } from 'express'
import { AppError } from '../../src/app-error.ts'
import type { FormConfig } from '../../src/form-config.ts'

export function findFormOrThrow(forms: Map<string, FormConfig>, slug: string | undefined): FormConfig {
  const config = slug === undefined ? undefined : forms.get(slug)
  if (!config) throw new AppError('FORM_NOT_FOUND', { status: 404, message: `form "${slug}" not found` })
  return config
}

/** GET /api/forms/:slug — the config the browser draws the form from (no claimant data in it). */
export function formRoutes({ forms }: { forms: Map<string, FormConfig> }): Router {
  const router = Router()
  router.get('/api/forms', (_req, res) => {
    res.json({
      forms: [...forms.values()].map(({ slug, displayName, status }) => ({
        slug,
        displayName,
        state: status.state,
      })),
    })
  })
  router.get('/api/forms/:slug', (req, res) => {
    res.set('Cache-Control', 'no-cache').json(findFormOrThrow(forms, req.params.slug))
  })
  return router
}
