import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import type { PeriodicJobHandler } from '../jobs/job-handler.ts'
import type { Logger } from '../logger.ts'
import { sendEvidenceDigest, type DigestMailer } from './evidence-digest.ts'
import { anchorLedgerHead } from './ledger-anchor.ts'

export const ANCHOR_LEDGER = 'anchor-ledger'

/** How often the head file is brought up to date (and the day's digest looked for). */
const ANCHOR_EVERY_MS = 60_000

/**
 * The ledger's head, written into DATA_DIR's head file every minute and once more as the server
 * stops, and the admins' daily digest of it (sendEvidenceDigest sends each day's once, whichever
 * process looks). A ledger found shorter than the anchor is logged as an error each time
 * (verify-evidence names it too). It claims no rows: writing the head twice writes the same head.
 */
export function anchorLedgerJob({
  db,
  evidenceKey,
  dataDir,
  staffMailer,
  logger,
}: {
  db: Kysely<Database>
  evidenceKey: Buffer
  dataDir: string
  staffMailer: DigestMailer
  logger: Logger
}): PeriodicJobHandler {
  const anchor = async () => {
    const { problem } = await anchorLedgerHead({ db, evidenceKey, dataDir })
    if (problem) logger.error({ problem }, 'evidence ledger does not reach its anchored head')
  }
  return {
    kind: ANCHOR_LEDGER,
    pollMs: ANCHOR_EVERY_MS,
    async run() {
      await anchor()
      const { sent } = await sendEvidenceDigest({ db, staffMailer })
      if (sent > 0) logger.info({ admins: sent }, 'evidence digest sent')
    },
    async stop() {
      await anchor().catch((error: unknown) => {
        logger.error(
          { err: error instanceof Error ? error.message : String(error) },
          'evidence head not anchored',
        )
      })
    },
  }
}
