import {
  fraudText,
  MAX_SCORE,
  type FraudCode,
  type FraudConfig,
  type FraudReason,
} from '../../src/fraud-config.ts'
import type { FormSignals } from '../../src/form-signals.ts'
import { DAY_MS, HOUR_MS } from '../../src/durations.ts'
import { isDisposableEmail, isSamePerson, isUnlikelyPhone, nameSimilarity } from './identity-keys.ts'
import { isPhoneScreenSize, type ScreenshotFacts } from './screenshot-facts.ts'

/** Related claims kept with a reason, for the details and the cluster. */
const MAX_RELATED = 20

/** The identity keys a claim is filed under; another claim with the same key is related to it. */
export const KEY_KINDS = ['device', 'network', 'email', 'phone', 'address'] as const
export type KeyKind = (typeof KEY_KINDS)[number]

/** The claim being scored, as the tests read it. */
export interface ScoredClaim {
  id: number
  /** epoch ms of its send */
  at: number
  firstName: string
  lastName: string
  email: string
  phone: string
  /** identityOf(first, last) */
  identity: string
  /** mailboxOf(email) */
  mailbox: string
  /** The form's signals: the claim's, else its main form's. */
  signals: FormSignals
  /** The keys it is filed under, by kind (a device or network may come from the claim and its main form). */
  keys: Partial<Record<KeyKind, string[]>>
  /** Its screenshot's facts; undefined when the file could not be read. */
  screenshot: ScreenshotFacts | undefined
  /** Other claimants' claims whose screenshot is this one's (screenshot_matches). */
  screenshotMatches: number[]
  /** The company's lists that name it ('not_customer', 'duplicate'). */
  respondentLists: string[]
}

/** Another claim sharing one of the keys. */
export interface Neighbour {
  claimId: number
  kind: KeyKind
  identity: string
  at: number
  /** For the address's and the device's neighbours: their name, mailbox and phone, to tell a near duplicate. */
  firstName?: string
  lastName?: string
  mailbox?: string
  phone?: string
}

/**
 * A claim's score: MAX_SCORE less the weight of every test that fires, never below 0, with each
 * deduction's reason (its code, points, the staff's sentence and the related claims). A pure function of
 * the claim and its neighbours, so the same facts always give the same score.
 */
