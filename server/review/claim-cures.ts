import crypto from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import type { ReviewConfig } from '../../src/review-config.ts'
import type { Locale } from '../../src/translate.ts'
import { tokenHash } from '../confirmations/confirmation-links.ts'
import type { Database } from '../db/database.ts'

/** The audit log's client address for what the server does on its own. */
export const SERVER_ACTOR = { clientAddress: 'server', accountId: null, actor: 'server' }

/**
 * The cure periods' mail and ends: a deficiency notice as soon as a claim is made deficient, a
 * reminder at half the period and another two days before its end, each with a link of its own; at
 * the end, a claim still deficient moves to not_cured (send-cure-notice.job.ts, end-cure-period.job.ts).
 */
export interface ClaimCures {
  /** A claim was made deficient: send its notice now. */
  wake(): void
  /** Does what is due at `now` (tests move the clock), returning when nothing more is. */
  runDue(now?: number): Promise<void>
  settled(): Promise<void>
  stop(): Promise<void>
}

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
