/**
 * What the Funnel page reads (server/attribution/funnel.routes.ts): per campaign source, the main-form
 * intakes, the Step 2 claims per app, and of those the confirmed and the approved (Approved or Filed),
 * over a range of days.
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

/** A step's share of the step before it, as the page and the CSV write it ("42.9 %"); "—" with none before. */
export function conversion(part: number, whole: number): string {
  if (whole === 0) return '—'
  return `${((part / whole) * 100).toFixed(1)} %`
}
