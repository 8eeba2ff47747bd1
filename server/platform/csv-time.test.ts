import { describe, expect, it } from 'vitest'
import { CSV_TIME_ZONE, csvTime } from './csv-time.ts'

/** The firm's wall clock as Intl gives it: Sweden's format is 'YYYY-MM-DD HH:MM:SS'. */
function intlWallClock(time: number): string {
  return new Date(time).toLocaleString('sv-SE', { timeZone: CSV_TIME_ZONE })
}

describe('csvTime', () => {
  it("writes the firm's wall clock to the second, as Intl does, for stored text and for a Date", () => {
    const start = Date.UTC(2024, 0, 1)
    const end = Date.UTC(2030, 0, 1)
    // every 95,939,993 ms (about 26 h 39 min, odd seconds and milliseconds) over six years
    for (let time = start; time < end; time += 95_939_993) {
      expect(csvTime(new Date(time).toISOString())).toBe(intlWallClock(time))
      expect(csvTime(new Date(time))).toBe(intlWallClock(time))
    }
  })

  it('cuts the milliseconds rather than rounding them, on both sides of a clock change', () => {
    expect(csvTime('2026-03-08T09:59:59.999Z')).toBe('2026-03-08 01:59:59')
    expect(csvTime('2026-03-08T10:00:00.000Z')).toBe('2026-03-08 03:00:00')
    expect(csvTime('2026-11-01T08:59:59.999Z')).toBe('2026-11-01 01:59:59')
    expect(csvTime('2026-11-01T09:00:00.000Z')).toBe('2026-11-01 01:00:00')
  })
})
