/**
 * What the Funnel page reads (server/attribution/funnel.routes.ts): per campaign source, the main-form
 * intakes, the Step 2 claims per app, and of those the confirmed and the approved (Approved or Filed),
 * over a range of days. Confirmed and approved are each a share of the claims (the one cohort both come
 * from: an approved claim need not have been confirmed); claims per intake is an average. The fraud
 * rate is the held claims' share of the scored ones (a claim not scored yet is in neither).
 * @example const funnel: Funnel = await fetchJson('/api/staff/funnel?from=2026-11-01&to=2026-11-30')
 */
export interface FunnelRow {
  source: string
  intakes: number
  /** Step 2 claims by app slug (apps without any left out), and their total. */
  claimsByApp: Record<string, number>
  claims: number
  confirmed: number
  approved: number
  /** Of the claims, those with a fraud score. */
  scored: number
  /** Of the scored, those at or below their app's hold threshold and not cleared as "Not fraud". */
  held: number
}

/** GET /api/staff/funnel?from=YYYY-MM-DD&to=YYYY-MM-DD (UTC days, both included; the last 30 days by default). */
export interface Funnel {
  from: string
  to: string
  /** The apps that have claims in the range, in the config's order, with their names. */
  apps: { slug: string; name: string }[]
  /** One row per source, the most intakes first, then the most claims. */
  sources: FunnelRow[]
  total: FunnelRow
}

/**
 * A share of the same cohort, as the page and the CSV write it ("42.9 %"); "—" when the cohort is empty.
 * Only a part of `whole` goes here (the confirmed or the approved of the claims), so it stays within 100 %.
 */
export function conversion(part: number, whole: number): string {
  if (whole === 0) return '—'
  return `${((part / whole) * 100).toFixed(1)} %`
}

/**
 * Step 2 claims per main-form intake ("1.25 claims per intake"): an average, not a share, since one
 * claimant files a claim for each app; "—" with no intake.
 */
export function claimsPerIntake(claims: number, intakes: number): string {
  if (intakes === 0) return '—'
  const average = (claims / intakes).toFixed(2)
  return `${average} ${average === '1.00' ? 'claim' : 'claims'} per intake`
}
