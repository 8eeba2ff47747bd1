import { phoneDigits } from '../src/phone.ts'
import { request, timeSequential, type Timings } from './http.ts'
import { claimantFor, unit, type Claimant } from '../scripts/seed/claimants.ts'
import { appForClaim, type SeedPlan } from '../scripts/seed/seed-rows.ts'

export interface SearchTimings extends Timings {
  kind: string
  /** Median number of matching claims (the response's count). */
  medianMatches: number
}

/** Claimants of `app` the seed made, rebuilt from their numbers (the seed is deterministic). */
export function sampleClaimants({
  plan,
  claims,
  app,
  count,
  salt,
  every = 1,
}: {
  plan: SeedPlan
  claims: number
  app: string
  count: number
  salt: number
  every?: number
}): Claimant[] {
  const found: Claimant[] = []
  const seen = new Set<number>()
  for (let attempt = 0; found.length < count && attempt < count * 1000; attempt++) {
    const k = plan.personOffset + Math.floor(unit(attempt, salt) * claims)
    if (seen.has(k) || k % every !== 0 || appForClaim(plan, k) !== app) continue
    seen.add(k)
    found.push(claimantFor(k))
  }
  if (found.length < count) throw new Error(`found only ${found.length} seeded claimants of ${app}`)
  return found
}

/**
 * A search kind with this ending also filters by review status: 'received', which every seeded claim
 * is in, so that the filter narrows nothing and the search pays its full cost.
 */
const STATUS_FILTERED = ', status received'

/**
 * What staff type: part of an e-mail, a surname, part of a formatted phone, and phone digits; and a
 * surname with the list filtered by status.
 */
export function searchTerms(claimants: Claimant[]): Record<string, string[]> {
  return {
    [`name (surname)${STATUS_FILTERED}`]: claimants.map(({ lastName }) => lastName),
    'e-mail fragment': claimants.map(({ email }) => {
      const local = email.slice(0, email.indexOf('@'))
      return local.length > 8 ? local.slice(-8) : `${local}@`
    }),
    'name (surname)': claimants.map(({ lastName }) => lastName),
    'formatted phone fragment': claimants.map(({ phoneNumber }) => phoneNumber.slice(-8)),
    'digits-only phone fragment': claimants.map(({ phoneNumber }) => phoneDigits(phoneNumber).slice(1, 8)),
  }
}

export async function benchSearches({
  baseUrl,
  cookie,
  app,
  terms,
  maxMs,
}: {
  baseUrl: string
  cookie: string
  app: string
  terms: Record<string, string[]>
  maxMs: number
}): Promise<SearchTimings[]> {
  const results: SearchTimings[] = []
  for (const [kind, list] of Object.entries(terms)) {
    const timings = await timeSequential({
      count: list.length,
      maxMs,
      warmup: kind.startsWith('broad') ? 1 : 3,
      send: (i) =>
        listPage({
          baseUrl,
          cookie,
          app,
          q: list[i % list.length]!,
          status: kind.endsWith(STATUS_FILTERED) ? 'received' : undefined,
        }),
    })
    const matches = timings.responses
      .map((response) => (JSON.parse(response.body.toString()) as { count: number }).count)
      .sort((a, b) => a - b)
    const { responses: _responses, ...figures } = timings
    results.push({ kind, ...figures, medianMatches: matches[Math.floor(matches.length / 2)] ?? 0 })
  }
  return results
}

function listPage({
  baseUrl,
  cookie,
  app,
  q,
  status,
}: {
  baseUrl: string
  cookie: string
  app: string
  q: string
  status?: string | undefined
}) {
  const params = new URLSearchParams()
  if (q !== '') params.set('q', q)
  if (status) params.set('status', status)
  const query = params.size === 0 ? '' : `?${params}`
  return request(`${baseUrl}/api/staff/apps/${app}/submissions${query}`, { headers: { Cookie: cookie } })
}

/** The stats cards and 90-day chart of each app in `apps`, `perApp` times each. */
export async function benchStats({
  baseUrl,
  cookie,
  apps,
  perApp,
  maxMs,
}: {
  baseUrl: string
  cookie: string
  apps: string[]
  perApp: number
  maxMs: number
}): Promise<Timings> {
  const { responses: _responses, ...figures } = await timeSequential({
    count: apps.length * perApp,
    maxMs,
    send: (i) =>
      request(`${baseUrl}/api/staff/apps/${apps[i % apps.length]}/stats`, { headers: { Cookie: cookie } }),
  })
  return figures
}
