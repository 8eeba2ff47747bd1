import type { Kysely, Transaction } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import type { StaffRole } from '../../src/api/staff.ts'
import type { InviteLinkInfo } from '../../src/api/staff-accounts.ts'
import { isUniqueViolation } from '../db/create-db.ts'
import type { Database } from '../db/database.ts'
import { hashPassword, passwordProblem } from '../staff/password-hash.ts'
import { endAccountSessions } from '../staff/staff-accounts.ts'
import { parseEmail, parseName } from './account-input.ts'
import { tokenHash } from '../platform/token-hash.ts'

export const INVITE_GONE_MESSAGE =
  'this invitation link has expired or was already used: ask an admin of your firm to send you a new invitation'
export const SETUP_GONE_MESSAGE =
  'this set-up link has expired or was already used: start the server again to write a new link to DATA_DIR/first-admin-link.txt, or sign in if your admin account exists'

/** What an open link leads to; 410 when it is unknown, spent or past its 48 hours. */
export async function checkInvite(db: Kysely<Database>, token: unknown): Promise<InviteLinkInfo> {
  const invite = await findOpenInvite(db, parseToken(token))
  if (invite.accountId === null) return { kind: 'setup' }
  return { kind: 'invite', email: invite.email, name: invite.name }
}

/**
 * Sets the password of the invited account, or (the set-up link) creates the first admin with it. The
 * link is spent in the same transaction, so it works once even when two tabs submit at the same moment.
 */
export async function acceptInvite(
  db: Kysely<Database>,
  body: unknown,
): Promise<{ accountId: number; email: string; role: StaffRole; kind: InviteLinkInfo['kind'] }> {
  const input = (body ?? {}) as Record<string, unknown>
  const hash = tokenHash(parseToken(input.token))
  const invite = await findOpenInvite(db, parseToken(input.token))
  const problem = passwordProblem(input.password)
  if (problem) throw new AppError('BAD_REQUEST', { status: 400, message: problem })
  const newAdmin =
    invite.accountId === null ? { email: parseEmail(input.email), name: parseName(input.name) } : undefined
  const passwordHash = await hashPassword(input.password as string)
  return db.transaction().execute(async (trx) => {
    const spent = await trx
      .updateTable('staff_invites')
      .set({ used_at: Date.now() })
      .where('token_hash', '=', hash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', Date.now())
      .executeTakeFirst()
    if (Number(spent.numUpdatedRows) !== 1) throw gone(invite.accountId)
    if (!newAdmin) {
      await trx
        .updateTable('staff_accounts')
        .set({ password_hash: passwordHash })
        .where('id', '=', invite.accountId!)
        .execute()
      await endAccountSessions(trx, invite.accountId!)
      return { accountId: invite.accountId!, email: invite.email, role: invite.role, kind: 'invite' as const }
    }
    await assertNoAdmin(trx)
    const { id } = await trx
      .insertInto('staff_accounts')
      .values({ ...newAdmin, role: 'admin', password_hash: passwordHash, created_at: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow()
      .catch((error: unknown) => {
        if (!isUniqueViolation(error)) throw error
        throw new AppError('EMAIL_TAKEN', {
          status: 409,
          message: `a staff account with the e-mail "${newAdmin.email}" already exists: use another e-mail`,
        })
      })
    return { accountId: Number(id), email: newAdmin.email, role: 'admin' as const, kind: 'setup' as const }
  })
}

async function findOpenInvite(
  db: Kysely<Database>,
  token: string,
): Promise<{ accountId: number | null; email: string; name: string; role: StaffRole }> {
  const invite = await db
    .selectFrom('staff_invites')
    .leftJoin('staff_accounts', 'staff_accounts.id', 'staff_invites.account_id')
    .select([
      'staff_invites.account_id',
      'staff_invites.expires_at',
      'staff_accounts.email',
      'staff_accounts.name',
      'staff_accounts.role',
    ])
    .select('staff_invites.used_at')
    .where('token_hash', '=', tokenHash(token))
    .executeTakeFirst()
  if (!invite || invite.used_at !== null || Number(invite.expires_at) <= Date.now())
    throw gone(invite ? invite.account_id : undefined)
  const accountId = invite.account_id === null ? null : Number(invite.account_id)
  if (accountId === null) await assertNoAdmin(db)
  return { accountId, email: invite.email ?? '', name: invite.name ?? '', role: invite.role ?? 'admin' }
}

/** The set-up link makes the first admin only: once one exists, it is spent. */
async function assertNoAdmin(db: Kysely<Database> | Transaction<Database>): Promise<void> {
  const admin = await db
    .selectFrom('staff_accounts')
    .select('id')
    .where('role', '=', 'admin')
    .executeTakeFirst()
  if (admin) throw gone(null)
}

function parseToken(token: unknown): string {
  if (typeof token !== 'string' || !/^[\w-]{20,100}$/.test(token))
    throw new AppError('BAD_REQUEST', {
      status: 400,
      message: 'the link has no token: open it again from your e-mail (or the set-up file), whole',
    })
  return token
}

/** undefined: a token we cannot place, said as an invitation (the commoner link). */
function gone(accountId: number | null | undefined): AppError {
  return new AppError('LINK_EXPIRED', {
    status: 410,
    message: accountId === null ? SETUP_GONE_MESSAGE : INVITE_GONE_MESSAGE,
  })
}
