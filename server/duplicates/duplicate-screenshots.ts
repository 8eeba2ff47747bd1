import { setTimeout as sleep } from 'node:timers/promises'
import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import type { Logger } from '../logger.ts'
import { backgroundLoop } from '../background-loop.ts'
import type { RequestActivity } from '../request-activity.ts'
import type { ScreenshotStorage } from '../uploads/screenshot-storage.ts'
import type { ScreenshotHasher } from './screenshot-hasher.ts'
import {
  findCheckedClaim,
  findDueChecks,
  findKnownHashes,
  findMatches,
  leaseCheck,
  postponeCheck,
  recordCheck,
  type DueCheck,
} from './screenshot-matches.repository.ts'

/** Finds claims whose screenshot is another claimant's, in the background of the server. */
export interface DuplicateScreenshots {
  /** A claim was committed: look soon, once the server is quiet. */
  wake(): void
  /** Resolves once no check is due (or the sweeper is stopped). */
  settled(): Promise<void>
  stop(): Promise<void>
}

// the queue is also read every so often: claims committed by another server process, retries come due
const POLL_MS = 10_000
// a sweeper that dies holding a check (crash, deploy) leaves it to be taken again after this
const LEASE_MS = 5 * 60_000
// a check taken this often without an outcome is given up as unreadable, never taken again: a file that
// takes its process down (memory, a crash in a decoder) would otherwise be taken after every restart
const MAX_ATTEMPTS = 3
// a store that cannot be read (S3 down): tried again after 1, then 30 minutes (the third attempt is the last)
const RETRY_DELAYS_MS = [60_000, 30 * 60_000]
const BATCH = 50
// the claimants' e-mail copies go first (each carries the "Confirm it was you" link the claimant waits
// for; staff read the flags later): the checks wait while copies are going out, but for this long at
// most, then go on beside them, so a long run of copies does not hold the checks back for good; a
// pause in the copies (a surge of claims holds them too) starts the count again
const COPIES_FIRST_MS = 5 * 60_000
// how often a check waiting for the copies looks again
const COPIES_CHECK_MS = 250
/**
 * One claim at a time, oldest first, as agreement-copies.ts sends copies: each check is taken by a lease
 * so two server processes never do the same one; the screenshot is fingerprinted in a low-priority
 * thread (or its hashes reused when the same bytes were seen before), matched against the other
 * claimants' through indexed hash bands, and recorded in one transaction. A file that is missing or
 * does not decode, or whose check was taken MAX_ATTEMPTS times without an outcome, is recorded as
 * unreadable, never tried again. Claims come first (backgroundLoop's quiet moment), then the claimants'
 * e-mail copies (COPIES_FIRST_MS).
 */
export function createDuplicateScreenshots({
  db,
  storage,
  hasher,
  logger,
  requests,
  copiesSending = () => false,
}: {
  db: Kysely<Database>
  storage: ScreenshotStorage
  hasher: ScreenshotHasher
  logger: Logger
  /** The server's requests, which the checks wait for (backgroundLoop's quietMoment). */
  requests?: RequestActivity | undefined
  /** Whether the claimants' e-mail copies are going out (AgreementCopies.sending): they go first. */
  copiesSending?: () => boolean
}): DuplicateScreenshots {
  // claims come first: a check waits for backgroundLoop's quiet moment
  const loop = backgroundLoop({
    work: checkDue,
    pollMs: POLL_MS,
    logger,
    failure: 'duplicate screenshot checks failed',
    requests,
  })

  // since when the checks have let copies go first, while copies have been going out without a pause
  let copiesFirstSince: number | undefined
  /** Waits while copies are going out, up to COPIES_FIRST_MS after the copies began to hold the checks. */
  async function afterCopies(): Promise<void> {
    while (!loop.isStopped() && copiesSending()) {
      copiesFirstSince ??= Date.now()
      if (Date.now() - copiesFirstSince >= COPIES_FIRST_MS) return
      await sleep(COPIES_CHECK_MS)
    }
    copiesFirstSince = undefined
  }

  async function checkDue(): Promise<void> {
    for (;;) {
      const due = await findDueChecks(db, BATCH)
      if (due.length === 0) return
      for (const check of due) {
        await afterCopies()
        await loop.quietMoment()
        if (loop.isStopped()) return
        if (!(await leaseCheck(db, check, LEASE_MS))) continue
        if (check.attempts >= MAX_ATTEMPTS) await giveUp(check)
        else await checkClaim(check)
      }
    }
  }

  async function giveUp({ claimId, attempts }: DueCheck): Promise<void> {
    logger.warn({ claimId, attempts }, 'screenshot check never finished; not checked for duplicates')
    await recordCheck(db, { claimId, fingerprint: undefined, matches: [] })
  }

  async function checkClaim({ claimId, attempts }: DueCheck): Promise<void> {
    const claim = await findCheckedClaim(db, claimId)
    if (!claim) return // purged meanwhile: its check went with it
    let fingerprint = await findKnownHashes(db, claim.screenshotSha256)
    if (!fingerprint) {
      let bytes: Buffer
      try {
        bytes = await storage.read(claim.screenshotKey)
      } catch (error) {
        const isMissing = (error as { code?: unknown }).code === 'ENOENT'
        const delay = RETRY_DELAYS_MS[attempts]
        if (!isMissing && delay !== undefined) {
          logger.warn(
            { claimId, attempt: attempts + 1, retryInMs: delay },
            'screenshot not readable; check will be retried',
          )
          await postponeCheck(db, claimId, delay)
          return
        }
        logger.warn({ claimId }, 'screenshot missing or never readable; not checked for duplicates')
        await recordCheck(db, { claimId, fingerprint: undefined, matches: [] })
        return
      }
      fingerprint = await hasher.fingerprint(bytes).catch((error: unknown) => {
        logger.warn(
          { claimId, err: error instanceof Error ? error.message : String(error) },
          'screenshot does not decode; not checked for duplicates',
        )
        return undefined
      })
      if (!fingerprint) {
        await recordCheck(db, { claimId, fingerprint: undefined, matches: [] })
        return
      }
    }
    const matches = await findMatches(db, { claim, fingerprint })
    await recordCheck(db, { claimId, fingerprint, matches })
    if (matches.length > 0) logger.info({ claimId, matches: matches.length }, 'duplicate screenshot flagged')
  }

  return {
    wake: loop.wake,
    settled: loop.settled,
    async stop() {
      await loop.stop()
      await hasher.stop()
    },
  }
}
