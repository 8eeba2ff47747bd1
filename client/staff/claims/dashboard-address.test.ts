import { describe, expect, it } from 'vitest'
import { dashboardSearch, readDashboardView } from './dashboard-address.ts'

describe('dashboard address', () => {
  it('gives back the same view it was written from', () => {
    const view = {
      term: 'IN-000042',
      filters: { status: 'received', confirmed: 'no' as const, batch: '3' },
      flagged: true,
      order: 'oldest' as const,
      page: 2,
    }
    expect(readDashboardView(dashboardSearch(view))).toEqual(view)
  })

  it('keeps the order by fraud score and the fraud filters', () => {
    const view = {
      term: '',
      filters: { fraud: 'hold', fraudReason: 'device_shared' },
      flagged: false,
      order: 'score' as const,
      page: 1,
    }
    expect(dashboardSearch(view)).toBe('?fraud=hold&fraudReason=device_shared&order=score')
    expect(readDashboardView(dashboardSearch(view))).toEqual(view)
  })

  it('writes nothing for the plain list', () => {
    expect(dashboardSearch(readDashboardView(''))).toBe('')
  })

  it('leaves out what the server would refuse', () => {
    expect(readDashboardView('?batch=abc&page=-1&order=sideways')).toEqual({
      term: '',
      filters: {},
      flagged: false,
      order: 'newest',
      page: 1,
    })
  })
})
