import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'

/** The evidence ledger's head, e-mailed to each admin once a day. */
export interface EvidenceDigestMail {
  account: { email: string; name: string }
  head: { seq: number; hash: string }
  at: Date
}

/** What sends the digest: the staff mailer (staff-mailer.ts), which knows the firm's mail path. */
export interface DigestMailer {
  sendEvidenceDigest(mail: EvidenceDigestMail): Promise<boolean>
}

/**
 * Once a day, every active admin is e-mailed the ledger's head (its sequence number and hash), so a
 * copy lives outside the machine: whoever controls the server can rewrite the head file with the key
 * beside it, not the admins' mailboxes. The day's row in evidence_digests makes it once a day across
 * processes; a day none could be delivered is given back, and the next minute's run tries again.
 */
export async function sendEvidenceDigest({
  db,
  staffMailer,
  now = new Date(),
}: {
  db: Kysely<Database>
  staffMailer: DigestMailer
  now?: Date
}): Promise<{ sent: number }> {
  const head = await db
    .selectFrom('evidence_ledger')
    .select(['seq', 'hash'])
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst()
  if (!head) return { sent: 0 }
  const day = now.toISOString().slice(0, 10)
  const claimed = await db
    .insertInto('evidence_digests')
    .values({ day, sent_at: now.getTime() })
    .onConflict((oc) => oc.column('day').doNothing())
    .executeTakeFirst()
  if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) return { sent: 0 }
  const admins = await db
    .selectFrom('staff_accounts')
    .select(['email', 'name'])
    .where('role', '=', 'admin')
    .where('disabled_at', 'is', null)
    .where('password_hash', 'is not', null)
    .orderBy('id')
    .execute()
  let sent = 0
  for (const account of admins) {
    const delivered = await staffMailer.sendEvidenceDigest({
      account,
      head: { seq: Number(head.seq), hash: head.hash },
      at: now,
    })
    if (delivered) sent += 1
  }
  if (sent === 0) await db.deleteFrom('evidence_digests').where('day', '=', day).execute()
  return { sent }
}
