import { describe, expect, it } from 'vitest'
import { formatPhone, isPossibleUsPhone, normalizePhone, PHONE_MAX_LENGTH, phoneDigits } from './phone.ts'

/** Every usual writing of one number, as typed, pasted or autofilled. */
const WRITINGS = [
  '+1 (555) 867-5309',
  '1-555-867-5309',
  '15558675309',
  '+15558675309',
  '+1 555 867 5309',
  '1 (555) 867-5309',
  '555.867.5309',
  '555 867 5309',
  '(555)867-5309',
  '(555) 867-5309',
  '5558675309',
  ' 555-867-5309 ',
]

describe('formatPhone', () => {
  it('gives an empty string when there are no digits', () => {
    expect(formatPhone('')).toBe('')
    expect(formatPhone('abc-()')).toBe('')
  })

  it.each(WRITINGS)('shows %j as (555) 867-5309', (writing) => {
    expect(formatPhone(writing)).toBe('(555) 867-5309')
  })

  it('drops the country code as it is typed, since no area code starts with 1', () => {
    expect(formatPhone('+')).toBe('')
    expect(formatPhone('+1')).toBe('')
    expect(formatPhone('1')).toBe('')
    expect(formatPhone('15')).toBe('(5')
  })

  it('re-formats progressively as the user types one key at a time, with or without +1', () => {
    for (const typed of ['5558675309', '+1 (555) 867-5309']) {
      const steps = [...typed].reduce<string[]>(
        (shown, key) => [...shown, formatPhone((shown.at(-1) ?? '') + key)],
        [],
      )
      expect(steps.at(-1)).toBe('(555) 867-5309')
      expect(steps).toContain('(555) 8')
    }
  })

  it('keeps only ten digits while typing, so the field never shows more than 14 characters', () => {
    const formatted = formatPhone('555867530999')

    expect(formatted).toBe('(555) 867-5309')
    expect(formatted).toHaveLength(PHONE_MAX_LENGTH)
  })
})

describe('phoneDigits', () => {
  it('gives the national digits: the country code dropped, nothing cut', () => {
    expect(phoneDigits('+1 (555) 867-5309')).toBe('5558675309')
    expect(phoneDigits('(555) 867-5309')).toBe('5558675309')
    expect(phoneDigits('555-867-53091')).toBe('55586753091')
  })
})

describe('isPossibleUsPhone', () => {
  it('takes an area code and exchange that start with 2 to 9', () => {
    expect(isPossibleUsPhone('5558675309')).toBe(true)
    expect(isPossibleUsPhone('2002000000')).toBe(true)
  })

  it.each(['0558675309', '1558675309', '5550675309', '5551675309', '555867530', '55586753091', ''])(
    'refuses %j',
    (digits) => {
      expect(isPossibleUsPhone(digits)).toBe(false)
    },
  )
})

describe('normalizePhone', () => {
  it.each(WRITINGS)('stores %j as (555) 867-5309', (writing) => {
    expect(normalizePhone(writing)).toBe('(555) 867-5309')
  })

  it.each([
    '555-867-530',
    '555-867-53091',
    '(055) 867-5309',
    '(555) 167-5309',
    '2-555-867-5309',
    '555-867-5309 ext 2',
    '555+867+5309',
    'call 555 867 5309',
  ])('leaves %j as it came, for the form to refuse', (writing) => {
    expect(normalizePhone(writing)).toBe(writing)
  })
})
