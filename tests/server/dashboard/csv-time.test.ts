import { describe, expect, it } from 'vitest'
import { CSV_TIME_ZONE, csvTime } from '../../../server/platform/csv-time.ts'

const wallClock = new Intl.DateTimeFormat('en-US', {
  timeZone: CSV_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
})

/** The zone's wall clock as Intl gives it for each time, in the CSV's 'YYYY-MM-DD HH:MM:SS'. */
function expected(time: number): string {
  const parts = Object.fromEntries(wallClock.formatToParts(time).map((part) => [part.type, part.value]))
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`
}

describe('csvTime', () => {
  it("writes every time of two years as the firm zone's wall clock, across its clock changes", () => {
    const start = Date.UTC(2025, 0, 1, 0, 0, 0, 999)
    const end = Date.UTC(2027, 0, 1)
    // a step prime to the quarter hour and the day: every minute of the hour comes up, and many seconds
    for (let time = start; time < end; time += 37 * 60 * 1000 + 7 * 1000 + 1) {
      const text = new Date(time).toISOString()
      expect(csvTime(text), text).toBe(expected(time))
      expect(csvTime(new Date(time)), text).toBe(expected(time))
    }
  })

  it("writes the minutes around a zone's clock change as its wall clock shows them", () => {
    for (const zoneChange of [Date.UTC(2026, 2, 8, 10), Date.UTC(2026, 10, 1, 9)]) {
      for (let time = zoneChange - 2 * 3600_000; time <= zoneChange + 2 * 3600_000; time += 59_000) {
        expect(csvTime(new Date(time)), new Date(time).toISOString()).toBe(expected(time))
      }
    }
  })
})
