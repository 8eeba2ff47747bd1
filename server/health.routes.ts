import { Router } from 'express'
import { sql, type Kysely } from 'kysely'
import type { Database } from './db/database.ts'
import { findPendingMigrations } from './db/migrate.ts'
import type { Logger } from './logger.ts'
import type { ScreenshotStorage } from './uploads/screenshot-storage.ts'

/** How long one readiness check may take before it counts as failed (a load balancer waits about this long). */
const CHECK_TIMEOUT_MS = 2_000
/**
 * How long an answer of /readyz stands: probes come every few seconds, and anyone who can reach it
 * could otherwise make each request cost three queries and a call to the screenshot store.
 */
const READY_CACHE_MS = 1_000

type CheckResult = 'ok' | 'failed'

interface Readiness {
  ready: boolean
  checks: { database: CheckResult; migrations: CheckResult; screenshotStore: CheckResult }
}

/**
 * GET /healthz: 200 while this process serves (liveness). GET /readyz: 200 when the database answers,
 * its migrations are all applied and the screenshot store is reachable, else 503 saying which check
 * failed; why goes to the log, since the reasons name buckets, folders and hosts (readiness: a load
 * balancer sends claims elsewhere meanwhile). One check runs at a time, and its answer stands for a
 * second. Mounted before the request log, the rate limits and the staff session: probes come every few
 * seconds and carry no one's data.
 */
export function healthRoutes({
  db,
  storage,
  logger,
}: {
  db: Kysely<Database>
  storage: ScreenshotStorage
  logger: Logger
}): Router {
  const router = Router({ caseSensitive: true })
  let last: { at: number; readiness: Readiness } | undefined
  let running: Promise<Readiness> | undefined
  const check = (name: keyof Readiness['checks'], probe: () => Promise<void>) =>
    runCheck(probe).then((reason) => {
      if (reason === undefined) return 'ok'
      logger.warn({ check: name, reason }, 'readiness check failed')
      return 'failed'
    })
  const checkAll = async (): Promise<Readiness> => {
    const [database, migrations, screenshotStore] = await Promise.all([
      check('database', async () => {
        await sql`SELECT 1`.execute(db)
      }),
      check('migrations', async () => {
        const pending = await findPendingMigrations(db)
        if (pending.length > 0) throw new Error(`${pending.length} not applied: ${pending.join(', ')}`)
      }),
      check('screenshotStore', () => storage.check()),
    ])
    const checks = { database, migrations, screenshotStore }
    return { ready: Object.values(checks).every((result) => result === 'ok'), checks }
  }
  const readiness = (): Promise<Readiness> => {
    if (last && Date.now() - last.at < READY_CACHE_MS) return Promise.resolve(last.readiness)
    // probes that come while a check runs wait for its answer rather than start their own
    running ??= checkAll()
      .then((readiness) => {
        last = { at: Date.now(), readiness }
        return readiness
      })
      .finally(() => {
        running = undefined
      })
    return running
  }
  router.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' })
  })
  router.get('/readyz', async (_req, res) => {
    const { ready, checks } = await readiness()
    res
      .status(ready ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json({ status: ready ? 'ready' : 'unavailable', checks })
  })
  return router
}

/** Undefined when the probe passed in time, else why not: the error's message (ours, or the driver's: never a claimant's data). */
async function runCheck(probe: () => Promise<void>): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS)
  })
  try {
    await Promise.race([probe(), timeout])
    return undefined
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return message.slice(0, 500) || 'no reason given'
  } finally {
    clearTimeout(timer)
  }
}
