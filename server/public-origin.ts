import type { Express, Request } from 'express'

const PUBLIC_URL_SETTING = 'public url'

/** Records PUBLIC_URL on the app, where every request's handlers can read it. */
export function setPublicUrl(app: Express, publicUrl: string | undefined): void {
  app.set(PUBLIC_URL_SETTING, publicUrl)
}

/**
 * The site's origin as its users reach it: PUBLIC_URL when set (behind a proxy the Host header and the
 * scheme are the proxy's business), else the request's own scheme and Host, for a local install.
 */
export function siteOrigin(req: Request): string {
  return publicUrlOf(req) ?? `${req.protocol}://${req.get('host')}`
}

/** Whether users reach the site over HTTPS: PUBLIC_URL's scheme when set, else this request's. */
export function isHttpsSite(req: Request): boolean {
  const publicUrl = publicUrlOf(req)
  return publicUrl ? publicUrl.startsWith('https:') : req.secure
}

/**
 * Whether `source` (an Origin or Referer header) names this site: PUBLIC_URL's origin when set (a proxy
 * may rewrite Host), else the Host the request was sent to. Anything unparsable (or 'null') is not.
 */
export function isSameSite(req: Request, source: string | undefined): boolean {
  let url: URL | undefined
  try {
    url = source ? new URL(source) : undefined
  } catch {
    return false
  }
  if (!url) return false
  return hasPublicUrl(req) ? url.origin === siteOrigin(req) : url.host === req.get('host')
}

/** Whether PUBLIC_URL is set: then it, not the Host header, is what a same-origin check compares with. */
export function hasPublicUrl(req: Request): boolean {
  return publicUrlOf(req) !== undefined
}

function publicUrlOf(req: Request): string | undefined {
  return req.app.get(PUBLIC_URL_SETTING) as string | undefined
}
