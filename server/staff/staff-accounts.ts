import { sql, type Kysely, type Transaction } from 'kysely'
import type { StaffAccountView, StaffAppAccess, StaffRole } from '../../src/api/staff.ts'
import type { Database } from '../db/database.ts'
import { isPostgresDb } from '../db/dialect.ts'
import { hashPassword } from './password-hash.ts'

type Db = Kysely<Database> | Transaction<Database>

/** An account as sign-in sees it: the view plus what only the server may read. */
export interface StaffAccountRow {
  id: number
  email: string
  name: string
  role: StaffRole
  passwordHash: string | null
  totpSecret: string | null
  disabled: boolean
}

/** E-mail addresses compare case-insensitively: stored and looked up lower-case, trimmed. */
export function normalEmail(email: string): string {
  return email.trim().toLowerCase()
}

export async function findAccountByEmail(db: Db, email: string): Promise<StaffAccountRow | undefined> {
  const row = await db
    .selectFrom('staff_accounts')
    .select(['id', 'email', 'name', 'role', 'password_hash', 'totp_secret', 'disabled_at'])
    .where('email', '=', normalEmail(email))
    .executeTakeFirst()
  return row && toAccountRow(row)
}

export async function findAccountById(db: Db, id: number): Promise<StaffAccountRow | undefined> {
  const row = await db
    .selectFrom('staff_accounts')
    .select(['id', 'email', 'name', 'role', 'password_hash', 'totp_secret', 'disabled_at'])
    .where('id', '=', id)
    .executeTakeFirst()
  return row && toAccountRow(row)
}

/** The account as the pages and the access checks see it, with its apps; undefined when disabled or gone. */
export async function loadAccountView(db: Db, id: number): Promise<StaffAccountView | undefined> {
  const account = await findAccountById(db, id)
  if (!account || account.disabled) return undefined
  return {
    id: account.id,
    email: account.email,
    name: account.name,
    role: account.role,
    apps: account.role === 'admin' ? [] : await accountApps(db, id),
    twoFactor: account.totpSecret !== null,
  }
}

export async function accountApps(db: Db, accountId: number): Promise<StaffAppAccess[]> {
  const rows = await db
    .selectFrom('staff_account_apps')
    .select(['app', 'can_export', 'can_decide', 'can_pay'])
    .where('account_id', '=', accountId)
    .orderBy('app')
    .execute()
  return rows.map(appAccessFromRow)
}

/** An app access as the pages see it: canDecide and canPay only where granted. */
export function appAccessFromRow(row: {
  app: string
  can_export: number
  can_decide: number
  can_pay: number
}): StaffAppAccess {
  return {
    app: row.app,
    canExport: Number(row.can_export) === 1,
    ...(Number(row.can_decide) === 1 ? { canDecide: true } : {}),
    ...(Number(row.can_pay) === 1 ? { canPay: true } : {}),
  }
}

export interface NewAccount {
  email: string
  name: string
  role: StaffRole
  apps: StaffAppAccess[]
  /** Unset: the person sets it through an invitation. */
  password?: string
}

/** Adds an account with its apps; the e-mail must be new (the unique index refuses a second). */
export async function createAccount(db: Kysely<Database>, account: NewAccount): Promise<number> {
  const passwordHash = account.password === undefined ? null : await hashPassword(account.password)
  return db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('staff_accounts')
      .values({
        email: normalEmail(account.email),
        name: account.name.trim(),
        role: account.role,
        password_hash: passwordHash,
        created_at: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await replaceApps(trx, Number(id), account.role === 'admin' ? [] : account.apps)
    return Number(id)
  })
}

/** Sets a new password and ends every session of the account. */
export async function setPassword(db: Kysely<Database>, accountId: number, password: string): Promise<void> {
  const passwordHash = await hashPassword(password)
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('staff_accounts')
      .set({ password_hash: passwordHash })
      .where('id', '=', accountId)
      .execute()
    await endAccountSessions(trx, accountId)
  })
}

/** Keeps a stronger hash of the same password (made at sign-in); the sessions stay. */
export async function replacePasswordHash(db: Db, accountId: number, passwordHash: string): Promise<void> {
  await db
    .updateTable('staff_accounts')
    .set({ password_hash: passwordHash })
    .where('id', '=', accountId)
    .execute()
}

