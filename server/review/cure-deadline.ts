import type { Kysely, Transaction } from 'kysely'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'
import type { Database } from '../db/database.ts'

const DAY_MS = 24 * 60 * 60 * 1000

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
  const { year, month, day } = localDate(startedAt + days * DAY_MS, timeZone)
  // the next day's local midnight: its UTC midnight moved by the zone's offset, asked twice so a change
  // of summer time on that night lands right
  const utcMidnight = Date.UTC(year, month - 1, day + 1)
  const first = utcMidnight - offsetAt(utcMidnight, timeZone)
  const midnight = utcMidnight - offsetAt(first, timeZone)
  return midnight - 1
}

function localDate(at: number, timeZone: string): { year: number; month: number; day: number } {
  const [year, month, day] = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  })
    .format(at)
    .split('-')
    .map(Number)
  return { year: year!, month: month!, day: day! }
}

/** How far the zone's wall clock is ahead of UTC at `at`, in milliseconds (negative west of Greenwich). */
function offsetAt(at: number, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
      .formatToParts(at)
      .map((part) => [part.type, Number(part.value)]),
  ) as Record<string, number>
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!)
  return wall - (at - (at % 1000))
}
