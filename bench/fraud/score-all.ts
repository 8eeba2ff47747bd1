import path from 'node:path'
import type { Kysely } from 'kysely'
import { SQLITE_FILE_NAME } from '../../server/db/create-db.ts'
import type { Database, Dialect } from '../../server/db/database.ts'
import { startWalCheckpointer } from '../../server/db/wal-checkpointer.ts'
import type { FraudConfigs, FraudReason } from '../../src/fraud-config.ts'
import { SCORE_CLAIM, scoreClaimJob } from '../../server/fraud/score-claim.job.ts'
import { createJobRunner } from '../../server/jobs/job-runner.ts'
import type { RowJobHandler } from '../../server/jobs/job-handler.ts'
import { createLogger } from '../../server/logger.ts'
import { createDiskScreenshotStorage } from '../../server/uploads/screenshot-storage.ts'
import { count } from '../report.ts'
import { plannedKeys } from './file-keys-ahead.ts'
import type { Scored } from './measure.ts'
import type { PlannedClaim } from './plan.ts'

/**
 * Runs the score-claim job until nothing is due, each run of its handler timed: the first run scores
 * every claim in id order and makes the related earlier ones due again; the next runs score those. On
 * SQLite the WAL is checkpointed from its own thread meanwhile, as the server does.
 */
export async function scoreEverything({
  db,
  dialect,
  dataDir,
  fraud,
  deadline,
  log,
}: {
  db: Kysely<Database>
  dialect: Dialect
  dataDir: string
  fraud: FraudConfigs
  deadline: number
  log: (line: string) => void
}): Promise<{
  timings: number[]
  first: number
  again: number
  rounds: number
  seconds: number
  /** The process's CPU time (all its threads) over the scoring, ms. */
  cpuMs: number
  finished: boolean
}> {
  const logger = createLogger('warn')
  const storage = createDiskScreenshotStorage(dataDir)
  const handler = scoreClaimJob({ db, storage, fraud, logger, pollMs: 3_600_000 })
  const timings: number[] = []
  let first = 0
  let again = 0
  let stopping = false
  const timed: RowJobHandler<'fraud_scores'> = {
    ...handler,
    async run(ctx) {
      const started = performance.now()
      const outcome = await handler.run(ctx)
      timings.push(performance.now() - started)
      if (ctx.row.scored_at === null) first++
      else again++
      if (timings.length % 20_000 === 0) log(`  ${count(timings.length)} scored`)
      if (Date.now() > deadline && !stopping) {
        stopping = true
        void jobs.stop()
      }
      return outcome
    },
  }
  const jobs = createJobRunner({ db, handlers: [timed], logger })
  const checkpointer =
    dialect === 'sqlite'
      ? await startWalCheckpointer({ db, file: path.join(dataDir, SQLITE_FILE_NAME), logger })
      : undefined
  const started = performance.now()
  const cpu = process.cpuUsage()
  let rounds = 0
  const MAX_ROUNDS = 10
  try {
    while (rounds < MAX_ROUNDS && !stopping) {
      rounds++
      await jobs.runDue(SCORE_CLAIM)
      const due = await db
        .selectFrom('fraud_scores')
        .select((eb) => eb.fn.countAll<number>().as('due'))
        .where('due_at', 'is not', null)
        .where('due_at', '<=', Date.now())
        .executeTakeFirstOrThrow()
      if (Number(due.due) === 0) break
    }
  } finally {
    if (!stopping) await jobs.stop()
    // the checkpointer's thread does not keep the process alive: without a timer of its own, the process
    // would end while it waits for that thread to stop
    const alive = setInterval(() => undefined, 1000)
    await checkpointer?.stop()
    clearInterval(alive)
    await storage.close()
  }
  const { user, system } = process.cpuUsage(cpu)
  return {
    timings,
    first,
    again,
    rounds,
    seconds: (performance.now() - started) / 1000,
    cpuMs: (user + system) / 1000,
    finished: !stopping,
  }
}

/** The scores and reasons of the measured claims (ids), beside what was planted. */
export async function readScores(
  db: Kysely<Database>,
  claims: PlannedClaim[],
  ids: number[],
): Promise<Scored[]> {
  const scored: Scored[] = []
  for (let start = 0; start < ids.length; start += 5000) {
    const rows = await db
      .selectFrom('claims')
      .innerJoin('fraud_scores', 'fraud_scores.claim_id', 'claims.id')
      .select(['claims.id', 'claims.fraud_score', 'fraud_scores.reasons'])
      .where('claims.id', 'in', ids.slice(start, start + 5000))
      .execute()
    for (const row of rows) {
      if (row.fraud_score === null) continue
      scored.push({
        claim: claims[Number(row.id) - 1]!,
        score: Number(row.fraud_score),
        reasons: JSON.parse(row.reasons ?? '[]') as FraudReason[],
      })
    }
  }
  return scored
}

/** The keys the job filed for sampled claims are those filed ahead for the rest: else the sample would mislead. */
export async function checkKeys(db: Kysely<Database>, claims: PlannedClaim[], ids: number[]): Promise<void> {
  const rows = await db
    .selectFrom('fraud_keys')
    .select(['claim_id', 'kind', 'value'])
    .where('claim_id', 'in', ids)
    .execute()
  for (const id of ids) {
    const filed = rows
      .filter((row) => Number(row.claim_id) === id)
      .map((row) => `${row.kind}=${row.value}`)
      .sort()
    const planned = plannedKeys(claims[id - 1]!)
      .map((key) => `${key.kind}=${key.value}`)
      .sort()
    if (filed.join('\n') !== planned.join('\n')) {
      throw new Error(
        `claim ${id}: the job filed ${filed.join(', ')}; the bench filed ahead ${planned.join(', ')}`,
      )
    }
  }
}
