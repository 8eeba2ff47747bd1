import type { Kysely, Transaction } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import {
  DISOWN_UNDO_EXPIRED_MESSAGE,
  DISOWN_UNDO_MS,
  DISOWN_UNDO_TAKEN_MESSAGE,
  type DisownUndone,
} from '../../src/confirmation-messages.ts'
import type { Translator } from '../../src/translate.ts'
import type { SignerInfo } from '../platform/signer.ts'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { retieUndisownedIntake } from './intake-ties.ts'
import { writeAuditEntry } from '../audit/audit-log.ts'
import { linkHash, tableOf, targetOfLink, type LinkTarget } from './confirmation-links.ts'

/** "This wasn't me" taken back from the link's page (/confirm), by the link's token. */
export async function undoDisownByLink({
  db,
  evidenceKey,
  token,
  claimant,
  t,
}: {
  db: Kysely<Database>
  evidenceKey: Buffer
  token: unknown
  claimant: SignerInfo
  t: Translator
}): Promise<DisownUndone> {
  const hash = linkHash(token, t)
  return retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      const target = await targetOfLink(trx, hash, t)
      return undoDisownRecord(trx, { evidenceKey, target, claimant, t })
    }),
  )
}

/**
 * Takes back "This wasn't me" on a claim or intake, within a day of it (DISOWN_UNDO_MS): its disowned_*
 * columns are cleared and an audit entry sealed, in the caller's transaction. An intake names its
 * claims again (intake-ties.ts), unless a newer intake took its e-mail and phone meanwhile: two would
 * then claim one pair, so that undo is refused. One not disowned (an undo pressed twice) answers as done.
 */
export async function undoDisownRecord(
  trx: Transaction<Database>,
  {
    evidenceKey,
    target,
    claimant,
    t,
    now = Date.now(),
  }: { evidenceKey: Buffer; target: LinkTarget; claimant: SignerInfo; t: Translator; now?: number },
): Promise<DisownUndone> {
  const table = tableOf(target)
  const row = await trx
    .selectFrom(table)
    .select('disowned_at')
    .where('id', '=', target.id)
    .executeTakeFirstOrThrow()
  if (row.disowned_at === null) return { undoneAt: new Date(now).toISOString() }
  const disownedAt = Number(row.disowned_at)
  if (now - disownedAt > DISOWN_UNDO_MS) {
    throw new AppError('UNDO_EXPIRED', { status: 409, message: t(DISOWN_UNDO_EXPIRED_MESSAGE) })
  }
  if (target.of === 'intake' && (await isPairTakenSince(trx, target.id))) {
    throw new AppError('UNDO_TAKEN', { status: 409, message: t(DISOWN_UNDO_TAKEN_MESSAGE) })
  }
  // the condition decides between an undo and a second "This wasn't me" that arrive together
  const updated = await trx
    .updateTable(table)
    .set({ disowned_at: null, disowned_ip: null, disowned_user_agent: null })
    .where('id', '=', target.id)
    .where('disowned_at', '=', disownedAt)
    .executeTakeFirst()
  if (Number(updated.numUpdatedRows) === 0) return { undoneAt: new Date(now).toISOString() }
  const app =
    target.of === 'claim'
      ? (await trx.selectFrom('claims').select('app').where('id', '=', target.id).executeTakeFirstOrThrow())
          .app
      : undefined
  if (target.of === 'intake') await retieUndisownedIntake(trx, target.id)
  await writeAuditEntry(trx, evidenceKey, {
    clientAddress: claimant.ipAddress,
    actor: 'claimant',
    app,
    action: target.of === 'claim' ? 'claim_disown_undone' : 'intake_disown_undone',
    detail: `${target.of} ${target.id}: the owner of its e-mail took back "this wasn't me"`,
  })
  return { undoneAt: new Date(now).toISOString() }
}

/** Whether another intake, not disowned, holds this one's e-mail and phone (the unique index's pair). */
async function isPairTakenSince(trx: Transaction<Database>, intakeId: number): Promise<boolean> {
  const intake = await trx
    .selectFrom('form_submissions')
    .select(['email', 'phone'])
    .where('id', '=', intakeId)
    .executeTakeFirstOrThrow()
  const other = await trx
    .selectFrom('form_submissions')
    .select('id')
    .where('email', '=', intake.email)
    .where('phone', '=', intake.phone)
    .where('disowned_at', 'is', null)
    .where('id', '<>', intakeId)
    .executeTakeFirst()
  return other !== undefined
}
