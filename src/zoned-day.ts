/** A calendar day: year, month (1-12) and day of the month. */
export interface CalendarDay {
  year: number
  month: number
  day: number
}

/**
 * The calendar day it is at `at` in `timeZone`.
 * @example zonedDay(Date.parse('2026-12-21T07:38:00Z'), 'America/Los_Angeles') // { year: 2026, month: 12, day: 20 }
 */
export function zonedDay(at: number, timeZone: string): CalendarDay {
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

/**
 * The instant a day starts (its midnight) in `timeZone`; `day` may run past the month's end, as
 * Date.UTC's does (day 32 of December is January 1). Right across a change of summer time.
 * @example startOfZonedDay({ year: 2026, month: 12, day: 21 }, 'America/Los_Angeles') // Date.parse('2026-12-21T08:00:00Z')
 */
export function startOfZonedDay({ year, month, day }: CalendarDay, timeZone: string): number {
  const utcMidnight = Date.UTC(year, month - 1, day)
  // the zone's offset asked twice: a change of summer time on the night itself lands right
  const first = utcMidnight - offsetAt(utcMidnight, timeZone)
  return utcMidnight - offsetAt(first, timeZone)
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
