import { sql, type Expression, type RawBuilder } from 'kysely'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'

/** The zone the CSV exports write times in: the firm's (firm.json's timeZone). */
export const CSV_TIME_ZONE = checkedTimeZone(FIRM_SETTINGS.timeZone)

/** How a time column's header names its zone, e.g. 'Submission Date (America/Los_Angeles)'. */
export function csvTimeLabel(label: string): string {
  return `${label} (${CSV_TIME_ZONE})`
}

const PARTS = new Intl.DateTimeFormat('en-US', {
  timeZone: CSV_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
})
// zones change their offset on the quarter hour at the finest, so one offset serves a quarter hour
const QUARTER_HOUR_MS = 15 * 60 * 1000
const offsets = new Map<number, number>()
const MAX_CACHED_OFFSETS = 100_000

/**
 * A stored time as Excel reads it, to the second, in the firm's zone: '2026-11-28 06:05:09' (seconds
 * cut, not rounded, as PostgreSQL's to_char does). Intl is asked once per quarter hour of times, so an
 * export of a million claims costs a cached offset and one toISOString a claim.
 */
export function csvTime(value: Date | string): string {
  const time = typeof value === 'string' ? Date.parse(value) : value.getTime()
  const local = new Date(time + offsetAt(time)).toISOString()
  return `${local.slice(0, 10)} ${local.slice(11, 19)}`
}

function offsetAt(time: number): number {
  const quarter = Math.floor(time / QUARTER_HOUR_MS)
  let offset = offsets.get(quarter)
  if (offset === undefined) {
    const start = quarter * QUARTER_HOUR_MS
    const part = (type: Intl.DateTimeFormatPartTypes) =>
      Number(PARTS.formatToParts(start).find((p) => p.type === type)!.value)
    offset =
      Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second')) -
      start
    if (offsets.size >= MAX_CACHED_OFFSETS) offsets.clear()
    offsets.set(quarter, offset)
  }
  return offset
}

/** csvTime in PostgreSQL, for a timestamptz: the same text, byte for byte. */
export function csvTimeSql(value: Expression<Date | string>): RawBuilder<string> {
  return sql<string>`to_char(${value} AT TIME ZONE ${sql.lit(CSV_TIME_ZONE)}, 'YYYY-MM-DD HH24:MI:SS')`
}

/** The zone's name, refused at start when Intl does not know it (a typo would misdate every export). */
function checkedTimeZone(zone: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone
  } catch {
    throw new Error(`firm.json: timeZone "${zone}" is not an IANA time zone (e.g. "America/Los_Angeles")`)
  }
}
