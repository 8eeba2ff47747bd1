import crypto from 'node:crypto'
import type { Kysely } from 'kysely'
import { DEFAULT_LOCALE, type Locale } from '../../src/translate.ts'
import type { Database } from '../db/database.ts'

/** The page a link opens; the token is in the fragment, which browsers do not send to servers or in Referer. */
export const CONFIRM_PAGE_PATH = '/confirm'

/** The SHA-256 (hex) of a token: what the database keeps, so a copy of it confirms nothing. */
export function tokenHash(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex')
}

/**
 * Makes a new confirmation link for a claim: a random token, stored hashed. Each e-mail sent gets its
 * own, and every one stays valid, so a copy retried after a send that only looked failed still works.
 */
export async function issueConfirmationLink(
  db: Kysely<Database>,
  { claimId, origin, locale }: { claimId: number; origin: string; locale: Locale },
): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url')
  await db
    .insertInto('claim_confirmation_links')
    .values({ token_hash: tokenHash(token), claim_id: claimId, issued_at: Date.now() })
    .execute()
  // the page opens in the copy's language
  const lang = locale === DEFAULT_LOCALE ? '' : `?lang=${locale}`
  return `${origin}${CONFIRM_PAGE_PATH}${lang}#token=${token}`
}
