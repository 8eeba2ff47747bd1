import type { Kysely, Transaction } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import type { StaffAppAccess } from '../../src/api/staff.ts'
import type { StaffAccountSummary } from '../../src/api/staff-accounts.ts'
import { isUniqueViolation } from '../db/create-db.ts'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import type { AuditAction } from '../audit/audit-log.ts'
import {
  accountApps,
  appAccessFromRow,
  createAccount,
  enabledAdminIds,
  findAccountByEmail,
  findAccountById,
  lockAdminChanges,
  resetTwoFactor,
  setAccess,
  setDisabled,
} from '../staff/staff-accounts.ts'
import { createInvite } from '../staff/staff-invites.ts'
import type { AccountInput } from './account-input.ts'
import type { StaffMailer } from '../staff/staff-mailer.ts'

/** Records one account change in the audit log as the acting person's (or the command line's). */
export type RecordChange = (action: AuditAction, detail: string) => Promise<void>

/** Who changes an account: the API's signed-in admin (who may not lock themselves out), or the operator. */
export interface AccountChange {
  db: Kysely<Database>
  /** The acting admin's account; undefined at the command line. */
  actorId: number | undefined
  accountId: number
  record: RecordChange
}

/** Every account, admins first, each with its apps and whether its invitation is still open. */
export async function listAccounts(db: Kysely<Database>): Promise<StaffAccountSummary[]> {
  const rows = await db
    .selectFrom('staff_accounts')
    .select(['id', 'email', 'name', 'role', 'password_hash', 'totp_secret', 'disabled_at'])
    .orderBy('role')
    .orderBy('email')
    .execute()
  const apps = await db
    .selectFrom('staff_account_apps')
    .select(['account_id', 'app', 'can_export', 'can_decide', 'can_pay'])
    .execute()
  return rows.map((row) => ({
    id: Number(row.id),
    email: row.email,
    name: row.name,
    role: row.role,
    apps: apps
      .filter((access) => Number(access.account_id) === Number(row.id))
      .map(appAccessFromRow)
      .sort((a, b) => a.app.localeCompare(b.app)),
    twoFactor: row.totp_secret !== null,
    disabled: row.disabled_at !== null,
    invitePending: row.password_hash === null,
  }))
}

export async function accountSummary(db: Kysely<Database>, id: number): Promise<StaffAccountSummary> {
  const account = await findAccountById(db, id)
  if (!account) throw notFound(id)
  return {
    id,
    email: account.email,
    name: account.name,
    role: account.role,
    apps: account.role === 'admin' ? [] : await accountApps(db, id),
    twoFactor: account.totpSecret !== null,
    disabled: account.disabled,
    invitePending: account.passwordHash === null,
  }
}

/**
 * Creates the account without a password and e-mails it a one-time link to choose one (48 hours).
 * `emailed` is false when the mail could not go out: the account stays, and the invitation can be re-sent.
 */
export async function inviteAccount({
  db,
  mailer,
  siteOrigin,
  input,
  record,
}: {
  db: Kysely<Database>
  mailer: StaffMailer
  siteOrigin: string
  input: AccountInput
  record: RecordChange
}): Promise<{ id: number; emailed: boolean }> {
  if (await findAccountByEmail(db, input.email)) throw emailTaken(input.email)
  let id: number
  try {
    id = await createAccount(db, input)
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken(input.email)
    throw error
  }
  await record('account_invited', `${input.email}: ${describeAccess(input)}`)
  return { id, emailed: await sendInvitation({ db, mailer, siteOrigin, id, ...input }) }
}

/** A new link for an invitation not yet accepted; the older links stop working. */
export async function resendInvite({
  db,
  mailer,
  siteOrigin,
  accountId,
  record,
}: {
  db: Kysely<Database>
  mailer: StaffMailer
  siteOrigin: string
  accountId: number
  record: RecordChange
}): Promise<boolean> {
  const account = await findAccountById(db, accountId)
  if (!account) throw notFound(accountId)
  if (account.passwordHash !== null)
    throw conflict(`${account.email} has already accepted the invitation and signs in with a password`)
  await record('invite_resent', account.email)
  return sendInvitation({ db, mailer, siteOrigin, id: accountId, email: account.email, name: account.name })
}

