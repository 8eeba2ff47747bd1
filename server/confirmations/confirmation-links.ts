import crypto from 'node:crypto'
import type { Kysely } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import {
  CONFIRMATION_INVALID_MESSAGE,
  CONFIRMATION_NOT_FOUND_MESSAGE,
  CONFIRMATION_TOKEN_PATTERN,
} from '../../src/confirmation-messages.ts'
import { DEFAULT_LOCALE, type Locale, type Translator } from '../../src/translate.ts'
import type { Database } from '../db/database.ts'
import { tokenHash } from '../platform/token-hash.ts'

/** The page a link opens; the token is in the fragment, which browsers do not send to servers or in Referer. */
export const CONFIRM_PAGE_PATH = '/confirm'

/** What a link confirms: a Step 2 claim (its copy's link) or a main-form intake (the e-mail after it). */
export type LinkTarget = { of: 'claim'; id: number } | { of: 'intake'; id: number }

/**
 * Makes a new confirmation link for a claim or an intake: a random token, stored hashed. Each e-mail
 * sent gets its own, and every one stays valid, so a copy retried after a send that only looked failed
 * still works.
 */
export async function issueConfirmationLink(
  db: Kysely<Database>,
  { target, origin, locale }: { target: LinkTarget; origin: string; locale: Locale },
): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url')
  const issued = { token_hash: tokenHash(token), issued_at: Date.now() }
  if (target.of === 'claim') {
    await db
      .insertInto('claim_confirmation_links')
      .values({ ...issued, claim_id: target.id })
      .execute()
  } else {
    await db
      .insertInto('intake_confirmation_links')
      .values({ ...issued, intake_id: target.id })
      .execute()
  }
  // the page opens in the e-mail's language
  const lang = locale === DEFAULT_LOCALE ? '' : `?lang=${locale}`
  return `${origin}${CONFIRM_PAGE_PATH}${lang}#token=${token}`
}

/** The SHA-256 a link's token is stored as; 400 for a token that cannot be one. */
export function linkHash(token: unknown, t: Translator): string {
  if (typeof token !== 'string' || !CONFIRMATION_TOKEN_PATTERN.test(token)) {
    throw new AppError('BAD_REQUEST', { status: 400, message: t(CONFIRMATION_INVALID_MESSAGE) })
  }
  return tokenHash(token)
}

/** The claim or intake a link names, by its token's hash; 404 for a link never issued. */
export async function targetOfLink(db: Kysely<Database>, hash: string, t: Translator): Promise<LinkTarget> {
  const claim = await db
    .selectFrom('claim_confirmation_links')
    .select('claim_id')
    .where('token_hash', '=', hash)
    .executeTakeFirst()
  if (claim) return { of: 'claim', id: Number(claim.claim_id) }
  const intake = await db
    .selectFrom('intake_confirmation_links')
    .select('intake_id')
    .where('token_hash', '=', hash)
    .executeTakeFirst()
  if (intake) return { of: 'intake', id: Number(intake.intake_id) }
  throw new AppError('CONFIRMATION_NOT_FOUND', { status: 404, message: t(CONFIRMATION_NOT_FOUND_MESSAGE) })
}

/** The table that holds what a link names; both keep the confirmed_* and disowned_* columns alike. */
export function tableOf(target: LinkTarget): 'claims' {
  // typed as one of them: the columns these modules touch have the same names and types in both
  return (target.of === 'claim' ? 'claims' : 'form_submissions') as 'claims'
}
