import type { Kysely, Transaction } from 'kysely'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'
import { startOfZonedDay, zonedDay } from '../../src/zoned-day.ts'
import type { Database } from '../db/database.ts'
import { DAY_MS } from '../../src/durations.ts'

/**
 * The zone a claimant counts their days in: their main form's state's (claimant_journeys.time_zone), else
 * the firm's. Never the server's own, which may already be on the next day.
 */
export async function claimantTimeZone(
  db: Kysely<Database> | Transaction<Database>,
  claimId: number,
): Promise<string> {
  const row = await db
    .selectFrom('claims')
    .leftJoin('claimant_journeys', 'claimant_journeys.intake_id', 'claims.intake_id')
    .select('claimant_journeys.time_zone')
    .where('claims.id', '=', claimId)
    .executeTakeFirst()
  return row?.time_zone ?? FIRM_SETTINGS.timeZone
}

/**
 * The one instant a cure period ends: the end (23:59:59.999) of its last day in the claimant's zone, the
 * day `days` after it starts there. The notice names that day, the staff see that instant in the firm's
 * zone, and the link works until it: a claimant acting any time on the day they were given is in time.
 */
export function cureDeadline({
  startedAt,
  days,
  timeZone,
}: {
  startedAt: number
  days: number
  timeZone: string
}): number {
  const last = zonedDay(startedAt + days * DAY_MS, timeZone)
  return startOfZonedDay({ ...last, day: last.day + 1 }, timeZone) - 1
}
