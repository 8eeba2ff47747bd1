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
 * cut, not rounded, as PostgreSQL's to_char does). Intl is asked once per quarter hour of times and the
 * rest is arithmetic, with no Date built: an export writes a million of these.
 */
export function csvTime(value: Date | string): string {
  const time = typeof value === 'string' ? parseUtc(value) : value.getTime()
  return wallClock(time + offsetAt(time))
}

/** SQLite's stored times are toISOString()'s 'YYYY-MM-DDTHH:MM:SS.sssZ', read digit by digit; others by Date.parse. */
function parseUtc(text: string): number {
  if (text.length !== 24 || text.charCodeAt(10) !== 84 /* T */ || text.charCodeAt(23) !== 90 /* Z */)
    return Date.parse(text)
  const at = (start: number, length: number) => {
    let n = 0
    for (let i = start; i < start + length; i++) n = n * 10 + text.charCodeAt(i) - 48
    return n
  }
  return Date.UTC(at(0, 4), at(5, 2) - 1, at(8, 2), at(11, 2), at(14, 2), at(17, 2), at(20, 3))
}

/** 'YYYY-MM-DD HH:MM:SS' of a time counted like Date's, its civil date by Howard Hinnant's days_from_civil inverse. */
function wallClock(time: number): string {
  const seconds = Math.floor(time / 1000)
  const days = Math.floor(seconds / 86_400)
  let rest = seconds - days * 86_400
  const hour = Math.floor(rest / 3600)
  rest -= hour * 3600
  const minute = Math.floor(rest / 60)
  const second = rest - minute * 60
  const z = days + 719_468
  const era = Math.floor(z / 146_097)
  const dayOfEra = z - era * 146_097
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  )
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153)
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  return `${year < 1000 ? String(year).padStart(4, '0') : year}-${two(month)}-${two(day)} ${two(hour)}:${two(minute)}:${two(second)}`
}

function two(n: number): string {
  return n < 10 ? `0${n}` : String(n)
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
