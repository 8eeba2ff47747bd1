import crypto from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import type { ReviewConfig } from '../../src/review-config.ts'
import type { Locale } from '../../src/translate.ts'
import { tokenHash } from '../platform/token-hash.ts'
import type { Database } from '../db/database.ts'
import type { JobKinds } from '../jobs/job-runner.ts'

/** The audit log's client address for what the server does on its own. */
export const SERVER_ACTOR = { clientAddress: 'server', accountId: null, actor: 'server' }

/**
 * The cure periods' mail and ends (send-cure-notice.job.ts, end-cure-period.job.ts); runDue(now) moves
 * the clock (tests).
 */
export type ClaimCures = JobKinds

/** A reason's text for the claimant in their language (English when it has none), or the reviewer's own. */
export function reasonText(
  review: ReviewConfig,
  reason: string | null,
  written: string | null,
  locale: Locale,
): string {
  if (written) return written
  const text = reason === null ? undefined : review.reasons[reason]?.text
  return text?.[locale] ?? text?.en ?? ''
}

/** A new link to a cure's page: a random token, kept only as its SHA-256 (claim_cure_links). */
export async function issueCureLink(
  db: Kysely<Database> | Transaction<Database>,
  cureId: number,
  now: number,
): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url')
  await db
    .insertInto('claim_cure_links')
    .values({ token_hash: tokenHash(token), cure_id: cureId, issued_at: now, opened_at: null })
    .execute()
  return token
}
