import fs from 'node:fs'
import path from 'node:path'
import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { EVIDENCE_KEY_FILE, keyedDigest, loadEvidenceKey } from './evidence-key.ts'

/**
 * The evidence key as the server starts, checked against the ledger: a key file that went missing
 * while the ledger holds entries (a restore that left it behind), or a key that did not seal them,
 * stops the start-up instead of sealing new records under a key the old ones do not verify with.
 */
export async function openEvidenceKey({
  db,
  setting,
  dataDir,
}: {
  db: Kysely<Database>
  setting: string | undefined
  dataDir: string
}): Promise<Buffer> {
  const last = await db
    .selectFrom('evidence_ledger')
    .select(['seq', 'hash', 'hmac'])
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst()
  const file = path.join(dataDir, EVIDENCE_KEY_FILE)
  if (last && setting === undefined && !fs.existsSync(file)) {
    throw new Error(
      `${file} is missing, yet the evidence ledger holds ${Number(last.seq)} entries sealed with it: ` +
        'restore the file from its backup, or set EVIDENCE_KEY to the key',
    )
  }
  const key = loadEvidenceKey({ setting, dataDir })
  if (last && keyedDigest(key, last.hash) !== last.hmac) {
    throw new Error(
      `the evidence key (${setting === undefined ? file : 'EVIDENCE_KEY'}) is not the key the evidence ledger was sealed with: ` +
        'restore the right one',
    )
  }
  return key
}
