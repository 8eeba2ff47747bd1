import net from 'node:net'
import type { Express, Request } from 'express'

const PUBLIC_URL_SETTING = 'public url'
const OWN_ORIGIN_SETTING = 'own origin'

/** Records PUBLIC_URL on the app, where every request's handlers can read it. */
export function setPublicUrl(app: Express, publicUrl: string | undefined): void {
  app.set(PUBLIC_URL_SETTING, publicUrl)
}

/** Records the server's own origin, http://HOST:PORT: known only once it listens (PORT=0 picks the port then). */
export function setOwnOrigin(app: Express, origin: string): void {
  app.set(OWN_ORIGIN_SETTING, origin)
}

/**
 * The origin of the links the site e-mails (agreement links, confirmations, staff invitations):
 * PUBLIC_URL, else the server's own http://HOST:PORT, which config.ts allows only on a loopback HOST.
 * Never the Host header: anyone can send any Host, and a link e-mailed on their host would hand them
 * the token in its fragment.
 */
export function linkOrigin(req: Request): string {
  return publicUrlOf(req) ?? ownOriginOf(req)
}

/**
 * The site's origin as this request's user reaches it, for links they open themselves (the CSV's
 * screenshots): PUBLIC_URL when set (behind a proxy the Host header and the scheme are the proxy's
 * business), else the request's own scheme and Host. Never for e-mails: linkOrigin.
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

/**
 * The origin recorded after listen; for an app listened on by someone else (a test's supertest), the
 * address and port this connection came in on: the server's own either way.
 */
function ownOriginOf(req: Request): string {
  const recorded = req.app.get(OWN_ORIGIN_SETTING) as string | undefined
  if (recorded) return recorded
  const address = (req.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:(?=\d+\.)/, '')
  return `http://${net.isIPv6(address) ? `[${address}]` : address}:${req.socket.localPort}`
}
