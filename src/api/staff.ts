/**
 * What the staff endpoints answer: the server sends these types and the client reads them, so the two
 * cannot drift apart without the type check saying so.
 * @example const page: StaffPage<StaffClaimRow> = await fetchJson('/api/staff/apps/brigit/submissions')
 */
import type { Attribution } from '../attribution.ts'
import type { ClaimFraudStanding } from './fraud.ts'
import type { FraudCode } from '../fraud-config.ts'
import type { ClaimData } from '../form-config.ts'
import type { SigningMethod } from '../signing.ts'

/** `admin`: every app, the main admin view, the military figures, accounts and the audit log. */
export type StaffRole = 'admin' | 'staff'

/** An app a `staff` account was granted. */
export interface StaffAppAccess {
  app: string
  canExport: boolean
  /** May decide the app's claims (approve, reject) and move them in bulk; left out: may not. */
  canDecide?: boolean
  /** May approve the app's payout batches (the payments right); left out: may not. */
  canPay?: boolean
}

/** A signed-in staff member as the pages see them. */
export interface StaffAccountView {
  id: number
  email: string
  name: string
  role: StaffRole
  /** A `staff` account's apps; empty for an admin, who sees every app. */
  apps: StaffAppAccess[]
  /** Whether the account signs in with a code from an authenticator app. */
  twoFactor: boolean
}

/** GET /api/staff/session, when signed in (401 otherwise). */
export interface StaffSession {
  authenticated: true
  account: StaffAccountView
}

/** Whether the account may see the app's claims (list, stats, details, screenshots). */
export function canSeeApp(account: Pick<StaffAccountView, 'role' | 'apps'>, app: string): boolean {
  return account.role === 'admin' || account.apps.some((access) => access.app === app)
}

/**
 * The apps whose claims the account may see, for a query that must leave the others out: 'every' for an
 * admin, else the account's apps (none: nothing is visible).
 * @example visibleApps({ role: 'staff', apps: [{ app: 'brigit', canExport: false }] }) // ['brigit']
 */
export function visibleApps(account: Pick<StaffAccountView, 'role' | 'apps'>): VisibleApps {
  return account.role === 'admin' ? 'every' : account.apps.map(({ app }) => app)
}

/** What visibleApps answers. */
export type VisibleApps = 'every' | readonly string[]

/** Whether the account may export the app's claims (CSV, evidence bundles). */
export function canExportApp(account: Pick<StaffAccountView, 'role' | 'apps'>, app: string): boolean {
  return account.role === 'admin' || account.apps.some((access) => access.app === app && access.canExport)
}

/** Whether the account may decide the app's claims: approve or reject them, move them in bulk. */
export function canDecideApp(account: Pick<StaffAccountView, 'role' | 'apps'>, app: string): boolean {
  return (
    account.role === 'admin' || account.apps.some((access) => access.app === app && access.canDecide === true)
  )
}

/**
 * Whether the account holds the app's payments right: approving a payout batch that another account
 * built. An admin has it for every app.
 * @example canPayApp({ role: 'staff', apps: [{ app: 'brigit', canExport: false, canPay: true }] }, 'brigit') // true
 */
export function canPayApp(account: Pick<StaffAccountView, 'role' | 'apps'>, app: string): boolean {
  return (
    account.role === 'admin' || account.apps.some((access) => access.app === app && access.canPay === true)
  )
}

/** A claim's answers as the claimant gave them, without the file and the signature. */
export type ClaimAnswers = Omit<ClaimData, 'screenshotFile' | 'signature'>

/** One Step 2 claim as the dashboards receive it. */
export interface StaffClaimRow extends ClaimAnswers {
  id: number
  createdAt: string
  /** The language the claimant filed in ('en', 'es'). */
  locale: string
  /** When the claimant confirmed from the e-mail copy's link; null until then. */
  confirmedAt: string | null
  /** The authenticated route that serves the screenshot; the file has no public address. */
  screenshotUrl: string
  /** Flagged: the ids of other claimants' claims with the same screenshot (exactly or nearly); else empty. */
  duplicateOf: number[]
  /** The review's status, a name from forms/base/review.json ('received' until the first move). */
  reviewStatus: string
  /** The last move's reason (a reason's name) and time; null before a move, or for a move without one. */
  reviewReason: string | null
  reviewMovedAt: string | null
  /** The staff account reviewing the claim; null while nobody is. */
  assignee: StaffAssignee | null
  /** Where the claimant came from (the first landing's campaign parameters); null when nothing was kept. */
  attribution: Attribution | null
  /** 1,000 less the fraud deductions; null until scored. */
  fraudScore: number | null
  /** Where the score puts it by its app's thresholds, or cleared by a decider, or not scored yet. */
  fraudStanding: ClaimFraudStanding
}

