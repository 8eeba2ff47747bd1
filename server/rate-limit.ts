import { sql, type Kysely } from 'kysely'
import { addressBucket } from './client-address.ts'
import { compileOnce } from './db/compile-once.ts'
import type { Database } from './db/database.ts'
import { isPostgresDb } from './db/dialect.ts'

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
interface PendingHit {
  key: string
  now: number
  rule: RateLimitRule
  resolve(result: RateLimitResult): void
  reject(error: unknown): void
}
/** The hits waiting for this turn of the event loop to end, per database. */
const pendingHits = new WeakMap<Kysely<Database>, PendingHit[]>()

/**
 * Counts one hit for (rule, client) in a fixed window kept in the database, so every server process
 * sharing it enforces one limit. Hits are upserts, so concurrent ones cannot both read the old count;
 * the hits that arrive in one turn of the event loop (a surge's claims) go in one statement per rule,
 * one row per client with its number of hits, rather than one round trip each.
 * `client` is the client's address; a limit counts an IPv6 client by its /64.
 */
export async function hitRateLimit(
  db: Kysely<Database>,
  { rule, client, now = Date.now() }: { rule: RateLimitRule; client: string; now?: number },
): Promise<RateLimitResult> {
  await pruneExpired(db, { rule, now })
  return new Promise((resolve, reject) => {
    let pending = pendingHits.get(db)
    if (!pending) {
      pendingHits.set(db, (pending = []))
      setImmediate(() => {
        pendingHits.delete(db)
        void writeHits(db, pending!)
      })
    }
    pending.push({ key: `${rule.name}:${addressBucket(client)}`, now, rule, resolve, reject })
  })
}

/** Map.groupBy, which Node 20 lacks. */
function groupBy<T, K>(items: T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>()
  for (const item of items) {
    const group = groups.get(keyOf(item))
    if (group) group.push(item)
    else groups.set(keyOf(item), [item])
  }
  return groups
}

async function writeHits(db: Kysely<Database>, hits: PendingHit[]): Promise<void> {
  const byRule = groupBy(hits, (hit) => hit.rule)
  const upsert = isPostgresDb(db) ? upsertInOneStatement : upsertRowByRow
  await Promise.all(
    [...byRule].map(async ([rule, ruleHits]) => {
      try {
        const byKey = groupBy(ruleHits, (hit) => hit.key)
        const now = Math.max(...ruleHits.map((hit) => hit.now))
        const counts = [...byKey].map(([key, keyHits]) => ({ key, hits: keyHits.length }))
        const rows = await upsert(db, { counts, now, expired: now - rule.windowMs })
        const rowOf = new Map(rows.map((row) => [row.key, row]))
        for (const [key, keyHits] of byKey) {
          const row = rowOf.get(key)
          if (!row) throw new Error(`the rate limit row "${rule.name}" was not returned`)
          const retryAfterMs = Number(row.window_started_at) + rule.windowMs - now
          const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000))
          // this turn's hits of one client come last in its count, in the order they arrived
          const before = Number(row.hits) - keyHits.length
          keyHits.forEach((hit, i) =>
            hit.resolve({ allowed: before + i + 1 <= rule.limit, retryAfterSeconds }),
          )
        }
      } catch (error) {
        for (const hit of ruleHits) hit.reject(error)
      }
    }),
  )
}

interface HitCounts {
  counts: { key: string; hits: number }[]
  now: number
  /** A window that started at or before this has ended: its count starts again. */
  expired: number
}
type CountedRow = { key: string; hits: number; window_started_at: number }

// each client's count starts again once its window has ended
const countSet = (expired: unknown) => ({
  hits: sql<number>`CASE WHEN rate_limits.window_started_at <= ${expired} THEN excluded.hits ELSE rate_limits.hits + excluded.hits END`,
  window_started_at: sql<number>`CASE WHEN rate_limits.window_started_at <= ${expired} THEN excluded.window_started_at ELSE rate_limits.window_started_at END`,
})

