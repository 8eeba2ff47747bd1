import { setTimeout as sleep } from 'node:timers/promises'
import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import type { RowJobHandler } from '../jobs/job-handler.ts'
import type { Logger } from '../logger.ts'
import type { ScreenshotStorage } from '../uploads/screenshot-storage.ts'
import type { ScreenshotHasher } from './screenshot-hasher.ts'
import { wakeScores } from '../fraud/fraud-repository.ts'
import {
  findCheckedClaim,
  findKnownHashes,
  findMatches,
  recordCheck,
} from './screenshot-matches.repository.ts'

export const CHECK_SCREENSHOT = 'check-screenshot'

// a check taken this often without an outcome is given up as unreadable, never taken again: a file that
// takes its process down (memory, a crash in a decoder) would otherwise be taken after every restart
const MAX_ATTEMPTS = 3
// the claimants' e-mail copies go first (each carries the "Confirm it was you" link the claimant waits
// for; staff read the flags later): the checks wait while copies are going out, but for this long at
// most, then go on beside them, so a long run of copies does not hold the checks back for good; a
// pause in the copies (a surge of claims holds them too) starts the count again
const COPIES_FIRST_MS = 5 * 60_000
// how often a check waiting for the copies looks again
const COPIES_CHECK_MS = 250

/**
 * Finds whether a claim's screenshot is another claimant's: the screenshot is fingerprinted in a
 * low-priority thread (or its hashes reused when the same bytes were seen before), matched against the
 * other claimants' through indexed hash bands, and recorded in one transaction. A file that is missing
 * or does not decode, or whose check was taken MAX_ATTEMPTS times without an outcome, is recorded as
 * unreadable, never tried again; a store that cannot be read is retried. The claimants' e-mail copies
 * go first (COPIES_FIRST_MS).
 */
export function checkScreenshotJob({
  db,
  storage,
  hasher,
  logger,
  copiesSending = () => false,
}: {
  db: Kysely<Database>
  storage: ScreenshotStorage
  hasher: ScreenshotHasher
  logger: Logger
  /** Whether the claimants' e-mail copies are going out (AgreementCopies.sending): they go first. */
  copiesSending?: () => boolean
}): RowJobHandler<'screenshot_checks'> {
  // since when the checks have let copies go first, while copies have been going out without a pause
  let copiesFirstSince: number | undefined

  const unreadable = (claimId: number) => recordCheck(db, { claimId, fingerprint: undefined, matches: [] })

  return {
    kind: CHECK_SCREENSHOT,
    table: 'screenshot_checks',
    pollMs: 10_000,
    waitsForQuiet: true,
    /** Waits while copies are going out, up to COPIES_FIRST_MS after the copies began to hold the checks. */
    async before(isStopped) {
      while (!isStopped() && copiesSending()) {
        copiesFirstSince ??= Date.now()
        if (Date.now() - copiesFirstSince >= COPIES_FIRST_MS) return
        await sleep(COPIES_CHECK_MS)
      }
      copiesFirstSince = undefined
    },
    async run({ row, attempts, now, retryAt }) {
      const claimId = Number(row.claim_id)
      if (attempts > MAX_ATTEMPTS) {
        logger.warn(
          { claimId, attempts: attempts - 1 },
          'screenshot check never finished; not checked for duplicates',
        )
        await unreadable(claimId)
        return 'ended'
      }
      const claim = await findCheckedClaim(db, claimId)
      if (!claim) return 'ended' // purged meanwhile: its check went with it
      let fingerprint = await findKnownHashes(db, claim.screenshotSha256)
      if (!fingerprint) {
        let bytes: Buffer
        try {
          bytes = await storage.read(claim.screenshotKey)
        } catch (error) {
          const isMissing = (error as { code?: unknown }).code === 'ENOENT'
          if (!isMissing && retryAt !== undefined) {
            logger.warn(
              { claimId, attempt: attempts, retryInMs: retryAt - now },
              'screenshot not readable; check will be retried',
            )
            return 'retry'
          }
          logger.warn({ claimId }, 'screenshot missing or never readable; not checked for duplicates')
          await unreadable(claimId)
          return 'ended'
        }
        fingerprint = await hasher.fingerprint(bytes).catch((error: unknown) => {
          logger.warn(
            { claimId, err: error instanceof Error ? error.message : String(error) },
            'screenshot does not decode; not checked for duplicates',
          )
          return undefined
        })
        if (!fingerprint) {
          await unreadable(claimId)
          return 'ended'
        }
      }
      const matches = await findMatches(db, { claim, fingerprint })
      // the check's row goes with its outcome: nothing is left to release
      await recordCheck(db, { claimId, fingerprint, matches })
      if (matches.length > 0) {
        logger.info({ claimId, matches: matches.length }, 'duplicate screenshot flagged')
        // a duplicate deducts from the fraud score of the claim and of those it copies
        await wakeScores(db, [claimId, ...matches.map((match) => match.otherClaimId)])
      }
      return 'ended'
    },
    stop: () => hasher.stop(),
  }
}
