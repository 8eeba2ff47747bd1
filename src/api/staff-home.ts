/**
 * What the staff home reads (server/dashboard/app-counts.routes.ts): for each app the account may see, how
 * many claims wait for a reviewer, are deficient (waiting on their claimant) and are approved, ready for
 * a notice or filing batch. Counts come from the counters the database keeps per app and status.
 * @example const { apps }: AppCounts = await fetchJson('/api/staff/app-counts')
 */
export interface AppCount {
  slug: string
  name: string
  toReview: number
  deficient: number
  readyToFile: number
}

/** GET /api/staff/app-counts, in the config's order of apps. */
export interface AppCounts {
  apps: AppCount[]
}
