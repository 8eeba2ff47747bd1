import type { Kysely } from 'kysely'
import { backgroundLoop } from '../jobs/background-loop.ts'
import type { Database } from '../db/database.ts'
import type { Logger } from '../logger.ts'
import type { StaffMailer } from '../staff/accounts/staff-mailer.ts'
import { sendEvidenceDigest } from './evidence-digest.ts'
import { anchorLedgerHead } from './ledger-anchor.ts'

/** How often the head file is brought up to date (and the day's digest looked for). */
export const ANCHOR_EVERY_MS = 60_000

/**
 * The ledger's head, written into DATA_DIR's head file every minute and once more as the server
 * stops, and the admins' daily digest of it. A ledger found shorter than the anchor is logged as an
 * error each time (verify-evidence names it too).
 */
export function ledgerAnchorLoop({
  db,
  evidenceKey,
  dataDir,
  staffMailer,
  logger,
}: {
  db: Kysely<Database>
  evidenceKey: Buffer
  dataDir: string
  staffMailer: StaffMailer
  logger: Logger
}): { stop(): Promise<void> } {
  const anchor = async () => {
    const { problem } = await anchorLedgerHead({ db, evidenceKey, dataDir })
    if (problem) logger.error({ problem }, 'evidence ledger does not reach its anchored head')
  }
  const loop = backgroundLoop({
    work: async () => {
      await anchor()
      const { sent } = await sendEvidenceDigest({ db, staffMailer })
      if (sent > 0) logger.info({ admins: sent }, 'evidence digest sent')
    },
    pollMs: ANCHOR_EVERY_MS,
    logger,
    failure: 'evidence head not anchored',
  })
  loop.wake()
  return {
    async stop() {
      await loop.stop()
      await anchor().catch((error: unknown) => {
        logger.error(
          { err: error instanceof Error ? error.message : String(error) },
          'evidence head not anchored',
        )
      })
    },
  }
}
