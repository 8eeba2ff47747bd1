import type { Kysely } from 'kysely'
import type { ClaimDisowned, LinkedClaim } from '../../src/confirmation-messages.ts'
import type { FormConfig } from '../../src/form-config.ts'
import type { Translator } from '../../src/translate.ts'
import type { SignerInfo } from '../agreements/signer.ts'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { isoTimestamp } from '../db/timestamp.ts'
import { writeAuditEntry } from '../staff/audit-log.ts'
import { claimOfLink, linkHash } from './confirm-claim.ts'

/** Which claim a confirmation link names, for its page to say: the app, the number, when it was filed. */
export async function linkedClaim({
  db,
  forms,
  token,
  t,
}: {
  db: Kysely<Database>
  /** The apps in the reader's language, for the app's name. */
  forms: Map<string, FormConfig>
  token: unknown
  t: Translator
}): Promise<LinkedClaim> {
  const claimId = await claimOfLink(db, linkHash(token, t), t)
  const claim = await db
    .selectFrom('claims')
    .select(['app', 'created_at', 'confirmed_at', 'disowned_at'])
    .where('id', '=', claimId)
    .executeTakeFirstOrThrow()
  return {
    claimId,
    appName: forms.get(claim.app)?.displayName ?? claim.app,
    filedAt: isoTimestamp(claim.created_at),
    confirmedAt: claim.confirmed_at === null ? null : isoTimestamp(claim.confirmed_at),
    disownedAt: claim.disowned_at === null ? null : new Date(Number(claim.disowned_at)).toISOString(),
  }
}

/**
 * "This wasn't me": the owner of the e-mail says they did not file the claim. Kept on the claim (when,
 * from where, in what browser) with an audit entry sealed into the ledger, in one transaction, so the
 * dashboards' "Not me" filter finds it for review. Said twice, the first stands.
 */
export async function disownClaim({
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
}): Promise<ClaimDisowned> {
  const hash = linkHash(token, t)
  return retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      const claimId = await claimOfLink(trx, hash, t)
      const claim = await trx
        .selectFrom('claims')
        .select('app')
        .where('id', '=', claimId)
        .executeTakeFirstOrThrow()
      const now = Date.now()
      // only the first answer writes: the condition decides between two that arrive together
      const updated = await trx
        .updateTable('claims')
        .set({ disowned_at: now, disowned_ip: claimant.ipAddress, disowned_user_agent: claimant.userAgent })
        .where('id', '=', claimId)
        .where('disowned_at', 'is', null)
        .executeTakeFirst()
      if (Number(updated.numUpdatedRows) === 0) {
        const first = await trx
          .selectFrom('claims')
          .select('disowned_at')
          .where('id', '=', claimId)
          .executeTakeFirstOrThrow()
        return { disownedAt: new Date(Number(first.disowned_at)).toISOString(), alreadyDisowned: true }
      }
      await writeAuditEntry(trx, evidenceKey, {
        clientAddress: claimant.ipAddress,
        actor: 'claimant',
        app: claim.app,
        action: 'claim_disowned',
        detail: `claim ${claimId}: the owner of its e-mail said they did not file it`,
      })
      return { disownedAt: new Date(now).toISOString(), alreadyDisowned: false }
    }),
  )
}