async function sendInvitation({
  db,
  mailer,
  siteOrigin,
  id,
  email,
  name,
}: {
  db: Kysely<Database>
  mailer: StaffMailer
  siteOrigin: string
  id: number
  email: string
  name: string
}): Promise<boolean> {
  const token = await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('staff_invites').where('account_id', '=', id).execute()
    return createInvite(trx, id)
  })
  return mailer.sendInvite({ to: email, name, url: `${siteOrigin}/staff/invite#token=${token}` })
}

/** Changes role and apps (ending the account's sessions); an admin never demotes themselves or the last admin. */
export async function changeAccess(
  { db, actorId, accountId, record }: AccountChange,
  access: Pick<AccountInput, 'role' | 'apps'>,
): Promise<void> {
  const account = await findAccountById(db, accountId)
  if (!account) throw notFound(accountId)
  // an admin keeping their own role changes nothing, and ending their sessions would only sign them out
  if (accountId === actorId && account.role === 'admin' && access.role === 'admin') return
  const demotes = account.role === 'admin' && access.role !== 'admin'
  if (demotes && accountId === actorId)
    throw conflict('you cannot take away your own admin role: ask another admin to do it')
  await inAdminChange(db, async (trx) => {
    if (demotes) await assertNotLastAdmin(trx, accountId)
    await setAccess(trx, accountId, access)
  })
  await record('account_changed', `${account.email}: ${describeAccess(access)}`)
}

/** Disables (ending its sessions) or re-enables; an admin never disables themselves or the last admin. */
export async function changeDisabled({ db, actorId, accountId, record }: AccountChange, disabled: boolean) {
  const account = await findAccountById(db, accountId)
  if (!account) throw notFound(accountId)
  if (disabled && accountId === actorId)
    throw conflict('you cannot disable your own account: ask another admin to do it')
  await inAdminChange(db, async (trx) => {
    if (disabled && account.role === 'admin') await assertNotLastAdmin(trx, accountId)
    await setDisabled(trx, accountId, disabled)
  })
  await record(disabled ? 'account_disabled' : 'account_enabled', account.email)
}

/** Clears an account's authenticator and recovery codes (and its sessions). */
export async function resetAccountTwoFactor({ db, actorId, accountId, record }: AccountChange) {
  const account = await findAccountById(db, accountId)
  if (!account) throw notFound(accountId)
  // the reset would end the acting admin's own session; their own page turns it off instead
  if (accountId === actorId)
    throw conflict('reset your own two-factor sign-in on your account page, not here')
  await resetTwoFactor(db, accountId)
  await record('two_factor_reset', account.email)
}

/** Runs a change of role or of enabled state in one transaction with the check that comes before it. */
function inAdminChange(db: Kysely<Database>, change: (trx: Transaction<Database>) => Promise<void>) {
  return retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      await lockAdminChanges(trx)
      await change(trx)
    }),
  )
}

/** Refuses to demote or disable the account when no other enabled admin would be left (read in the change's transaction). */
async function assertNotLastAdmin(trx: Transaction<Database>, accountId: number) {
  const admins = await enabledAdminIds(trx)
  // a disabled admin leaves the enabled ones as they are
  if (!admins.includes(accountId)) return
  if (admins.every((id) => id === accountId))
    throw conflict('this is the last enabled admin: make another account admin first')
}

/** 'role staff, apps brigit (export), earnin' */
export function describeAccess({ role, apps }: { role: string; apps: StaffAppAccess[] }): string {
  if (role === 'admin') return 'role admin'
  const list = apps
    .map(({ app, canExport, canDecide, canPay }) => {
      const rights = [canExport && 'export', canDecide && 'decide', canPay && 'payments'].filter(Boolean)
      return rights.length > 0 ? `${app} (${rights.join(', ')})` : app
    })
    .join(', ')
  return `role ${role}, apps ${list || 'none'}`
}

function notFound(id: number): AppError {
  return new AppError('NOT_FOUND', { status: 404, message: `no staff account has the id ${id}` })
}

function emailTaken(email: string): AppError {
  return new AppError('EMAIL_TAKEN', {
    status: 409,
    message: `an account with the e-mail "${email}" already exists: change that one instead`,
  })
}

function conflict(message: string): AppError {
  return new AppError('CONFLICT', { status: 409, message })
}
