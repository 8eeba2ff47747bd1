import type { Expression, ExpressionBuilder, Kysely, Selectable, SqlBool, Transaction } from 'kysely'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { LEASE_MS } from './retry-policy.ts'

/**
 * The tables whose rows are jobs, each with its key column; each has the lease columns. Where due_at
 * is never null (dueAtRequired), a row done keeps its last due_at and says otherwise that it is done.
 */
export const JOB_TABLES = {
  agreement_copies: { key: 'claim_id', dueAtRequired: true },
  screenshot_checks: { key: 'claim_id', dueAtRequired: true },
  bulk_moves: { key: 'id' },
  filing_batches: { key: 'id' },
  webhook_deliveries: { key: 'id' },
  claim_cures: { key: 'id' },
  claimant_journeys: { key: 'intake_id' },
  fraud_scores: { key: 'claim_id' },
  payout_batches: { key: 'id' },
} as const

export type JobTable = keyof typeof JOB_TABLES
export type JobRow<T extends JobTable> = Selectable<Database[T]>
/** A condition on a job table's rows (a job's own idea of what is still to do). */
export type JobFilter<T extends JobTable> = (
  eb: ExpressionBuilder<Database, T>,
  now: number,
) => Expression<SqlBool>

type Db = Kysely<Database> | Transaction<Database>
/** The lease columns, as every job table has them: the one view of them this module needs. */
interface LeaseRow {
  key: number
  lease_owner: string | null
  lease_until: number | null
  attempts: number
  due_at: number | null
}
// every job table seen as one: its real name and key column are passed where the types say 'job' and 'key'
type LeaseDb = Kysely<{ job: LeaseRow }>

const leaseDb = (db: Db) => db as unknown as LeaseDb
const tableOf = (table: JobTable) => table as unknown as 'job'
const keyOf = (table: JobTable) => JOB_TABLES[table].key as unknown as 'key'
const filtered = <T extends JobTable>(filter: JobFilter<T> | undefined) =>
  filter as unknown as
    ((eb: ExpressionBuilder<{ job: LeaseRow }, 'job'>, now: number) => Expression<SqlBool>) | undefined
function isFree(eb: ExpressionBuilder<{ job: LeaseRow }, 'job'>, now: number) {
  return eb.and([
    eb('due_at', '<=', now),
    eb.or([eb('lease_owner', 'is', null), eb('lease_until', 'is', null), eb('lease_until', '<', now)]),
  ])
}

/** The keys of up to `limit` rows due at `now` whose lease is free or ran out, the longest due first. */
export async function findDueJobs<T extends JobTable>({
  db,
  table,
  now,
  limit,
  where,
}: {
  db: Kysely<Database>
  table: T
  now: number
  limit: number
  where?: JobFilter<T> | undefined
}): Promise<{ key: number; dueAt: number }[]> {
  const leases = leaseDb(db)
  const filter = filtered(where)
  const rows = await leases
    .selectFrom(tableOf(table))
    .select([`${keyOf(table)} as key` as 'key', 'due_at'])
    .where((eb) => (filter ? eb.and([isFree(eb, now), filter(eb, now)]) : isFree(eb, now)))
    .orderBy('due_at')
    .orderBy(keyOf(table))
    .limit(limit)
    .execute()
  return rows.map((row) => ({ key: Number(row.key), dueAt: Number(row.due_at) }))
}

/**
 * Takes the row for `owner` in one conditional update, if it is still due and its lease free or run out:
 * of two processes that saw it due, one gets it. Counts the attempt; returns the row, or undefined when
 * another process took it (or it is no longer due).
 */
export async function takeJob<T extends JobTable>({
  db,
  table,
  key,
  owner,
  now,
  where,
}: {
  db: Kysely<Database>
  table: T
  key: number
  owner: string
  now: number
  where?: JobFilter<T> | undefined
}): Promise<JobRow<T> | undefined> {
  const leases = leaseDb(db)
  const filter = filtered(where)
  const taken = await retryWhileLocked(() =>
    leases
      .updateTable(tableOf(table))
      .set((eb) => ({ lease_owner: owner, lease_until: now + LEASE_MS, attempts: eb('attempts', '+', 1) }))
      .where(keyOf(table), '=', key)
      .where((eb) => (filter ? eb.and([isFree(eb, now), filter(eb, now)]) : isFree(eb, now)))
      .returningAll()
      .executeTakeFirst(),
  )
  return taken as JobRow<T> | undefined
}

/** Holds the row LEASE_MS past `now`; false when it is no longer `owner`'s (another process took it). */
export async function renewLease({
  db,
  table,
  key,
  owner,
  now,
}: {
  db: Db
  table: JobTable
  key: number
  owner: string
  now: number
}): Promise<boolean> {
  const leases = leaseDb(db)
  const renewed = await retryWhileLocked(() =>
    leases
      .updateTable(tableOf(table))
      .set({ lease_until: now + LEASE_MS })
      .where(keyOf(table), '=', key)
      .where('lease_owner', '=', owner)
      .executeTakeFirst(),
  )
  return Number(renewed.numUpdatedRows) === 1
}

/**
 * Lets the row go, if `owner` still holds it: due next at `dueAt` (null: nothing more to do; left out:
 * unchanged), its attempts reset once it moved on to a next step ('reset'), kept after a failure or at
 * its end ('keep'), or the take not counted when the work was handed back undone ('undo'). False when
 * it was no longer `owner`'s.
 */
export async function releaseJob({
  db,
  table,
  key,
  owner,
  dueAt,
  attempts,
}: {
  db: Db
  table: JobTable
  key: number
  owner: string
  dueAt?: number | null | undefined
  attempts: 'reset' | 'keep' | 'undo'
}): Promise<boolean> {
  const leases = leaseDb(db)
  const released = await retryWhileLocked(() =>
    leases
      .updateTable(tableOf(table))
      .set((eb) => ({
        lease_owner: null,
        lease_until: null,
        ...(dueAt === undefined ? {} : { due_at: dueAt }),
        ...(attempts === 'reset'
          ? { attempts: 0 }
          : attempts === 'undo'
            ? { attempts: eb('attempts', '-', 1) }
            : {}),
      }))
      .where(keyOf(table), '=', key)
      .where('lease_owner', '=', owner)
      .executeTakeFirst(),
  )
  return Number(released.numUpdatedRows) === 1
}
