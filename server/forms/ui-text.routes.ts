import zlib from 'node:zlib'
import { Router } from 'express'
import type { Locale } from '../../src/translate.ts'
import type { Languages } from './languages.ts'
import { requestLocale } from '../platform/request-locale.ts'

/**
 * GET /api/ui-text?lang=es — the pages' own texts in that language, keyed by their English; gzipped
 * once per language for the browsers that accept it (all of them), as a Spanish page waits for it.
 */
export function uiTextRoutes({ languages }: { languages: Languages }): Router {
  const router = Router({ caseSensitive: true })
  const bodies = new Map<Locale, { json: string; gzip: Buffer }>()
  router.get('/api/ui-text', (req, res) => {
    const locale = requestLocale(req)
    let body = bodies.get(locale)
    if (!body) {
      const json = JSON.stringify(languages.browserTexts(locale))
      body = { json, gzip: zlib.gzipSync(json) }
      bodies.set(locale, body)
    }
    res.set({ 'Cache-Control': 'no-cache', Vary: 'Accept-Encoding' }).type('json')
    if (req.acceptsEncodings('gzip')) res.set('Content-Encoding', 'gzip').send(body.gzip)
    else res.send(body.json)
  })
  return router
}