/** Changes role and apps, and ends every session of the account so the change applies at once. */
export async function setAccess(
  trx: Transaction<Database>,
  accountId: number,
  { role, apps }: { role: StaffRole; apps: StaffAppAccess[] },
): Promise<void> {
  await trx.updateTable('staff_accounts').set({ role }).where('id', '=', accountId).execute()
  await replaceApps(trx, accountId, role === 'admin' ? [] : apps)
  await endAccountSessions(trx, accountId)
}

/** Disables (ending every session) or re-enables an account, in the caller's transaction. */
export async function setDisabled(
  trx: Transaction<Database>,
  accountId: number,
  disabled: boolean,
): Promise<void> {
  await trx
    .updateTable('staff_accounts')
    .set({ disabled_at: disabled ? Date.now() : null })
    .where('id', '=', accountId)
    .execute()
  if (disabled) await endAccountSessions(trx, accountId)
}

/**
 * The accounts that are enabled admins, read in the caller's transaction after `lockAdminChanges`, so a
 * change that checks them and then demotes or disables one cannot cross another such change.
 */
export async function enabledAdminIds(trx: Transaction<Database>): Promise<number[]> {
  const rows = await trx
    .selectFrom('staff_accounts')
    .select('id')
    .where('role', '=', 'admin')
    .where('disabled_at', 'is', null)
    .execute()
  return rows.map(({ id }) => Number(id))
}

/**
 * Makes changes to who is an enabled admin run one at a time: on PostgreSQL a lock held to the commit
 * (two admins disabling each other at once would each still see the other enabled); SQLite runs one
 * writing transaction at a time already, and one that read before another committed is refused and
 * run again (retryWhileLocked).
 */
export async function lockAdminChanges(trx: Transaction<Database>): Promise<void> {
  if (isPostgresDb<Database>(trx)) await sql`SELECT pg_advisory_xact_lock(${ADMIN_CHANGES_LOCK})`.execute(trx)
}

// any fixed number no other lock of the product uses (the evidence ledger's is another)
const ADMIN_CHANGES_LOCK = 0x5741_4430

/**
 * Turns two-factor sign-in off for an account that lost its authenticator: clears the secret (and one
 * being set up), deletes the recovery codes and ends every session. The next sign-in is by password
 * alone, or sets a new authenticator up where REQUIRE_2FA asks for one.
 */
export async function resetTwoFactor(db: Kysely<Database>, accountId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('staff_accounts')
      .set({
        totp_secret: null,
        totp_pending_secret: null,
        totp_last_step: null,
        totp_setup_code_hash: null,
        totp_setup_code_expires_at: null,
      })
      .where('id', '=', accountId)
      .execute()
    await trx.deleteFrom('staff_recovery_codes').where('account_id', '=', accountId).execute()
    await endAccountSessions(trx, accountId)
  })
}

export async function endAccountSessions(db: Db, accountId: number): Promise<void> {
  await db.deleteFrom('staff_sessions').where('account_id', '=', accountId).execute()
}

export async function countAccounts(db: Db): Promise<number> {
  const { count } = await db
    .selectFrom('staff_accounts')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow()
  return Number(count)
}

async function replaceApps(
  trx: Transaction<Database>,
  accountId: number,
  apps: StaffAppAccess[],
): Promise<void> {
  await trx.deleteFrom('staff_account_apps').where('account_id', '=', accountId).execute()
  if (apps.length === 0) return
  await trx
    .insertInto('staff_account_apps')
    .values(
      apps.map((access) => ({
        account_id: accountId,
        app: access.app,
        can_export: access.canExport ? 1 : 0,
        can_decide: access.canDecide === true ? 1 : 0,
        can_pay: access.canPay === true ? 1 : 0,
      })),
    )
    .execute()
}

function toAccountRow(row: {
  id: number
  email: string
  name: string
  role: StaffRole
  password_hash: string | null
  totp_secret: string | null
  disabled_at: number | null
}): StaffAccountRow {
  return {
    id: Number(row.id),
    email: row.email,
    name: row.name,
    role: row.role,
    passwordHash: row.password_hash,
    totpSecret: row.totp_secret,
    disabled: row.disabled_at !== null,
  }
}
