import type { Request } from 'express'
import { DEFAULT_LOCALE, parseLocale, type Locale } from '../../src/translate.ts'

/**
 * The language a claimant's page asked in: `?lang=es` on every request it makes (a page's own
 * address may carry it too); English otherwise.
 */
export function requestLocale(req: Request): Locale {
  return parseLocale(req.query.lang) ?? DEFAULT_LOCALE
}
