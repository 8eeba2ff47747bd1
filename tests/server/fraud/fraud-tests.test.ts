import { describe, expect, it } from 'vitest'
import { loadFraudConfigs } from '../../../server/fraud/load-fraud-config.ts'
import { scoreClaim, type Neighbour, type ScoredClaim } from '../../../server/fraud/fraud-tests.ts'
import { identityOf, mailboxOf } from '../../../server/fraud/identity-keys.ts'
import { FORMS_DIR } from '../support/helpers.ts'

const config = loadFraudConfigs(FORMS_DIR, [])('brigit')
const AT = Date.UTC(2026, 10, 2, 15, 0, 0)
const ADDRESS = '40 w olive st|85003'

/** A claim as the tests read it: a person's own e-mail and phone, a phone's screenshot, typed by hand. */
function claimOf(firstName: string, lastName: string, overrides: Partial<ScoredClaim> = {}): ScoredClaim {
  const email = `${firstName}.${lastName}@mail.test`.toLowerCase()
  return {
    id: 1,
    at: AT,
    firstName,
    lastName,
    email,
    phone: '(602) 555-2345',
    identity: identityOf(firstName, lastName),
    mailbox: mailboxOf(email),
    signals: { elapsedMs: 95_000, typed: ['firstName'], pasted: [] },
    keys: {},
    screenshot: { width: 1170, height: 2532, modifiedAfterCapture: false },
    screenshotMatches: [],
    respondentLists: [],
    ...overrides,
  }
}

let nextId = 100
/** Another claim sharing the key `kind`, by a person of this name. */
function neighbour(
  kind: Neighbour['kind'],
  firstName: string,
  lastName: string,
  extra: Partial<Neighbour> = {},
) {
  return { claimId: nextId++, kind, identity: identityOf(firstName, lastName), at: AT - 3_600_000, ...extra }
}

const codesOf = (claim: ScoredClaim, neighbours: Neighbour[]) =>
  scoreClaim(config, claim, neighbours).reasons.map((reason) => reason.code)

describe('scoreClaim', () => {
  it('does not count a family of three filing on one phone at their address as a shared device', () => {
    const brother = neighbour('device', 'Daniel', 'Okafor')
    const lodger = neighbour('device', 'Priya', 'Shah')
    const neighbours = [
      brother,
      lodger,
      {
        ...brother,
        kind: 'address' as const,
        firstName: 'Daniel',
        lastName: 'Okafor',
        mailbox: 'd@mail.test',
      },
      { ...lodger, kind: 'address' as const, firstName: 'Priya', lastName: 'Shah', mailbox: 'p@mail.test' },
    ]
    expect(codesOf(claimOf('Ada', 'Okafor'), neighbours)).toEqual([])
  })

  it('counts strangers on one browser as a shared device', () => {
    const neighbours = [neighbour('device', 'Daniel', 'Okafor'), neighbour('device', 'Priya', 'Shah')]
    const { reasons, score } = scoreClaim(config, claimOf('Ada', 'Lopez'), neighbours)
    expect(reasons.map((reason) => reason.code)).toEqual(['device_shared'])
    expect(reasons[0]!.text).toBe('This browser also sent claims under 2 other names.')
    expect(score).toBe(1000 - config.tests.device_shared.weight)
  })

  it("does not take the claimant's own nickname on another app for another person on their e-mail and phone", () => {
    const neighbours = [neighbour('email', 'Mike', 'Ortiz'), neighbour('phone', 'Mike', 'Ortiz')]
    expect(codesOf(claimOf('Michael', 'Ortiz'), neighbours)).toEqual([])
  })

  it('deducts for another person using the same mailbox and phone', () => {
    const neighbours = [neighbour('email', 'Grace', 'Hill'), neighbour('phone', 'Grace', 'Hill')]
    expect(codesOf(claimOf('Michael', 'Ortiz'), neighbours)).toEqual(['email_variant', 'phone_shared'])
  })

  it('does not take two people of one household with alike first names for a near duplicate', () => {
    const mason = neighbour('address', 'Mason', 'Lopez', {
      firstName: 'Mason',
      lastName: 'Lopez',
      mailbox: 'mason@mail.test',
      phone: '(602) 555-9876',
    })
    expect(codesOf(claimOf('Jason', 'Lopez', { keys: { address: [ADDRESS] } }), [mason])).toEqual([])
  })

  it('deducts for one name written another way at the same address with another e-mail', () => {
    const jon = neighbour('address', 'Jon', 'Smith', {
      firstName: 'Jon',
      lastName: 'Smith',
      mailbox: 'jon.smith.2@mail.test',
      phone: '(602) 555-2345',
    })
    const { reasons } = scoreClaim(config, claimOf('John', 'Smith', { keys: { address: [ADDRESS] } }), [jon])
    expect(reasons.map((reason) => reason.code)).toEqual(['name_near_duplicate'])
    expect(reasons[0]!.text).toContain('(Jon Smith)')
  })

  it('deducts for one name written another way from the same browser, with no address to compare', () => {
    const smyth = neighbour('device', 'John', 'Smyth', {
      firstName: 'John',
      lastName: 'Smyth',
      mailbox: 'jsmyth@mail.test',
      phone: '(602) 555-7777',
    })
    expect(codesOf(claimOf('John', 'Smith'), [smyth])).toEqual(['name_near_duplicate'])
  })
})
