import express, { Router } from 'express'
import type { Kysely, Transaction } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import type { StaffAssignee } from '../../src/api/staff.ts'
import type { FormConfig } from '../../src/form-config.ts'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { findFormOrThrow } from '../forms/find-form.ts'
import { actorOf, writeAuditEntry } from '../audit/audit-log.ts'
import { visibleClaim } from './claim-id.ts'
import { assertCanSee } from '../staff/require-staff.ts'

const NO_STORE = 'private, no-store'

/**
 * Who reviews a claim: the accounts an app's claims can be assigned to (for the dashboard's picker),
 * and the assignment itself, written with its audit entry and the entry's seal in one transaction.
 * Mounted after requireStaff and sameOriginOnly.
 */
export function assigneeRoutes({
  db,
  forms,
  evidenceKey,
}: {
  db: Kysely<Database>
  forms: Map<string, FormConfig>
  evidenceKey: Buffer
}): Router {
  const router = Router({ caseSensitive: true })
  const json = express.json({ limit: '1kb' })

  router.get('/api/staff/apps/:slug/assignees', async (req, res) => {
    const { slug } = findFormOrThrow(forms, req.params.slug)
    assertCanSee(res, slug)
    res.set('Cache-Control', NO_STORE).json(await assignableAccounts(db, slug))
  })

  router.put('/api/staff/claims/:id/assignee', json, async (req, res) => {
    const claim = await visibleClaim(db, res, req.params.id)
    const claimId = claim.id
    const accountId = parseAccountId(req.body)
    // another server process may hold SQLite's write lock
    const assignee = await retryWhileLocked(() =>
      db.transaction().execute(async (trx) => {
        const account = accountId === null ? null : await checkAssignee(trx, { accountId, app: claim.app })
        await trx
          .updateTable('claims')
          .set({ assignee_id: account?.id ?? null })
          .where('id', '=', claimId)
          .execute()
        await writeAuditEntry(trx, evidenceKey, {
          ...actorOf(req, res),
          app: claim.app,
          action: 'claim_assigned',
          detail: `claim ${claimId}: ${account ? `assigned to ${account.email}` : 'unassigned'}`,
        })
        return account
      }),
    )
    res.set('Cache-Control', NO_STORE).json({ assignee } satisfies { assignee: StaffAssignee | null })
  })

  return router
}

/** The accounts that may review an app's claims: enabled, set up, and an admin or granted the app. */
export async function assignableAccounts(db: Kysely<Database>, app: string): Promise<StaffAssignee[]> {
  const rows = await db
    .selectFrom('staff_accounts')
    .select(['id', 'email'])
    .where('disabled_at', 'is', null)
    .where('password_hash', 'is not', null)
    .where((eb) =>
      eb.or([
        eb('role', '=', 'admin'),
        eb.exists(
          eb
            .selectFrom('staff_account_apps')
            .select('app')
            .whereRef('staff_account_apps.account_id', '=', 'staff_accounts.id')
            .where('staff_account_apps.app', '=', app),
        ),
      ]),
    )
    .orderBy('email')
    .execute()
  return rows.map(({ id, email }) => ({ id: Number(id), email }))
}

/** `{ accountId: number | null }`, each other shape a 400. */
function parseAccountId(body: unknown): number | null {
  const { accountId } = (body ?? {}) as { accountId?: unknown }
  if (accountId === null) return null
  if (typeof accountId !== 'number' || !Number.isSafeInteger(accountId) || accountId < 1) {
    throw badRequest('"accountId" must be the id of a staff account (a whole number), or null to unassign')
  }
  return accountId
}

/**
 * The account, if it may review the app's claims; a 400 saying why not otherwise. The refusal names no
 * account: the caller may not otherwise know who holds the id, and the picker lists those who qualify.
 */
async function checkAssignee(
  trx: Transaction<Database>,
  { accountId, app }: { accountId: number; app: string },
): Promise<StaffAssignee> {
  const account = await trx
    .selectFrom('staff_accounts')
    .select(['id', 'email', 'role', 'disabled_at', 'password_hash'])
    .where('id', '=', accountId)
    .executeTakeFirst()
  if (!account) throw badRequest(`no staff account ${accountId} to assign the claim to`)
  if (account.disabled_at !== null) {
    throw badRequest('the chosen account is disabled: assign the claim to an active account')
  }
  if (account.password_hash === null) {
    throw badRequest(
      'the chosen account has not accepted its invitation yet: assign the claim to it once it has',
    )
  }
  if (account.role !== 'admin') {
    const access = await trx
      .selectFrom('staff_account_apps')
      .select('app')
      .where('account_id', '=', accountId)
      .where('app', '=', app)
      .executeTakeFirst()
    // fail-closed: an account without the app's access never sees the claim it would review
    if (!access) {
      throw badRequest(
        `the chosen account cannot see ${app}'s claims: an admin grants it the app first, or choose another account`,
      )
    }
  }
  return { id: Number(account.id), email: account.email }
}

function badRequest(message: string): AppError {
  return new AppError('BAD_REQUEST', { status: 400, message })
}
