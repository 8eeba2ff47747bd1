import { sql, type Expression, type RawBuilder } from 'kysely'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'
import { DAY_MS } from '../../src/durations.ts'

/** The zone the CSV exports write times in: the firm's (firm.json's timeZone). */
export const CSV_TIME_ZONE = checkedTimeZone(FIRM_SETTINGS.timeZone)

/**
 * The column whose cell names the zone of every time in its record (CSV_TIME_ZONE, e.g.
 * America/Los_Angeles), right after the columns of the site an export replaces: the firms' imports look
 * the time columns up by the seed's names (`Submission Date`), which a zone in the header would change.
 */
export const TIME_ZONE_HEADER = 'Time Zone'

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
// zones change their offset on the quarter hour at the finest, and at most once a day
const QUARTER_HOUR_MS = 15 * 60 * 1000
/** By UTC day: the day's one offset, or, for a day the offset changes in, its offset a quarter hour. */
const offsets = new Map<number, number | number[]>()
const MAX_CACHED_DAYS = 100_000

/**
 * A stored time as Excel reads it, to the second, in the firm's zone: '2026-11-28 06:05:09' (seconds
 * cut, not rounded, as PostgreSQL's to_char does). Intl is asked twice per day of times (96 times more
 * for a day the clocks change in) and the rest is arithmetic, with no Date built: an export writes a
 * million of these over years of claims, and one Intl call costs about as much as 20 rows' rendering.
 */
export function csvTime(value: Date | string): string {
  const time = typeof value === 'string' ? parseUtc(value) : value.getTime()
  return wallClock(time + offsetAt(time))
}

/** SQLite's stored times are toISOString()'s 'YYYY-MM-DDTHH:MM:SS.sssZ', read digit by digit; others by Date.parse. */
function parseUtc(text: string): number {
  if (text.length !== 24 || text.charCodeAt(10) !== 84 /* T */ || text.charCodeAt(23) !== 90 /* Z */)
    return Date.parse(text)
  return Date.UTC(
    digits(text, 0, 4),
    digits(text, 5, 2) - 1,
    digits(text, 8, 2),
    digits(text, 11, 2),
    digits(text, 14, 2),
    digits(text, 17, 2),
    digits(text, 20, 3),
  )
}

/** The number the `length` digits at `start` of the text write. */
function digits(text: string, start: number, length: number): number {
  let n = 0
  for (let i = start; i < start + length; i++) n = n * 10 + text.charCodeAt(i) - 48
  return n
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

/**
 * When a day ('2026-11-28') starts in the firm's zone, in epoch ms: how the dashboards' date filters
 * read a date, so that a day is the firm's day, as the exports' times are.
 */
export function firmDayStart(date: string): number {
  const wall = Date.UTC(digits(date, 0, 4), digits(date, 5, 2) - 1, digits(date, 8, 2))
  // the offset at the wall time taken as UTC finds the instant to within a clock change; once more settles it
  return wall - offsetAt(wall - offsetAt(wall))
}

/** The zone's offset from UTC at this time, in milliseconds. */
function offsetAt(time: number): number {
  const day = Math.floor(time / DAY_MS)
  let offset = offsets.get(day)
  if (offset === undefined) {
    if (offsets.size >= MAX_CACHED_DAYS) offsets.clear()
    offset = dayOffsets(day * DAY_MS)
    offsets.set(day, offset)
  }
  return typeof offset === 'number' ? offset : offset[Math.floor((time - day * DAY_MS) / QUARTER_HOUR_MS)]!
}

/** The offset of the day starting at `start` when it holds from its start to the next day's, else its quarter hours'. */
function dayOffsets(start: number): number | number[] {
  const first = offsetFromIntl(start)
  if (offsetFromIntl(start + DAY_MS) === first) return first
  return Array.from({ length: DAY_MS / QUARTER_HOUR_MS }, (_, quarter) =>
    offsetFromIntl(start + quarter * QUARTER_HOUR_MS),
  )
}

function offsetFromIntl(time: number): number {
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    Number(PARTS.formatToParts(time).find((p) => p.type === type)!.value)
  return (
    Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second')) -
    time
  )
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