/**
 * An account a claim can be assigned to: GET /api/staff/apps/:slug/assignees lists those of an app
 * (enabled, and able to see it); PUT /api/staff/claims/:id/assignee takes `{ accountId }` (null
 * unassigns) and answers the claim's assignee.
 */
export interface StaffAssignee {
  id: number
  email: string
}

/** One review status of an app's claims, with its label from forms/base/review.json. */
export interface StatusCount {
  status: string
  label: string
  count: number
}

/** GET /api/staff/claims/:id/duplicates: a flagged claim's matching claims, for links to each. */
export interface DuplicateScreenshot {
  id: number
  /** The other claim's app slug: its dashboard is /{app}-admin. */
  app: string
  appName: string
  /** 'exact': the same file; 'near': the same picture re-compressed, scaled or cropped. */
  kind: 'exact' | 'near'
  /** Bits apart of the pictures' 128-bit hashes: 0 for the same file. The list comes surest first. */
  distance: number
}

/** GET /api/staff/claims/:id/duplicate-cluster: the claims connected to this one by flags. */
export interface DuplicateCluster {
  /** This claim's and every claim flagged with it, directly or through another, that the account may see. */
  claimIds: number[]
  /** False when the cluster holds a claim the account may not see, or is too large to decide at once. */
  isWhole: boolean
}

/** GET /api/staff/claims/:id: one claim, to open from a link to it. */
export interface StaffClaim extends StaffClaimRow {
  app: string
}

/** One main-form submission as the main page's admin view shows it (the spec's admin list, camelCased). */
export interface IntakeSubmission {
  id: number
  createdAt: string
  firstName: string
  lastName: string
  email: string
  phone: string
  /** The apps' labels, e.g. 'Earnin'. */
  cashAdvanceApps: string[]
  /** A PNG data URL. */
  signature: string
  /** The claimant's answer to the e-mail after the intake: "Confirm it was you", "This wasn't me", or none yet. */
  confirmation: IntakeConfirmation
}

export type IntakeConfirmation = 'confirmed' | 'not_confirmed' | 'not_me'

/** How the admin list names each answer. */
export const INTAKE_CONFIRMATION_LABELS: Record<IntakeConfirmation, string> = {
  confirmed: 'Confirmed',
  not_confirmed: 'Not confirmed',
  not_me: '"Not me"',
}

/** GET /api/staff/intake-submissions/:intakeId: one main-form submission, its answers and its apps' cases. */
export interface IntakeSubmissionDetails extends IntakeSubmission {
  address: string
  addressLine2: string
  city: string
  state: string
  zipCode: string
  /** The eligibility questions as the form asked them, each with the answer the claimant gave. */
  answers: { question: string; answer: string }[]
  /** 'typed': the name typed and drawn in a signature style (typedSignature); 'drawn' on the pad. */
  signatureMethod: SigningMethod
  typedSignature: string | null
  /** When the claimant pressed "Confirm it was you" in the e-mail after the intake; null until then. */
  confirmedAt: string | null
  /** When the owner of the e-mail pressed "This wasn't me" there; null when nobody did. */
  disownedAt: string | null
  /** One per app the claimant listed, in their order. */
  cases: IntakeCase[]
  /** What the claimant was e-mailed after the intake; null for an intake from before the e-mails. */
  journey: IntakeJourney | null
  /** When the claimant's address asked for no more reminders, and how; null while it did not. */
  unsubscribed: { at: string; source: string } | null
}

