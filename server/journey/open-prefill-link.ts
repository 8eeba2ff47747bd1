import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import type { JourneyTokens } from './journey-tokens.ts'

/**
 * The intake a Step 2 link's pre-fill token names, for POST /api/journey/prefill. A single-use token (a
 * text reminder's) is spent here: its id goes into used_prefill_tokens, whose primary key lets only one
 * of two concurrent first uses through, on both databases; every later use is refused like an expired
 * token. The claim's own link to the intake (claim.routes.ts) reads the token without spending it.
 */
export async function openPrefillLink(
  db: Kysely<Database>,
  {
    tokens,
    token,
    app,
    now = Date.now(),
  }: {
    tokens: Pick<JourneyTokens, 'readPrefillLink'>
    token: unknown
    app: string
    now?: number
  },
): Promise<number | undefined> {
  const link = tokens.readPrefillLink(token, app, now)
  if (!link || link.singleUseId === undefined) return link?.intakeId
  const spent = await db
    .insertInto('used_prefill_tokens')
    .values({ token_id: link.singleUseId, expires_at: link.expiresAt, used_at: now })
    .onConflict((conflict) => conflict.column('token_id').doNothing())
    .returning('token_id')
    .executeTakeFirst()
  return spent ? link.intakeId : undefined
}

// kept an hour past the token's expiry, so a server process whose clock runs behind still refuses it
const KEEP_AFTER_EXPIRY_MS = 60 * 60 * 1000

/** The spent tokens past their expiry: readPrefillLink refuses them for their age alone. */
export async function forgetExpiredPrefillLinks(db: Kysely<Database>, now: number): Promise<void> {
  await db
    .deleteFrom('used_prefill_tokens')
    .where('expires_at', '<=', now - KEEP_AFTER_EXPIRY_MS)
    .execute()
}
