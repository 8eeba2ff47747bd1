/**
 * What the account-management endpoints take and answer, shared by the server and the pages.
 * @example const { accounts } = await fetchJson<StaffAccountList>('/api/staff/accounts')
 */
import type { StaffAppAccess, StaffRole } from './staff.ts'

/** The shortest staff password the server takes (passwordProblem), shown before the person types. */
export const MIN_PASSWORD_LENGTH = 12
export const PASSWORD_RULE = `At least ${MIN_PASSWORD_LENGTH} characters. A few unrelated words make a strong one.`

/** One account as the admin's list shows it. */
export interface StaffAccountSummary {
  id: number
  email: string
  name: string
  role: StaffRole
  /** A `staff` account's apps; empty for an admin, who sees every app. */
  apps: StaffAppAccess[]
  twoFactor: boolean
  disabled: boolean
  /** Invited and no password set yet. */
  invitePending: boolean
}

/** An app an account may be given, as the pages name it. */
export interface StaffAppChoice {
  slug: string
  name: string
}

/** GET /api/staff/accounts */
export interface StaffAccountList {
  accounts: StaffAccountSummary[]
  apps: StaffAppChoice[]
}

/** POST /api/staff/accounts: a new account, invited by e-mail to set its password. */
export interface InviteAccountRequest {
  email: string
  name: string
  role: StaffRole
  apps: StaffAppAccess[]
}

/** PUT /api/staff/accounts/:accountId/access */
export interface AccountAccessRequest {
  role: StaffRole
  apps: StaffAppAccess[]
}

/** The answer to an invitation or a re-sent one: whether the e-mail went out (SMTP or the outbox). */
export interface InviteAnswer {
  account: StaffAccountSummary
  emailed: boolean
}

/** POST /api/staff/invites/check: what a one-time link opens. */
export type InviteLinkInfo = { kind: 'invite'; email: string; name: string } | { kind: 'setup' }

/** POST /api/staff/invites/accept: the set-up link (kind 'setup') also names the first admin. */
export interface AcceptInviteRequest {
  token: string
  password: string
  email?: string
  name?: string
}

/**
 * POST /api/staff/invites/accept's answer. The link came by e-mail (or, for the first admin, from the
 * server's disk), so an account REQUIRE_2FA covers gets the code a sign-in would e-mail for its
 * two-factor set-up here instead: the sign-in that follows in this browser goes straight to the QR code.
 */
export interface InviteAccepted {
  twoFactorSetupCode?: string
  /** The first admin's set-up, without two-factor to set up: the answer carries a session. */
  signedIn?: boolean
}

/** POST /api/staff/account/password */
export interface ChangePasswordRequest {
  currentPassword: string
  newPassword: string
}

/** GET /api/staff/my-apps: the dashboards the signed-in account may open. */
export interface MyApps {
  apps: (StaffAppChoice & { canExport: boolean })[]
}
