import type { Kysely, Transaction } from 'kysely'
import type { Confirmed } from '../../src/confirmation-messages.ts'
import type { Translator } from '../../src/translate.ts'
import type { SignerInfo } from '../platform/signer.ts'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { isoTimestamp } from '../db/timestamp.ts'
import { appendToLedger, subjectOf } from '../evidence/ledger.ts'
import { confirmationRecordFromRow, sealOf } from '../evidence/sealed-record.ts'
import { queueWebhookEvent } from '../webhooks/webhook-events.ts'
import { linkHash, tableOf, targetOfLink, type LinkTarget } from './confirmation-links.ts'

/**
 * Confirms the claim or intake a link's token names: when, from where and in what browser, on its row,
 * and sealed into the evidence ledger under its subject, in one transaction. One already confirmed
 * keeps its first confirmation and says so.
 */
export async function confirmByLink({
  db,
  evidenceKey,
  token,
  confirmer,
  t,
}: {
  db: Kysely<Database>
  evidenceKey: Buffer
  token: unknown
  confirmer: SignerInfo
  /** The claimant's language, for the refusals. */
  t: Translator
}): Promise<Confirmed> {
  const hash = linkHash(token, t)
  return retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      const target = await targetOfLink(trx, hash, t)
      return confirmRecord(trx, { evidenceKey, target, confirmer })
    }),
  )
}

/**
 * Confirms a claim or intake inside the caller's transaction (its link's page, or the claimant's own
 * page of claims): a confirmed intake's address becomes its claims' (intake-ties.ts). One already
 * confirmed keeps its first confirmation and says so.
 */
export async function confirmRecord(
  trx: Transaction<Database>,
  { evidenceKey, target, confirmer }: { evidenceKey: Buffer; target: LinkTarget; confirmer: SignerInfo },
): Promise<Confirmed> {
  const table = tableOf(target)
  const confirmedAt = new Date().toISOString()
  // only the first confirmation writes: the condition decides between two that arrive together
  const updated = await trx
    .updateTable(table)
    .set({
      confirmed_at: confirmedAt,
      confirmed_ip: confirmer.ipAddress,
      confirmed_user_agent: confirmer.userAgent,
    })
    .where('id', '=', target.id)
    .where('confirmed_at', 'is', null)
    .executeTakeFirst()
  if (Number(updated.numUpdatedRows) === 0) {
    const first = await trx
      .selectFrom(table)
      .select('confirmed_at')
      .where('id', '=', target.id)
      .executeTakeFirstOrThrow()
    return { confirmedAt: isoTimestamp(first.confirmed_at!), alreadyConfirmed: true }
  }
  const record = confirmationRecordFromRow(
    {
      id: target.id,
      confirmed_at: confirmedAt,
      confirmed_ip: confirmer.ipAddress,
      confirmed_user_agent: confirmer.userAgent,
    },
    target.of,
  )!
  await appendToLedger(trx, evidenceKey, [
    { kind: 'confirmation', subject: subjectOf(target.of, target.id), seal: sealOf(record) },
  ])
  if (target.of === 'claim') await queueWebhookEvent(trx, { type: 'claim.confirmed', claimId: target.id })
  return { confirmedAt, alreadyConfirmed: false }
}
