import { Router } from 'express'
import { FIRM_SETTINGS } from '../src/firm-settings.ts'

/** Words that say what kind of firm it is, not which one: left out of the monogram. */
const GENERIC_WORDS = new Set(['the', 'of', 'and', '&', 'law', 'group', 'firm', 'llp', 'llc', 'pc', 'apc'])

/**
 * The monogram: initials of the distinctive words of the firm's name, at most three.
 * @example firmInitials('Cash Advance Claims Law Group') // 'CAC'
 */
export function firmInitials(firmName: string): string {
  const words = firmName.split(/\s+/).filter(Boolean)
  const distinctive = words.filter((word) => !GENERIC_WORDS.has(word.toLowerCase()))
  return (distinctive.length > 0 ? distinctive : words)
    .slice(0, 3)
    .map((word) => word[0]?.toUpperCase() ?? '')
    .join('')
}

/** Our own mark: a shield with the firm's initials over a small balance beam. */
export function firmLogoSvg(firmName: string): string {
  const initials = firmInitials(firmName).replace(/[<>&"']/g, '')
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 115" width="100" height="115">
<title>${firmName.replace(/[<>&"']/g, '')}</title>
<path d="M50 4 L92 18 V55 C92 82 73 100 50 110 C27 100 8 82 8 55 V18 Z" fill="#1e3a8a" stroke="#fbbf24" stroke-width="5" stroke-linejoin="round"/>
<path d="M50 14 L83 25 V55 C83 76 68 91 50 99 C32 91 17 76 17 55 V25 Z" fill="none" stroke="#ffffff" stroke-opacity="0.35" stroke-width="1.5"/>
<g stroke="#fbbf24" stroke-width="2.5" stroke-linecap="round" fill="none">
<path d="M50 24 V34"/><path d="M30 31 H70"/>
<path d="M30 31 L24 42 H36 Z M70 31 L64 42 H76 Z" fill="#fbbf24" fill-opacity="0.25"/>
</g>
<text x="50" y="76" text-anchor="middle" fill="#ffffff" font-family="Georgia, 'Times New Roman', serif" font-weight="700" font-size="${initials.length > 2 ? 24 : 30}" letter-spacing="1">${initials}</text>
</svg>
`
}

/** The tab's icon: the firm's initials in white on a rounded square of the pages' blue. */
export function firmFaviconSvg(firmName: string): string {
  const initials = firmInitials(firmName).replace(/[<>&"']/g, '')
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">
<rect width="64" height="64" rx="14" fill="#1d4ed8"/>
<text x="32" y="32" dy="0.35em" text-anchor="middle" fill="#ffffff" font-family="Arial, Helvetica, sans-serif" font-weight="700" font-size="${initials.length > 2 ? 24 : 30}">${initials}</text>
</svg>
`
}

/**
 * GET /firm-logo.svg and GET /favicon.svg — the firm's mark and the tab's icon, drawn from firm.json:
 * claimant pages show them without carrying their drawing in their JavaScript. The icon is asked for
 * on every page load, so browsers keep it a week.
 */
export function firmLogoRoutes(): Router {
  const router = Router({ caseSensitive: true })
  const logo = firmLogoSvg(FIRM_SETTINGS.firmName)
  const favicon = firmFaviconSvg(FIRM_SETTINGS.firmName)
  router.get('/firm-logo.svg', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=3600').type('image/svg+xml').send(logo)
  })
  router.get('/favicon.svg', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=604800').type('image/svg+xml').send(favicon)
  })
  return router
}
