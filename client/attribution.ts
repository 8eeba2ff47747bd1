import { ATTRIBUTION_KEYS, cleanAttribution, type Attribution } from '../src/attribution.ts'

// in this browser's own storage, never a cookie: nothing goes to a third party, and the server sees it
// only with the intake or a claim the claimant sends
const STORAGE_KEY = 'claims-attribution'

/**
 * Keeps the first landing's campaign parameters and referring host, once: a claimant who came from an
 * ad and returns days later by a bookmark still counts for the ad (first touch). A landing without any
 * keeps nothing, so a later one with parameters still counts.
 */
export function rememberLanding(): void {
  try {
    if (localStorage.getItem(STORAGE_KEY) !== null) return
    const params = new URLSearchParams(window.location.search)
    const found: Record<string, string> = {}
    for (const key of ATTRIBUTION_KEYS) {
      const value = params.get(key)
      if (value !== null) found[key] = value
    }
    const referrer = referrerHost()
    if (referrer) found.referrer = referrer
    const attribution = cleanAttribution(found)
    if (attribution) localStorage.setItem(STORAGE_KEY, JSON.stringify(attribution))
  } catch {
    // storage can be off (private mode): the claim goes without its source
  }
}

/** What the intake and each claim send of where the claimant came from, if anything was kept. */
export function landingAttribution(): Attribution | undefined {
  try {
    const stored = localStorage.getItem(STORAGE_KEY)
    return stored === null ? undefined : cleanAttribution(JSON.parse(stored))
  } catch {
    return undefined
  }
}

/** The referring site's host, never its path (which can carry a search or a person's page); none from this site. */
function referrerHost(): string | undefined {
  if (!document.referrer) return undefined
  try {
    const host = new URL(document.referrer).host
    return host === window.location.host ? undefined : host
  } catch {
    return undefined
  }
}