export function scoreClaim(
  config: FraudConfig,
  claim: ScoredClaim,
  neighbours: readonly Neighbour[],
): { score: number; reasons: FraudReason[] } {
  const reasons: FraudReason[] = []
  const fire = (code: FraudCode, values: Record<string, string | number>, related: number[] = []) => {
    const test = config.tests[code]
    if (test.weight <= 0) return
    reasons.push({
      code,
      points: test.weight,
      text: fraudText(test, values),
      ...(related.length > 0 ? { related: [...new Set(related)].slice(0, MAX_RELATED) } : {}),
    })
  }
  const of = (kind: KeyKind) => neighbours.filter((n) => n.kind === kind)
  const within = (list: Neighbour[], ms: number) => list.filter((n) => Math.abs(n.at - claim.at) <= ms)
  const otherNames = (list: Neighbour[]) => list.filter((n) => n.identity !== claim.identity)
  // the claimant's own name written another way (Mike for Michael on their next app) is not another person
  const otherPeople = (list: Neighbour[]) => list.filter((n) => !isSamePerson(n.identity, claim.identity))
  const distinct = (list: Neighbour[]) => new Set(list.map((n) => n.identity)).size
  const ids = (list: Neighbour[]) => list.map((n) => n.claimId)
  const { tests } = config
  const address = of('address')

  const device = of('device')
  // a household's shared phone is not a ring: those who gave the claimant's address or carry the
  // claimant's surname are left out (a family of three filing on one phone held all three)
  const household = new Set(address.map((n) => n.claimId))
  const surname = claim.identity.split('|')[1]
  const deviceOthers = otherPeople(device).filter(
    (n) => !household.has(n.claimId) && n.identity.split('|')[1] !== surname,
  )
  if (distinct(deviceOthers) >= (tests.device_shared.atLeast ?? 2)) {
    fire('device_shared', { count: distinct(deviceOthers) }, ids(deviceOthers))
  }
  const deviceDay = within(device, DAY_MS).length + 1
  if (deviceDay >= (tests.device_burst.atLeast ?? 12)) {
    fire('device_burst', { count: deviceDay }, ids(within(device, DAY_MS)))
  }
  const network = of('network')
  const networkOthers = otherNames(within(network, DAY_MS))
  if (distinct(networkOthers) >= (tests.network_shared.atLeast ?? 4)) {
    fire('network_shared', { count: distinct(networkOthers) }, ids(networkOthers))
  }
  const networkHour = within(network, HOUR_MS).length + 1
  if (networkHour >= (tests.network_burst.atLeast ?? 30)) {
    fire('network_burst', { count: networkHour }, ids(within(network, HOUR_MS)))
  }

  if (isDisposableEmail(claim.email)) fire('email_disposable', {})
  const emailOthers = otherPeople(of('email'))
  if (emailOthers.length > 0) fire('email_variant', { count: distinct(emailOthers) }, ids(emailOthers))

  const phoneOthers = otherPeople(of('phone'))
  if (phoneOthers.length > 0) fire('phone_shared', { count: distinct(phoneOthers) }, ids(phoneOthers))
  if (isUnlikelyPhone(claim.phone)) fire('phone_unlikely', {})

  const similarity = tests.name_near_duplicate.similarity ?? 0.92
  // one person filing again under a name written another way: at their address, or from the same browser
  // (a claim without a main form has no address to compare)
  const near = otherNames([...address, ...device]).filter(
    (n) =>
      n.firstName !== undefined &&
      n.lastName !== undefined &&
      (n.mailbox !== claim.mailbox || n.phone !== claim.phone) &&
      nameSimilarity(claim, { firstName: n.firstName, lastName: n.lastName }) >= similarity,
  )
  if (near.length > 0) {
    const names = [...new Set(near.map((n) => `${n.firstName} ${n.lastName}`))].slice(0, 3).join(', ')
    fire('name_near_duplicate', { names }, ids(near))
  }
  const surnames = new Set([claim.identity, ...address.map((n) => n.identity)].map((id) => id.split('|')[1]))
  if (surnames.size >= (tests.address_many_names.atLeast ?? 4)) {
    fire('address_many_names', { count: surnames.size }, ids(otherNames(address)))
  }

  const { elapsedMs, pasted = [], typed = [] } = claim.signals
  const seconds = tests.too_fast.seconds ?? 20
  if (elapsedMs !== undefined && elapsedMs < seconds * 1000) {
    fire('too_fast', { seconds: Math.round(elapsedMs / 100) / 10 })
  }
  if (typed.length > 0 && typed.every((field) => pasted.includes(field))) fire('all_pasted', {})

  const shot = claim.screenshot
  if (shot && (shot.editor !== undefined || shot.modifiedAfterCapture)) {
    fire('screenshot_edited', { software: shot.editor ?? 'changed after it was taken' })
  }
  if (shot && !isPhoneScreenSize(shot)) fire('screenshot_size', { width: shot.width, height: shot.height })
  if (claim.screenshotMatches.length > 0) {
    fire('screenshot_duplicate', { count: claim.screenshotMatches.length }, claim.screenshotMatches)
  }
  if (claim.respondentLists.length > 0) {
    fire('respondent_listed', { list: claim.respondentLists.map(listName).join(', ') })
  }

  const deducted = reasons.reduce((sum, reason) => sum + reason.points, 0)
  return { score: Math.max(0, MAX_SCORE - deducted), reasons }
}

function listName(list: string): string {
  return list === 'not_customer' ? 'not a customer' : list === 'duplicate' ? 'a duplicate' : list
}