/** PostgreSQL: one statement is one round trip, so a turn's clients go in one, a row each. */
async function upsertInOneStatement(db: Kysely<Database>, { counts, now, expired }: HitCounts) {
  return db
    .insertInto('rate_limits')
    .values(counts.map(({ key, hits }) => ({ key, window_started_at: now, hits })))
    .onConflict((conflict) => conflict.column('key').doUpdateSet(countSet(expired)))
    .returning(['key', 'hits', 'window_started_at'])
    .execute() as Promise<CountedRow[]>
}

const rowUpserts = new WeakMap<Kysely<Database>, ReturnType<typeof compileRowUpsert>>()

function compileRowUpsert(db: Kysely<Database>) {
  return compileOnce<'key' | 'now' | 'hits' | 'expired', CountedRow>((slot) =>
    db
      .insertInto('rate_limits')
      .values({ key: slot('key'), window_started_at: slot('now'), hits: slot('hits') })
      .onConflict((conflict) => conflict.column('key').doUpdateSet(countSet(slot('expired'))))
      .returning(['key', 'hits', 'window_started_at']),
  )
}

/**
 * SQLite: a statement costs microseconds but building one costs more, and a turn's clients would make a
 * differently shaped statement each time; so one statement, compiled once, runs for each client, and
 * they share one commit.
 */
async function upsertRowByRow(db: Kysely<Database>, { counts, now, expired }: HitCounts) {
  const upsertRow = rowUpserts.get(db) ?? compileRowUpsert(db)
  rowUpserts.set(db, upsertRow)
  return db.transaction().execute(async (trx) => {
    const rows: CountedRow[] = []
    for (const { key, hits } of counts) rows.push(...(await upsertRow(trx, { key, now, hits, expired })).rows)
    return rows
  })
}

/** How often a process adds its hits of a shared ceiling to the database. */
export const CEILING_SYNC_MS = 1000

/**
 * A limit across every client and server process (a flood's brake, not a rule per client), kept in
 * the database without a write per hit: each process counts its own hits and adds them to the
 * window's row at most every CEILING_SYNC_MS, reading back what all processes have added. A hit passes
 * while that total and the process's unsent hits stay within the limit, so the processes together may
 * pass it by what they take in one sync.
 */
export function sharedCeiling(
  db: Kysely<Database>,
  rule: Omit<RateLimitRule, 'message'>,
): (now?: number) => Promise<RateLimitResult> {
  let windowStart = -1
  let unsent = 0
  let known = 0
  let lastSync = -Infinity
  const add = compileOnce<'key' | 'start' | 'hits', { hits: number }>((slot) =>
    db
      .insertInto('rate_limits')
      .values({ key: slot('key'), window_started_at: slot('start'), hits: slot('hits') })
      .onConflict((conflict) =>
        conflict.column('key').doUpdateSet({ hits: sql<number>`rate_limits.hits + excluded.hits` }),
      )
      .returning('hits'),
  )
  const sync = async (start: number) => {
    const hits = unsent
    unsent = 0
    const { rows } = await add(db, { key: `${rule.name}:${start}`, start, hits })
    if (start === windowStart) known = Number(rows[0]!.hits)
    // each window leaves a row: the ones before the last go (rule names hold no LIKE wildcards)
    await db
      .deleteFrom('rate_limits')
      .where('key', 'like', `${rule.name}:%`)
      .where('window_started_at', '<', start - rule.windowMs)
      .execute()
  }
  return async (now = Date.now()) => {
    const start = Math.floor(now / rule.windowMs) * rule.windowMs
    if (start !== windowStart) {
      windowStart = start
      unsent = 0
      known = 0
      lastSync = -Infinity
    }
    unsent++
    if (now - lastSync >= CEILING_SYNC_MS) {
      lastSync = now
      await sync(start)
    }
    return {
      allowed: known + unsent <= rule.limit,
      retryAfterSeconds: Math.max(1, Math.ceil((start + rule.windowMs - now) / 1000)),
    }
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
