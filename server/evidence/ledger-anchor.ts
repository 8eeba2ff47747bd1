import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { sql, type Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { isPostgresDb } from '../db/dialect.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { makePrivateFolder, PRIVATE_FILE_MODE } from '../private-files.ts'
import { canonicalJson } from './canonical-json.ts'
import { keyedDigest } from './evidence-key.ts'
import { lockLedger, sameHex } from './ledger.ts'

/**
 * The ledger's head as last seen, in DATA_DIR beside the evidence key: the chain's hashes show an entry
 * changed or removed in the middle, but not the newest entries removed with the rows they seal. The
 * head file, out of the database and under the key's HMAC, remembers how far the chain went.
 */
export const ANCHOR_FILE = 'evidence-head.json'

export interface LedgerHead {
  seq: number
  hash: string
}

export type AnchorReading =
  { kind: 'none' } | { kind: 'anchored'; head: LedgerHead } | { kind: 'unreadable'; problem: string }

export function anchorFile(dataDir: string): string {
  return path.join(dataDir, ANCHOR_FILE)
}

function anchorHmac(key: Buffer, { seq, hash }: LedgerHead): string {
  return keyedDigest(key, canonicalJson({ seq, hash }))
}

/** The anchored head, once its HMAC verifies under the evidence key. */
export function readAnchor(dataDir: string, evidenceKey: Buffer): AnchorReading {
  const file = anchorFile(dataDir)
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'none' }
    throw error
  }
  try {
    const { seq, hash, hmac } = JSON.parse(text) as { seq: unknown; hash: unknown; hmac: unknown }
    if (typeof seq !== 'number' || typeof hash !== 'string' || typeof hmac !== 'string') {
      throw new Error('seq, hash or hmac missing')
    }
    if (!sameHex(anchorHmac(evidenceKey, { seq, hash }), hmac)) {
      return {
        kind: 'unreadable',
        problem: `${file}: HMAC does not match the evidence key (the anchored head was changed)`,
      }
    }
    return { kind: 'anchored', head: { seq, hash } }
  } catch (error) {
    return { kind: 'unreadable', problem: `${file}: not an anchored head (${(error as Error).message})` }
  }
}

/**
 * What the anchored head says of the ledger as it is: a problem line, or undefined when the ledger
 * still holds the anchored entry with the anchored hash.
 */
export function anchorProblem(
  anchored: LedgerHead,
  last: number,
  hashAtAnchor: string | undefined,
): string | undefined {
  if (last < anchored.seq) {
    return `ledger ends at entry ${last} but the anchored head is entry ${anchored.seq} (entries were removed)`
  }
  if (hashAtAnchor !== anchored.hash) {
    return `ledger entry ${anchored.seq}: hash differs from the anchored head's (the chain was rewritten from there)`
  }
  return undefined
}

/**
 * Writes the ledger's head into the head file, never backwards: under the ledger's lock (several
 * processes may share the folder; the one that writes last has read the newest head), and only when
 * the file's head is still in the chain. A ledger shorter than the anchor, or with another entry at
 * its place, leaves the file as it is (the proof of what was removed) and is returned as a problem.
 */
export async function anchorLedgerHead({
  db,
  evidenceKey,
  dataDir,
}: {
  db: Kysely<Database>
  evidenceKey: Buffer
  dataDir: string
}): Promise<{ head: LedgerHead | undefined; problem?: string }> {
  return retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      if (isPostgresDb<Database>(trx)) await lockLedger(trx)
      // SQLite: a write, even of no row, takes the database's write lock, which appends wait for
      else await sql`UPDATE evidence_digests SET day = day WHERE 0 = 1`.execute(trx)
      const row = await trx
        .selectFrom('evidence_ledger')
        .select(['seq', 'hash'])
        .orderBy('seq', 'desc')
        .limit(1)
        .executeTakeFirst()
      const head = row && { seq: Number(row.seq), hash: row.hash }
      const reading = readAnchor(dataDir, evidenceKey)
      if (reading.kind === 'unreadable') return { head, problem: reading.problem }
      if (reading.kind === 'anchored') {
        const anchored = reading.head
        const atAnchor = await trx
          .selectFrom('evidence_ledger')
          .select('hash')
          .where('seq', '=', anchored.seq)
          .executeTakeFirst()
        const problem = anchorProblem(anchored, head?.seq ?? 0, atAnchor?.hash)
        if (problem) return { head, problem }
        if (anchored.seq === head!.seq) return { head }
      }
      if (head) writeAnchor(dataDir, evidenceKey, head)
      return { head }
    }),
  )
}

/** Whole under another name, flushed, then renamed over the old: a reader sees one head or the other. */
function writeAnchor(dataDir: string, evidenceKey: Buffer, head: LedgerHead): void {
  makePrivateFolder(dataDir)
  const file = anchorFile(dataDir)
  const draft = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`
  const text = `${JSON.stringify({ ...head, hmac: anchorHmac(evidenceKey, head), at: new Date().toISOString() })}\n`
  const fd = fs.openSync(draft, 'wx', PRIVATE_FILE_MODE)
  try {
    fs.writeFileSync(fd, text)
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
  try {
    fs.renameSync(draft, file)
  } catch (error) {
    fs.rmSync(draft, { force: true })
    throw error
  }
}
