import { HOUR_MS } from '../../src/durations.ts'

/**
 * Each state's main time zone, for the hours reminders may go out in. A state split between two zones
 * takes the one most of its people live in; an hour off for the rest still lands in their day.
 */
const STATE_TIME_ZONES: Record<string, string> = {
  AL: 'America/Chicago',
  AK: 'America/Anchorage',
  AZ: 'America/Phoenix',
  AR: 'America/Chicago',
  CA: 'America/Los_Angeles',
  CO: 'America/Denver',
  CT: 'America/New_York',
  DE: 'America/New_York',
  DC: 'America/New_York',
  FL: 'America/New_York',
  GA: 'America/New_York',
  HI: 'Pacific/Honolulu',
  ID: 'America/Boise',
  IL: 'America/Chicago',
  IN: 'America/Indiana/Indianapolis',
  IA: 'America/Chicago',
  KS: 'America/Chicago',
  KY: 'America/New_York',
  LA: 'America/Chicago',
  ME: 'America/New_York',
  MD: 'America/New_York',
  MA: 'America/New_York',
  MI: 'America/Detroit',
  MN: 'America/Chicago',
  MS: 'America/Chicago',
  MO: 'America/Chicago',
  MT: 'America/Denver',
  NE: 'America/Chicago',
  NV: 'America/Los_Angeles',
  NH: 'America/New_York',
  NJ: 'America/New_York',
  NM: 'America/Denver',
  NY: 'America/New_York',
  NC: 'America/New_York',
  ND: 'America/Chicago',
  OH: 'America/New_York',
  OK: 'America/Chicago',
  OR: 'America/Los_Angeles',
  PA: 'America/New_York',
  RI: 'America/New_York',
  SC: 'America/New_York',
  SD: 'America/Chicago',
  TN: 'America/Chicago',
  TX: 'America/Chicago',
  UT: 'America/Denver',
  VT: 'America/New_York',
  VA: 'America/New_York',
  WA: 'America/Los_Angeles',
  WV: 'America/New_York',
  WI: 'America/Chicago',
  WY: 'America/Denver',
}

/** The state's time zone; the firm's own (firm.json) for a state it does not know. */
export function stateTimeZone(state: string, fallback: string): string {
  return STATE_TIME_ZONES[state] ?? fallback
}

/**
 * `at` if it falls within the claimant's sending hours ([from, to) in `timeZone`), else the next
 * start of those hours. Judged by the local clock at `at`: a change of summer time in between moves
 * the result by that hour at most.
 */
export function withinSendHours(
  at: number,
  timeZone: string,
  { from, to }: { from: number; to: number },
): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(new Date(at))
  const hour = Number(parts.find((part) => part.type === 'hour')?.value ?? 0)
  const minute = Number(parts.find((part) => part.type === 'minute')?.value ?? 0)
  if (hour >= from && hour < to) return at
  const hoursToStart = hour < from ? from - hour : 24 - hour + from
  // to the start of the hour `from`, on the local clock
  return at + hoursToStart * HOUR_MS - minute * 60_000 - (at % 60_000)
}
