import { Router } from 'express'
import type { FormConfig } from '../../src/form-config.ts'
import type { FilingSettingsView } from '../../src/filing-config.ts'
import { findFormOrThrow } from '../forms/find-form.ts'
import { assertCanSee } from '../staff/require-staff.ts'
import type { AppFiling } from './load-filing-config.ts'

/** GET /api/staff/apps/:slug/filing: the app's filing settings as the config sets them, read-only. */
export function filingRoutes({
  forms,
  filings,
}: {
  forms: Map<string, FormConfig>
  filings: (app: string) => AppFiling
}): Router {
  const router = Router({ caseSensitive: true })
  router.get('/api/staff/apps/:slug/filing', (req, res) => {
    const { slug, displayName } = findFormOrThrow(forms, req.params.slug)
    assertCanSee(res, slug)
    const { settings, profile } = filings(slug)
    res
      .set('Cache-Control', 'private, no-store')
      .json({ ...settings, app: slug, appName: displayName, profile } satisfies FilingSettingsView)
  })
  return router
}
