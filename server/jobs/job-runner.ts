import crypto from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import type { Logger } from '../logger.ts'
import type { RequestActivity } from '../request-activity.ts'
import { backgroundLoop, type BackgroundLoop } from './background-loop.ts'
import type { JobContext, JobHandler, JobOutcome, RowJobHandler } from './job-handler.ts'
import { findDueJobs, JOB_TABLES, releaseJob, renewLease, takeJob, type JobTable } from './lease.ts'
import { LEASE_MS, retryAt } from './retry-policy.ts'

const BATCH = 50

/**
 * The process's background work: one lane per job kind (server/jobs/background-loop.ts), each running
 * its handler when woken and every poll, one run at a time, kinds side by side.
 */
export interface JobRunner {
  /** This process's name in the lease columns. */
  readonly owner: string
  /** Work of `kind` was queued: run it now (or once more after the run under way). */
  wake(kind: string): void
  /** Does what the kinds have due at `now` (tests move the clock), returning when nothing more is. */
  runDue(kinds: string | readonly string[], now?: number): Promise<void>
  /** Resolves once the runs under way (of `kinds`, or of every kind) found nothing more to do. */
  settled(kinds?: string | readonly string[]): Promise<void>
  /** Stops the lanes of `kinds` (or every lane), after the jobs under way. */
  stop(kinds?: string | readonly string[]): Promise<void>
}

