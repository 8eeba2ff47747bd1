import { describe, expect, it } from 'vitest'
import {
  formatPhone,
  isPossibleUsPhone,
  normalizePhone,
  PHONE_INPUT_MAX_LENGTH,
  phoneDigits,
  storedPhoneCandidates,
} from './phone.ts'

/** Every usual writing of one number, as typed, pasted or autofilled. */
const WRITINGS = [
  '+1 (555) 867-5309',
  '1-555-867-5309',
  '15558675309',
  '+15558675309',
  '+1 555 867 5309',
  '+1.555.867.5309',
  '1 (555) 867-5309',
  '555.867.5309',
  '555 867 5309',
  '(555)867-5309',
  '(555) 867-5309',
  '555-867-5309',
  '5558675309',
  ' 555-867-5309 ',
]

/** Numbers no US phone can have, each refused by the server with the form's phone message. */
const IMPOSSIBLE = [
  ['(055) 867-5309', 'an area code starting with 0'],
  ['(155) 867-5309', 'an area code starting with 1'],
  ['1-155-867-5309', 'an area code starting with 1, after the country code'],
  ['(555) 067-5309', 'an exchange starting with 0'],
  ['(555) 167-5309', 'an exchange starting with 1'],
  ['555-867-530', 'nine digits'],
  ['1-555-867-530', 'ten digits, the first of them a 1'],
  ['555-867-53091', 'eleven digits not starting with 1'],
  ['2-555-867-5309', 'eleven digits starting with 2'],
  ['1-1-555-867-5309', 'twelve digits'],
  ['+44 20 7946 0958', 'a number from another country'],
  ['+555 867 5309', 'a plus without the US country code'],
  ['555-867-5309 ext 2', 'an extension'],
  ['555-TELL-ME', 'letters'],
  ['call 555 867 5309', 'words around it'],
  ['555+867+5309', 'plus signs inside'],
  ['', 'nothing'],
]

describe('normalizePhone', () => {
  it.each(WRITINGS)('stores %j as (555) 867-5309', (writing) => {
    expect(normalizePhone(writing)).toBe('(555) 867-5309')
  })

  it.each(IMPOSSIBLE)('leaves %j (%s) as it came, for the form to refuse', (writing) => {
    expect(normalizePhone(writing)).toBe(writing)
  })

  it('leaves a writing longer than any usual one as it came, unread', () => {
    const long = `${' '.repeat(PHONE_INPUT_MAX_LENGTH)}5558675309`

    expect(normalizePhone(long)).toBe(long)
  })
})

describe('formatPhone', () => {
  it('gives an empty string when there is nothing to show', () => {
    expect(formatPhone('')).toBe('')
    expect(formatPhone('abc-()')).toBe('')
  })

  it.each(WRITINGS)('shows %j, pasted or autofilled, as (555) 867-5309', (writing) => {
    expect(formatPhone(writing)).toBe('(555) 867-5309')
  })

  it('shows the number progressively as it is typed key by key', () => {
    expect(typeKeyByKey('5558675309')).toEqual([
      '(5',
      '(55',
      '(555',
      '(555) 8',
      '(555) 86',
      '(555) 867',
      '(555) 867-5',
      '(555) 867-53',
      '(555) 867-530',
      '(555) 867-5309',
    ])
  })

  it('keeps a typed +1 in front until the ten digits are there, then drops it', () => {
    const steps = typeKeyByKey('+1 (555) 867-5309')

    expect(steps.slice(0, 5)).toEqual(['+', '+1', '+1', '+1', '+1 (5'])
    expect(steps).toContain('+1 (555) 867-530')
    expect(steps.at(-1)).toBe('(555) 867-5309')
  })

  it('takes a typed leading 1 as part of the number until the eleventh digit shows it was the country code', () => {
    const steps = typeKeyByKey('1-555-867-5309')

    expect(steps[0]).toBe('(1')
    expect(steps).toContain('(155) 586-7530')
    expect(steps.at(-1)).toBe('(555) 867-5309')
  })

  it('shows more digits than a US number holds bare, never cutting them', () => {
    expect(formatPhone('555-867-53091')).toBe('55586753091')
    expect(formatPhone('2-555-867-5309')).toBe('25558675309')
    expect(formatPhone('+1 555 867 53091')).toBe('+155586753091')
  })

  it('shows every digit of each prefix of 12345678901234 but the eleven-digit one, whose leading 1 is the country code', () => {
    const typed = '12345678901234'
    for (let length = 1; length <= typed.length; length++) {
      const shown = formatPhone(typed.slice(0, length)).replace(/\D/g, '')
      expect(shown).toBe(length === 11 ? typed.slice(1, 11) : typed.slice(0, length))
    }
  })

  it('keeps the plus of another country code, for the form to refuse', () => {
    expect(formatPhone('+44 20 7946 0958')).toBe('+442079460958')
  })

  it('goes back one digit at a time when deleted from the end', () => {
    let shown = '(555) 867-5309'
    const steps: string[] = []
    while (shown !== '') {
      shown = formatPhone(shown.slice(0, -1))
      steps.push(shown)
    }
    expect(steps).toEqual([
      '(555) 867-530',
      '(555) 867-53',
      '(555) 867-5',
      '(555) 867',
      '(555) 86',
      '(555) 8',
      '(555',
      '(55',
      '(5',
      '',
    ])
  })
})

describe('phoneDigits', () => {
  it('drops a leading 1 only when it is the country code: after a plus, or the first of eleven digits', () => {
    expect(phoneDigits('+1 (555) 867-5309')).toBe('5558675309')
    expect(phoneDigits('15558675309')).toBe('5558675309')
    expect(phoneDigits('1555867')).toBe('1555867')
    expect(phoneDigits('155586753091')).toBe('155586753091')
  })

  it('never cuts a number to ten digits', () => {
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

describe('storedPhoneCandidates', () => {
  it('gives the stored writing of any ten-digit number, possible or not', () => {
    expect(storedPhoneCandidates('555.867.5309')).toEqual(['(555) 867-5309'])
    expect(storedPhoneCandidates('555-123-4567')).toEqual(['(555) 123-4567'])
  })

  it('adds the first ten digits, as a number written with its country code was once stored', () => {
    expect(storedPhoneCandidates('1-555-867-5309')).toEqual(['(555) 867-5309', '(155) 586-7530'])
    expect(storedPhoneCandidates('+1 555.867.5309')).toEqual(['(555) 867-5309', '(155) 586-7530'])
  })

  it('gives nothing when there are not ten national digits', () => {
    expect(storedPhoneCandidates('555-867-530')).toEqual([])
    expect(storedPhoneCandidates('')).toEqual([])
  })
})

/** What the field shows after each key, each typed at the end of what it showed. */
function typeKeyByKey(keys: string): string[] {
  return [...keys].reduce<string[]>((shown, key) => [...shown, formatPhone((shown.at(-1) ?? '') + key)], [])
}
