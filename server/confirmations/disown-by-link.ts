import type { Kysely, Transaction } from 'kysely'
import type { Disowned, LinkedRecord } from '../../src/confirmation-messages.ts'
import type { FormConfig } from '../../src/form-config.ts'
import { intakeReference } from '../../src/journey-config.ts'
import type { Translator } from '../../src/translate.ts'
import type { SignerInfo } from '../platform/signer.ts'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { isoTimestamp } from '../db/timestamp.ts'
import { writeAuditEntry } from '../audit/audit-log.ts'
import { untieDisownedIntake } from './intake-ties.ts'
import { linkHash, tableOf, targetOfLink, type LinkTarget } from './confirmation-links.ts'

const isoOrNull = (epochMs: number | null) =>
  epochMs === null ? null : new Date(Number(epochMs)).toISOString()

/**
 * What a confirmation link names, for its page to say: a claim's app, number and filing time, or an
 * intake's reference, chosen apps and signing time.
 */
export async function linkedRecord({
  db,
  forms,
  token,
  t,
}: {
  db: Kysely<Database>
  /** The apps in the reader's language, for their names. */
  forms: Map<string, FormConfig>
  token: unknown
  t: Translator
}): Promise<LinkedRecord> {
  const target = await targetOfLink(db, linkHash(token, t), t)
  const appName = (app: string) => forms.get(app)?.displayName ?? app
  if (target.of === 'claim') {
    const claim = await db
      .selectFrom('claims')
      .select(['app', 'created_at', 'confirmed_at', 'disowned_at'])
      .where('id', '=', target.id)
      .executeTakeFirstOrThrow()
    return {
      of: 'claim',
      claimId: target.id,
      appName: appName(claim.app),
      filedAt: isoTimestamp(claim.created_at),
      confirmedAt: claim.confirmed_at === null ? null : isoTimestamp(claim.confirmed_at),
      disownedAt: isoOrNull(claim.disowned_at),
    }
  }
  const intake = await db
    .selectFrom('form_submissions')
    .select(['cash_advance_apps', 'created_at', 'confirmed_at', 'disowned_at'])
    .where('id', '=', target.id)
    .executeTakeFirstOrThrow()
  return {
    of: 'intake',
    reference: intakeReference(target.id),
    appNames: (JSON.parse(intake.cash_advance_apps) as string[]).map(appName),
    filedAt: isoTimestamp(intake.created_at),
    confirmedAt: intake.confirmed_at === null ? null : isoTimestamp(intake.confirmed_at),
    disownedAt: isoOrNull(intake.disowned_at),
  }
}

/**
 * "This wasn't me": the owner of the e-mail says they did not file the claim or intake the link names.
 * Kept on its row (when, from where, in what browser) with an audit entry sealed into the ledger, in one
 * transaction, so the staff views' "Not me" filters find it for review. Said twice, the first stands.
 */
export async function disownByLink({
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
}): Promise<Disowned> {
  const hash = linkHash(token, t)
  return retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      const target = await targetOfLink(trx, hash, t)
      return disownRecord(trx, { evidenceKey, target, claimant })
    }),
  )
}

/**
 * Disowns a claim or intake inside the caller's transaction (its link's page, or the claimant's own
 * page of claims). A disowned intake's claims name it no more, and its e-mail and phone are free again
 * (intake-ties.ts). The first answer stands: a second one changes nothing and says when the first was.
 */
export async function disownRecord(
  trx: Transaction<Database>,
  { evidenceKey, target, claimant }: { evidenceKey: Buffer; target: LinkTarget; claimant: SignerInfo },
): Promise<Disowned> {
  const table = tableOf(target)
  const now = Date.now()
  // only the first answer writes: the condition decides between two that arrive together
  const updated = await trx
    .updateTable(table)
    .set({ disowned_at: now, disowned_ip: claimant.ipAddress, disowned_user_agent: claimant.userAgent })
    .where('id', '=', target.id)
    .where('disowned_at', 'is', null)
    .executeTakeFirst()
  if (Number(updated.numUpdatedRows) === 0) {
    const first = await trx
      .selectFrom(table)
      .select('disowned_at')
      .where('id', '=', target.id)
      .executeTakeFirstOrThrow()
    return { disownedAt: isoOrNull(first.disowned_at)!, alreadyDisowned: true }
  }
  const app =
    target.of === 'claim'
      ? (await trx.selectFrom('claims').select('app').where('id', '=', target.id).executeTakeFirstOrThrow())
          .app
      : undefined
  if (target.of === 'intake') await untieDisownedIntake(trx, target.id)
  await writeAuditEntry(trx, evidenceKey, {
    clientAddress: claimant.ipAddress,
    actor: 'claimant',
    app,
    action: target.of === 'claim' ? 'claim_disowned' : 'intake_disowned',
    detail: `${target.of} ${target.id}: the owner of its e-mail said they did not file it`,
  })
  return { disownedAt: new Date(now).toISOString(), alreadyDisowned: false }
}
