import { describe, expect, it } from 'vitest'
import { identityOf, isSamePerson, nameSimilarity } from '../../../server/fraud/identity-keys.ts'

const name = (firstName: string, lastName: string) => ({ firstName, lastName })
/** forms/base/fraud.json's name_near_duplicate similarity. */
const NEAR = 0.92

describe('nameSimilarity', () => {
  it.each([
    ['John', 'Smith', 'Jon', 'Smith'],
    ['John', 'Smith', 'John', 'Smyth'],
    ['Steven', 'Clark', 'Stephen', 'Clark'],
    ['Catherine', 'Moore', 'Katherine', 'Moore'],
    ['Philip', 'Thompson', 'Phillip', 'Thomson'],
    ['John', 'Smith', 'John A', 'Smith'],
    ['Tiffany', 'Harris', 'Tiffay', 'Harris'],
    ['José', 'PEÑA', 'jose', 'pena'],
  ])('reads %s %s and %s %s as one name written two ways', (a, b, c, d) => {
    expect(nameSimilarity(name(a, b), name(c, d))).toBeGreaterThanOrEqual(NEAR)
  })

  it.each([
    ['Jason', 'Lopez', 'Mason', 'Lopez'],
    ['Billy', 'Lopez', 'Paul', 'Lopez'],
    ['Amy', 'Nguyen', 'Emma', 'Nguyen'],
    ['Linda', 'Garcia', 'Lisa', 'Garcia'],
    ['Jeffrey', 'Brown', 'Jeremy', 'Brown'],
    ['John', 'Smith', 'John', 'Johnson'],
  ])('keeps %s %s and %s %s, two people of one household, apart', (a, b, c, d) => {
    expect(nameSimilarity(name(a, b), name(c, d))).toBeLessThan(NEAR)
  })
})

describe('isSamePerson', () => {
  const same = (a: [string, string], b: [string, string]) => isSamePerson(identityOf(...a), identityOf(...b))

  it('takes a familiar form or a first name cut short for the same person', () => {
    expect(same(['Michael', 'Ortiz'], ['Mike', 'Ortiz'])).toBe(true)
    expect(same(['Robert', 'Ortiz'], ['Bob', 'Ortiz'])).toBe(true)
    expect(same(['John A', 'Ortiz'], ['John', 'Ortiz'])).toBe(true)
  })

  it('takes other first names or another surname for another person', () => {
    expect(same(['Maria', 'Ortiz'], ['Daniel', 'Ortiz'])).toBe(false)
    expect(same(['Michael', 'Ortiz'], ['Michael', 'Ortega'])).toBe(false)
    expect(same(['Robert', 'Ortiz'], ['Paul', 'Ortiz'])).toBe(false)
  })
})
