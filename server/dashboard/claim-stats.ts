import type { Kysely } from 'kysely'
import type { StaffStats } from '../../src/api/staff.ts'
import type { ReviewConfig } from '../../src/review-config.ts'
import { FRAUD_TESTS, type FraudConfig } from '../../src/fraud-config.ts'
import type { Database } from '../db/database.ts'
import { appStatusCounts } from './status-counts.ts'
import { DAY_MS } from '../../src/durations.ts'

const DAILY_WINDOW_DAYS = 90

/**
 * The stat cards (averages rounded to whole numbers, 0 when empty; the confirmed claims) and claims per
 * UTC day for 90 days, read from the counters the claim_app_totals, claim_app_confirmed and
 * claim_app_days triggers keep; the claims per review status, from claim_app_statuses's (each status of
 * the review config with its label, in its order); the fraud tests' labels.
 */
export async function computeClaimStats(
  db: Kysely<Database>,
  {
    app,
    review,
    fraud,
    now = new Date(),
  }: { app: string; review: ReviewConfig; fraud: FraudConfig; now?: Date },
): Promise<StaffStats> {
  const todayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  const since = new Date(todayStart - (DAILY_WINDOW_DAYS - 1) * DAY_MS).toISOString().slice(0, 10)
  const [totals, confirmed, daily] = await Promise.all([
    db.selectFrom('claim_app_totals').selectAll().where('app', '=', app).executeTakeFirst(),
    db.selectFrom('claim_app_confirmed').select('confirmed').where('app', '=', app).executeTakeFirst(),
    db
      .selectFrom('claim_app_days')
      .select(['day', 'claims'])
      .where('app', '=', app)
      .where('day', '>=', since)
      .where('claims', '>', 0)
      .orderBy('day')
      .execute(),
  ])
  const total = Number(totals?.claims ?? 0)
  const statusCounts = await appStatusCounts(db, { app, initial: review.initial, total })
  const average = (sum: number | string | bigint | undefined) =>
    total === 0 ? 0 : Math.round(Number(sum) / total)
  return {
    total,
    avgMembershipMonths: average(totals?.membership_months_sum),
    avgCashAdvances: average(totals?.cash_advance_count_sum),
    confirmed: Number(confirmed?.confirmed ?? 0),
    daily: daily.map((row) => ({ date: row.day, count: Number(row.claims) })),
    statuses: Object.entries(review.statuses).map(([status, { label }]) => ({
      status,
      label,
      count: statusCounts.get(status) ?? 0,
    })),
    reasons: Object.entries(review.reasons).map(([name, { label }]) => ({ name, label })),
    fraudReasons: FRAUD_TESTS.map((code) => ({ code, label: fraud.tests[code].label })),
  }
}
