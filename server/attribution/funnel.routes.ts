import { Router } from 'express'
import type { Kysely } from 'kysely'
import type { Funnel } from '../../src/api/funnel.ts'
import type { FormConfig } from '../../src/form-config.ts'
import type { Database } from '../db/database.ts'
import { actorOf, type RecordAudit } from '../audit/audit-log.ts'
import { csvRecord, isExportCheck, sendCsv } from '../platform/csv.ts'
import { adminOnly } from '../staff/require-staff.ts'
import { funnelCsvRows, funnelRange, readFunnel } from './funnel.ts'

/**
 * The Funnel page's figures, for admins (who see every app): GET /api/staff/funnel and its CSV. Counts
 * only: no claimant is named.
 */
export function funnelRoutes({
  db,
  forms,
  audit,
}: {
  db: Kysely<Database>
  forms: Map<string, FormConfig>
  audit: RecordAudit
}): Router {
  const router = Router({ caseSensitive: true })
  router.use('/api/staff/funnel', adminOnly)
  const apps = () => [...forms.values()].map((form) => ({ slug: form.slug, name: form.displayName }))

  router.get('/api/staff/funnel', async (req, res) => {
    const range = funnelRange(req.query)
    const funnel: Funnel = await readFunnel(db, { ...range, apps: apps() })
    res.set('Cache-Control', 'private, no-store').json(funnel)
  })

  router.get('/api/staff/funnel/export.csv', async (req, res) => {
    const range = funnelRange(req.query)
    if (isExportCheck(req)) {
      res.set('Cache-Control', 'no-store').status(204).end()
      return
    }
    const { header, rows } = funnelCsvRows(await readFunnel(db, { ...range, apps: apps() }))
    await sendCsv(res, {
      fileName: `funnel-${range.from}-to-${range.to}.csv`,
      header,
      chunks: (async function* () {
        yield { text: rows.map((row) => csvRecord(row)).join(''), records: rows.length }
      })(),
    })
    await audit({ ...actorOf(req, res), action: 'export', detail: `funnel ${range.from} to ${range.to}` })
    res.end()
  })
  return router
}
