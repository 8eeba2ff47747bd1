import { describe, expect, it } from 'vitest'
import { cureDeadline } from './cure-deadline.ts'
import { DAY_MS } from '../../src/durations.ts'

const wallClock = (at: number, timeZone: string) =>
  `${new Date(at).toLocaleString('sv-SE', { timeZone })}.${String(at % 1000).padStart(3, '0')}`

describe('cureDeadline', () => {
  it("ends at the last moment of the period's last day in the claimant's zone", () => {
    // Dec 6, 11:38 PM in Los Angeles
    const startedAt = Date.parse('2026-12-07T07:38:00Z')
    const end = cureDeadline({ startedAt, days: 14, timeZone: 'America/Los_Angeles' })
    expect(wallClock(end, 'America/Los_Angeles')).toBe('2026-12-20 23:59:59.999')
    expect(new Date(end).toISOString()).toBe('2026-12-21T07:59:59.999Z')
  })

  it("counts the day in the claimant's zone, not the firm's or the server's", () => {
    const startedAt = Date.parse('2026-12-07T07:38:00Z')
    const end = cureDeadline({ startedAt, days: 14, timeZone: 'America/New_York' })
    // already Dec 7 in New York when the claim was made deficient
    expect(wallClock(end, 'America/New_York')).toBe('2026-12-21 23:59:59.999')
    const honolulu = cureDeadline({ startedAt, days: 14, timeZone: 'Pacific/Honolulu' })
    expect(wallClock(honolulu, 'Pacific/Honolulu')).toBe('2026-12-20 23:59:59.999')
  })

  it('lands on the end of the local day across a change of summer time', () => {
    // last day Nov 1, 2026, when Los Angeles falls back an hour at 2 AM
    const startedAt = Date.parse('2026-10-25T19:00:00Z')
    const end = cureDeadline({ startedAt, days: 7, timeZone: 'America/Los_Angeles' })
    expect(wallClock(end, 'America/Los_Angeles')).toBe('2026-11-01 23:59:59.999')
    expect(wallClock(end + 1, 'America/Los_Angeles')).toBe('2026-11-02 00:00:00.000')
    const spring = cureDeadline({
      startedAt: Date.parse('2027-03-07T19:00:00Z'),
      days: 7,
      timeZone: 'America/Los_Angeles',
    })
    expect(wallClock(spring, 'America/Los_Angeles')).toBe('2027-03-14 23:59:59.999')
  })

  it('gives the claimant at least the whole period', () => {
    for (const startedAt of [0, 1.7e12, 1.8e12 + 12_345]) {
      const end = cureDeadline({ startedAt, days: 7, timeZone: 'Asia/Kolkata' })
      expect(end - startedAt).toBeGreaterThanOrEqual(7 * DAY_MS)
      expect(end - startedAt).toBeLessThan(8 * DAY_MS)
    }
  })
})
