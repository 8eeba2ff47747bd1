import { Router } from 'express'
import { sql, type Kysely } from 'kysely'
import type { Database } from './db/database.ts'
import { findPendingMigrations } from './db/migrate.ts'
import type { ScreenshotStorage } from './uploads/screenshot-storage.ts'

/** How long one readiness check may take before it counts as failed (a load balancer waits about this long). */
const CHECK_TIMEOUT_MS = 2_000

type CheckResult = 'ok' | string

/**
 * GET /healthz: 200 while this process serves (liveness). GET /readyz: 200 when the database answers,
 * its migrations are all applied and the screenshot store is reachable, else 503 naming what failed
 * (readiness: a load balancer sends claims elsewhere meanwhile). Mounted before the request log, the
 * rate limits and the staff session: probes come every few seconds and carry no one's data.
 */
export function healthRoutes({ db, storage }: { db: Kysely<Database>; storage: ScreenshotStorage }): Router {
  const router = Router({ caseSensitive: true })
  router.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' })
  })
  router.get('/readyz', async (_req, res) => {
    const [database, migrations, screenshotStore] = await Promise.all([
      check(async () => {
        await sql`SELECT 1`.execute(db)
      }),
      check(async () => {
        const pending = await findPendingMigrations(db)
        if (pending.length > 0) throw new Error(`${pending.length} not applied: ${pending.join(', ')}`)
      }),
      check(() => storage.check()),
    ])
    const checks = { database, migrations, screenshotStore }
    const ready = Object.values(checks).every((result) => result === 'ok')
    res
      .status(ready ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json({ status: ready ? 'ready' : 'unavailable', checks })
  })
  return router
}

/** 'ok', or why not: the error's message (ours, or the driver's: never a claimant's data). */
async function check(probe: () => Promise<void>): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS)
  })
  try {
    await Promise.race([probe(), timeout])
    return 'ok'
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return `failed: ${message.slice(0, 200) || 'no reason given'}`
  } finally {
    clearTimeout(timer)
  }
}
