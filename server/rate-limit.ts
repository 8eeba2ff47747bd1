import { sql, type Kysely } from 'kysely'
import type { Database } from './db/database.ts'

export interface RateLimitRule {
  /** What is limited, e.g. 'lookup'; the client address is added to it. */
  name: string
  limit: number
  windowMs: number
  /** What the client is told when the limit is reached. */
  message: string
}

export interface RateLimitResult {
  allowed: boolean
  retryAfterSeconds: number
}

/**
 * Counts one hit for (rule, client) in a fixed window kept in the database, so every server process
 * sharing it enforces one limit. A single upsert: concurrent hits cannot both read the old count.
 */
export async function hitRateLimit(
  db: Kysely<Database>,
  { rule, client, now = Date.now() }: { rule: RateLimitRule; client: string; now?: number },
): Promise<RateLimitResult> {
  const key = `${rule.name}:${client}`
  const expired = now - rule.windowMs
  const row = await db
    .insertInto('rate_limits')
    .values({ key, window_started_at: now, hits: 1 })
    .onConflict((conflict) =>
      conflict.column('key').doUpdateSet({
        hits: sql<number>`CASE WHEN rate_limits.window_started_at <= ${expired} THEN 1 ELSE rate_limits.hits + 1 END`,
        window_started_at: sql<number>`CASE WHEN rate_limits.window_started_at <= ${expired} THEN ${now} ELSE rate_limits.window_started_at END`,
      }),
    )
    .returning(['hits', 'window_started_at'])
    .executeTakeFirstOrThrow()
  const retryAfterMs = Number(row.window_started_at) + rule.windowMs - now
  return {
    allowed: Number(row.hits) <= rule.limit,
    retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)),
  }
}