/** The e-mails after an intake: the copy with the Step 2 links, then the reminders. */
export interface IntakeJourney {
  /** The copy counts one; each reminder one more. */
  mailsSent: number
  lastMailAt: string | null
  /** The next reminder's time; null when none is due (every claim in, the last sent, or unsubscribed). */
  nextDueAt: string | null
}

/** One app a claimant listed on the main form: its case and how far its Step 2 claim has come. */
export interface IntakeCase {
  /** The app's slug: its dashboard is /{app}-admin. */
  app: string
  appName: string
  /** The case row made with the intake; null for an app listed without one. */
  caseId: number | null
  /** The claimant's Step 2 claim for this app, null while not started. */
  claim: { id: number; status: string; statusLabel: string } | null
}

/** Claims filed on one UTC day. */
export interface DailyCount {
  /** YYYY-MM-DD */
  date: string
  count: number
}

/** GET /api/staff/apps/:slug/stats: the stat cards and claims per day for 90 days. */
export interface StaffStats {
  total: number
  /** Whole numbers, 0 when the app has no claim. */
  avgMembershipMonths: number
  avgCashAdvances: number
  /** How many of the claims the claimants confirmed from the e-mail copy's link. */
  confirmed: number
  daily: DailyCount[]
  /** The app's claims per review status, every status in the config's order (0 when none). */
  statuses: StatusCount[]
  /** The reasons a move can give, in the config's order, for the dashboard's Reason filter. */
  reasons: { name: string; label: string }[]
  /** The fraud tests with their labels (the app's fraud.json), for the dashboard's Fraud reason filter. */
  fraudReasons: { code: FraudCode; label: string }[]
}

/** GET /api/staff/military: counts only, never the claimants' rows. */
export interface MilitaryFigures {
  activeMilitary: number
  total: number
  /** One decimal; 0 when there are no submissions. */
  percentage: number
}

/** GET /api/staff/claims/:id/signed-record: what the claim's signing recorded (the agreement's HTML is …/agreement.html). */
export interface SignedRecordView {
  signedAt: string
  ipAddress: string
  userAgent: string
  /** The signature as drawn or typed, a PNG data URL. */
  signature: string
  signatureMethod: string
  typedName: string | null
  /** The intake ("IN-000042") whose signature was adopted; null unless signatureMethod is 'adopted'. */
  adoptedFrom: string | null
  locale: string
  templateVersion: string
  /** The SHA-256 of the agreement's HTML as signed. */
  agreementSha256: string
  /** The claimant's "Confirm it was you", when they did. */
  confirmation: { at: string; ipAddress: string; userAgent: string } | null
}

/** GET /api/staff/military/claimants: the newest active-military claimants of the main form, for admins. */
export interface MilitaryClaimants {
  claimants: {
    id: number
    name: string
    email: string
    phone: string
    state: string
    createdAt: string
  }[]
  /** How many there are in all; the list holds the newest MILITARY_LIST_LIMIT. */
  total: number
}

/** The most active-military claimants the analysis page lists; the CSV of the main list has them all. */
export const MILITARY_LIST_LIMIT = 200

/** One page of a staff list; count matches the search, total is everything. */
export interface StaffPage<T> {
  success: boolean
  data: T[]
  count: number
  total: number
  page: number
  pageSize: number
  error: string | null
}

/**
 * How many matches past a page's start a claim list counts at most: a common surname matches thousands
 * of claims at a million, and testing each one's filters only to print their number costs more than the
 * page.
 */
export const MATCH_COUNT_CAP = 1000

/** GET /api/staff/apps/:slug/submissions: a page of an app's claims. */
export interface ClaimListPage extends StaffPage<StaffClaimRow> {
  /**
   * The count stopped at MATCH_COUNT_CAP matches past the page's start, and more match: `count` is a
   * lower bound ("1,000+"), and the pages go on past it.
   */
  isCountCapped: boolean
}

/**
 * A list's match count as the pages print it, with the en-US thousands separator; a capped count
 * gets a "+".
 * @example matchCountText({ count: 1000, isCountCapped: true }) // '1,000+'
 */
export function matchCountText({ count, isCountCapped }: { count: number; isCountCapped: boolean }): string {
  return `${count.toLocaleString('en-US')}${isCountCapped ? '+' : ''}`
}
