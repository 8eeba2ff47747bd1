import { describe, expect, it } from 'vitest'
import { countOptions } from './count-options.ts'

describe('countOptions', () => {
  const times = countOptions({ max: 50, singular: 'time', plural: 'times' })
  const months = countOptions({ max: 36, singular: 'month', plural: 'months' })

  it('offers every whole number from 1 to max, in order', () => {
    expect(times.map((option) => option.value)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1))
    expect(months.map((option) => option.value)).toEqual(Array.from({ length: 36 }, (_, i) => i + 1))
  })

  it('labels one in the singular and more in the plural', () => {
    expect(times.slice(0, 3).map((option) => option.label)).toEqual(['1 time', '2 times', '3 times'])
    expect(months.slice(0, 2).map((option) => option.label)).toEqual(['1 month', '2 months'])
  })

  it('labels the last choice "max+" for the cash advance dropdown: 50+ times', () => {
    expect(times.at(-1)).toEqual({ value: 50, label: '50+ times' })
    expect(times.at(-2)?.label).toBe('49 times')
  })

  it('labels the last choice "max+" for the months dropdown: 36+ months', () => {
    expect(months.at(-1)).toEqual({ value: 36, label: '36+ months' })
  })
})
