import { sql, type Kysely } from 'kysely'
import { addressBucket } from './client-address.ts'
import type { Database } from './db/database.ts'

export interface RateLimitRule {
  /** What is limited, e.g. 'lookup'; the client's address (an IPv6 one's /64) is added to it. */
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

/** When each rule's expired rows were last removed, per database. */
const lastPruned = new WeakMap<Kysely<Database>, Map<string, number>>()

/**
 * Counts one hit for (rule, client) in a fixed window kept in the database, so every server process
 * sharing it enforces one limit. A single upsert: concurrent hits cannot both read the old count.
 * `client` is the client's address; a limit counts an IPv6 client by its /64.
 */
export async function hitRateLimit(
  db: Kysely<Database>,
  {
    rule,
    client,
    now = Date.now(),
  }: {
    rule: RateLimitRule
    /** The client's address; undefined counts every client together (a ceiling). */
    client: string | undefined
    now?: number
  },
): Promise<RateLimitResult> {
  const key = client === undefined ? rule.name : `${rule.name}:${addressBucket(client)}`
  const expired = now - rule.windowMs
  await pruneExpired(db, { rule, now })
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

/**
 * Removes the rule's rows whose window has ended (each visitor leaves one), at most once a window per
 * process: a row past its window counts for nothing, the next hit starts it again.
 */
async function pruneExpired(
  db: Kysely<Database>,
  { rule, now }: { rule: RateLimitRule; now: number },
): Promise<void> {
  let rules = lastPruned.get(db)
  if (!rules) lastPruned.set(db, (rules = new Map()))
  const last = rules.get(rule.name)
  if (last !== undefined && now - last < rule.windowMs && now >= last) return
  rules.set(rule.name, now)
  // rule names are plain words (no LIKE wildcards); a range on the key would depend on the collation
  await db
    .deleteFrom('rate_limits')
    .where('key', 'like', `${rule.name}:%`)
    .where('window_started_at', '<=', now - rule.windowMs)
    .execute()
}
