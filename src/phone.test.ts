import { describe, expect, it } from 'vitest'
import { formatPhone, PHONE_MAX_LENGTH, phoneDigits } from './phone.ts'

describe('formatPhone', () => {
  it('gives an empty string when there are no digits', () => {
    expect(formatPhone('')).toBe('')
    expect(formatPhone('abc-()')).toBe('')
  })

  it('opens the area code bracket from the first digit', () => {
    expect(formatPhone('5')).toBe('(5')
    expect(formatPhone('555')).toBe('(555')
  })

  it('closes the area code and starts the exchange from the fourth digit', () => {
    expect(formatPhone('5551')).toBe('(555) 1')
    expect(formatPhone('555123')).toBe('(555) 123')
  })

  it('adds the dash from the seventh digit', () => {
    expect(formatPhone('5551234')).toBe('(555) 123-4')
    expect(formatPhone('5551234567')).toBe('(555) 123-4567')
  })

  it('strips everything that is not a digit before formatting', () => {
    expect(formatPhone('555.123.4567')).toBe('(555) 123-4567')
    expect(formatPhone(' 555 - 123 x 4567 ')).toBe('(555) 123-4567')
  })

  it('leaves an already formatted number unchanged', () => {
    expect(formatPhone('(555) 123-4567')).toBe('(555) 123-4567')
  })

  it('keeps only the first ten digits, so the result is never longer than 14 characters', () => {
    const formatted = formatPhone('555123456789999')

    expect(formatted).toBe('(555) 123-4567')
    expect(formatted).toHaveLength(PHONE_MAX_LENGTH)
  })

  it('re-formats progressively as the user types one digit at a time', () => {
    const typed = [...'5551234567'].reduce<string[]>(
      (steps, digit) => [...steps, formatPhone((steps.at(-1) ?? '') + digit)],
      [],
    )

    expect(typed).toEqual([
      '(5',
      '(55',
      '(555',
      '(555) 1',
      '(555) 12',
      '(555) 123',
      '(555) 123-4',
      '(555) 123-45',
      '(555) 123-456',
      '(555) 123-4567',
    ])
  })
})

describe('phoneDigits', () => {
  it('gives the digits of a formatted number', () => {
    expect(phoneDigits('(555) 123-4567')).toBe('5551234567')
  })

  it('keeps at most ten digits', () => {
    expect(phoneDigits('1-555-123-4567 ext 89')).toBe('1555123456')
  })
})