export function createJobRunner({
  db,
  handlers,
  logger,
  requests,
  owner = crypto.randomUUID(),
}: {
  db: Kysely<Database>
  /** The job kinds this process runs (server/job-handlers.ts). */
  handlers: readonly JobHandler[]
  logger: Logger
  /** The server's requests, which the jobs wait for (quietMoment); left out (tests), only wakes hold them back. */
  requests?: RequestActivity | undefined
  owner?: string
}): JobRunner {
  const lanes = new Map<string, { handler: JobHandler; loop: BackgroundLoop }>()
  const unlisteners = new Map<string, () => void>()
  for (const handler of handlers) {
    if (lanes.has(handler.kind)) throw new Error(`job kind "${handler.kind}" is registered twice`)
    const loop = backgroundLoop({
      work: () => runKind(handler, undefined),
      pollMs: handler.pollMs,
      logger,
      failure: `${handler.kind} jobs failed`,
      requests,
    })
    lanes.set(handler.kind, { handler, loop })
    if ('listen' in handler && handler.listen)
      unlisteners.set(
        handler.kind,
        handler.listen(() => loop.wake()),
      )
  }
  const stoppedHandlers = new Set<JobHandler>()
  const laneOf = (kind: string) => {
    const lane = lanes.get(kind)
    if (!lane) throw new Error(`no job kind "${kind}" is registered`)
    return lane
  }
  const kindsOf = (kinds: string | readonly string[] | undefined) =>
    kinds === undefined ? [...lanes.keys()] : typeof kinds === 'string' ? [kinds] : kinds

  function runKind(handler: JobHandler, at: number | undefined): Promise<void> {
    const { loop } = laneOf(handler.kind)
    return 'table' in handler
      ? runRows(handler as RowJobHandler<JobTable>, loop, at)
      : handler.run(at ?? Date.now())
  }

  /** Takes the due rows one by one under a lease, up to inFlight under way, until none is left. */
  async function runRows(handler: RowJobHandler<JobTable>, loop: BackgroundLoop, at: number | undefined) {
    const { table } = handler
    const inFlight = handler.inFlight ?? 1
    await handler.beforeRun?.(at ?? Date.now())
    // a job retried without a delay is left for the next run, so that a run ends
    const seen = new Set<number>()
    for (;;) {
      if (loop.isStopped()) return
      const due = (
        await findDueJobs({
          db,
          table,
          now: at ?? Date.now(),
          limit: handler.batch ?? BATCH,
          where: handler.where,
        })
      ).filter((job) => !seen.has(job.key))
      if (due.length === 0) return
      const underWay = new Set<Promise<void>>()
      let failure: { error: unknown } | undefined
      let endRun = false
      for (const { key, dueAt } of due) {
        await handler.before?.(() => loop.isStopped())
        if (handler.waitsForQuiet) {
          await loop.quietMoment(handler.maxWaitMs === undefined ? undefined : dueAt + handler.maxWaitMs)
        }
        if (loop.isStopped() || failure || endRun) break
        // the clock read again for each job: a lease taken at a time long past would be over already
        const now = at ?? Date.now()
        const row = await takeJob({ db, table, key, owner, now, where: handler.where })
        seen.add(key)
        if (!row) continue // another process took it first
        const running: Promise<void> = runJob(handler, loop, { key, row, now })
          .then((outcome) => {
            if (typeof outcome === 'object' && outcome.endRun) endRun = true
          })
          .catch((error: unknown) => {
            failure ??= { error }
          })
          .finally(() => underWay.delete(running))
        underWay.add(running)
        if (underWay.size >= inFlight) await Promise.race(underWay)
      }
      await Promise.all(underWay)
      // a job that threw (the database gone) fails the run: the next poll tries again
      if (failure) throw failure.error
      if (endRun) return
    }
  }

  /** One job under its lease, renewed while it runs; its outcome written to the lease columns. */
  async function runJob(
    handler: RowJobHandler<JobTable>,
    loop: BackgroundLoop,
    { key, row, now }: { key: number; row: JobContext<JobTable>['row']; now: number },
  ): Promise<JobOutcome> {
    const { table, kind } = handler
    const started = Date.now()
    // the run's clock as it goes on: a test's moved clock, moved on by the time spent since
    const clock = () => now + (Date.now() - started)
    const attempts = Number((row as { attempts: number }).attempts)
    const heartbeat = setInterval(() => {
      void renewLease({ db, table, key, owner, now: clock() }).catch(() => undefined)
    }, LEASE_MS / 4).unref()
    const ctx: JobContext<JobTable> = {
      row,
      attempts,
      now,
      retryAt: retryAt(kind, attempts, now),
      renew: (trx) => renewLease({ db: trx ?? db, table, key, owner, now: clock() }),
      end(trx, dueAt = null) {
        return releaseJob({
          db: trx,
          table,
          key,
          owner,
          dueAt: dueOf(table, dueAt),
          attempts: dueAt === null ? 'keep' : 'reset',
        })
      },
      quietMoment: (deadline) => loop.quietMoment(deadline),
      isStopped: () => loop.isStopped(),
    }
    try {
      const outcome = await handler.run(ctx).catch(async (error: unknown) => {
        // a job that threw (the database gone) is tried again as one that failed, if its lease can go at all
        await releaseJob({ db, table, key, owner, dueAt: ctx.retryAt, attempts: 'keep' }).catch(
          () => undefined,
        )
        throw error
      })
      // a lease ended by the handler's own transaction (ctx.end) only counts once that committed
      if (outcome === 'ended') return outcome
      if (outcome === 'done') {
        // a job done keeps its count of attempts, for whoever reads the row
        await releaseJob({ db, table, key, owner, dueAt: dueOf(table, null), attempts: 'keep' })
      } else if (outcome === 'retry') {
        await releaseJob({
          db,
          table,
          key,
          owner,
          dueAt: dueOf(table, ctx.retryAt ?? null),
          attempts: 'keep',
        })
      } else if (outcome === 'handed-back') {
        await releaseJob({ db, table, key, owner, attempts: 'undo' })
      } else {
        const dueAt = dueOf(table, outcome.next)
        await releaseJob({ db, table, key, owner, dueAt, attempts: outcome.next === null ? 'keep' : 'reset' })
      }
      return outcome
    } finally {
      clearInterval(heartbeat)
    }
  }

  return {
    owner,
    wake: (kind) => laneOf(kind).loop.wake(),
    async runDue(kinds, now) {
      for (const kind of kindsOf(kinds)) await runKind(laneOf(kind).handler, now)
    },
    async settled(kinds) {
      for (const kind of kindsOf(kinds)) await laneOf(kind).loop.settled()
    },
    async stop(kinds) {
      for (const kind of kindsOf(kinds)) unlisteners.get(kind)?.()
      const stopping = kindsOf(kinds).map(laneOf)
      await Promise.all(stopping.map(({ loop }) => loop.stop()))
      for (const { handler } of stopping) {
        if (!stoppedHandlers.has(handler)) await handler.stop?.()
        stoppedHandlers.add(handler)
      }
    },
  }
}

/** A table whose due_at is never null keeps the last one (its rows say otherwise that they are done). */
function dueOf(table: JobTable, dueAt: number | null): number | null | undefined {
  return dueAt === null && 'dueAtRequired' in JOB_TABLES[table] ? undefined : dueAt
}

/** What routes and tests hold of some job kinds: wake them, run them (moving the clock), wait, stop. */
export interface JobKinds {
  wake(): void
  runDue(now?: number): Promise<void>
  settled(): Promise<void>
  stop(): Promise<void>
}

/** The kinds `kinds` of `jobs`, as one. */
export function jobKinds(jobs: JobRunner, kinds: string | readonly string[]): JobKinds {
  const all = typeof kinds === 'string' ? [kinds] : kinds
  return {
    wake: () => all.forEach((kind) => jobs.wake(kind)),
    runDue: (now) => jobs.runDue(all, now),
    settled: () => jobs.settled(all),
    stop: () => jobs.stop(all),
  }
}
