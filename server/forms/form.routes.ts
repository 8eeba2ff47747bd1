import zlib from 'node:zlib'
import { Router, type Request, type Response } from 'express'
import type { FormConfig } from '../../src/form-config.ts'
import type { Languages } from './languages.ts'
import { requestLocale } from '../platform/request-locale.ts'
import { findFormOrThrow } from './find-form.ts'
import type { ValidatorModules } from './validator-modules.ts'

/**
 * GET /api/forms/:slug — the config the browser draws the form from (no claimant data in it) — and
 * GET /api/forms/:slug/validator.js, its schema's precompiled validator as an ES module; both in the
 * language `?lang` names.
 */
export function formRoutes({
  forms,
  languages,
  validators,
}: {
  forms: Map<string, FormConfig>
  languages: Languages
  validators: ValidatorModules
}): Router {
  const router = Router({ caseSensitive: true })
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
    const config = findFormOrThrow(languages.forms(requestLocale(req)), req.params.slug)
    res.set('Cache-Control', 'no-cache').json(config)
  })
  router.get('/api/forms/:slug/validator.js', async (req, res) => {
    const locale = languages.formLocale(req.params.slug, requestLocale(req))
    const config = findFormOrThrow(languages.forms(locale), req.params.slug)
    sendValidatorModule(req, res, await validators.forForm(config, locale))
  })
  return router
}

/**
 * A same-origin script (allowed by script-src 'self'), revalidated by its ETag after a config change,
 * gzipped for the browsers that accept it.
 */
export function sendValidatorModule(req: Request, res: Response, code: string): void {
  res.set({ 'Cache-Control': 'no-cache', Vary: 'Accept-Encoding' }).type('text/javascript')
  if (!req.acceptsEncodings('gzip')) {
    res.send(code)
    return
  }
  res.set('Content-Encoding', 'gzip').send(zlib.gzipSync(code))
}
