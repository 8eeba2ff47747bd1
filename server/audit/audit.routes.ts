import { Router } from 'express'
import type { Kysely } from 'kysely'
import type { AuditPage } from '../../src/api/staff-audit.ts'
import type { FormConfig } from '../../src/form-config.ts'
import type { Database } from '../db/database.ts'
import { actorOf, type RecordAudit } from './audit-log.ts'
import { isExportCheck, sendCsv } from '../platform/csv.ts'
import { parseListQuery } from '../platform/list-query.ts'
import { adminOnly } from '../staff/require-staff.ts'
import { parseAuditFilters, type AuditFilters } from './audit-filters.ts'
import {
  distinctAuditValues,
  findAuditExportPages,
  findAuditPage,
  listAuditPeople,
} from './audit.repository.ts'

const AUDIT_CSV_HEADER = ['Time', 'Person', 'Email', 'Account ID', 'Action', 'App', 'Detail', 'Address']

/**
 * The admin's audit log: GET /api/staff/audit (a page of entries, newest first, with the choices of its
 * filters) and /api/staff/audit/export.csv (every entry the filters match). Mounted after requireStaff.
 */
export function auditRoutes({
  db,
  forms,
  audit,
}: {
  db: Kysely<Database>
  forms: Map<string, FormConfig>
  audit: RecordAudit
}): Router {
  const router = Router({ caseSensitive: true })
  router.use('/api/staff/audit', adminOnly)

  router.get('/api/staff/audit', async (req, res) => {
    const filters = parseAuditFilters(req.query)
    const { page, pageSize } = parseListQuery(req.query)
    const { entries, count } = await findAuditPage(db, { filters, page, pageSize })
    const [people, apps, actions] = await Promise.all([
      listAuditPeople(db),
      distinctAuditValues(db, 'app'),
      distinctAuditValues(db, 'action'),
    ])
    res.set('Cache-Control', 'private, no-store').json({
      entries,
      count,
      page,
      pageSize,
      people,
      apps: apps.map((app) => ({ app, name: forms.get(app)?.displayName ?? app })),
      actions,
    } satisfies AuditPage)
  })

  router.get('/api/staff/audit/export.csv', async (req, res) => {
    const filters = parseAuditFilters(req.query)
    if (isExportCheck(req)) {
      res.set('Cache-Control', 'no-store').status(204).end()
      return
    }
    const result = await sendCsv(res, {
      fileName: `audit-log-${new Date().toISOString().slice(0, 10)}.csv`,
      header: AUDIT_CSV_HEADER,
      pages: findAuditExportPages(db, filters),
      record: (entry) => [
        entry.at,
        entry.person,
        entry.email ?? '',
        entry.accountId ?? '',
        entry.action,
        entry.app ?? '',
        entry.detail ?? '',
        entry.clientAddress,
      ],
    })
    const detail = `audit log, ${result.written} rows${describeFilters(filters)}${result.complete ? '' : ', client left early'}`
    await audit({ ...actorOf(req, res), action: 'export', detail })
    res.end()
  })
  return router
}

function describeFilters({ accountId, app, action, fromAt, beforeAt }: AuditFilters): string {
  const parts = [
    accountId !== undefined ? `account ${accountId}` : '',
    app !== undefined ? `app ${app}` : '',
    action !== undefined ? `action ${action}` : '',
    fromAt !== undefined ? `from ${fromAt.slice(0, 10)}` : '',
    beforeAt !== undefined ? `before ${beforeAt.slice(0, 10)}` : '',
  ]
  return parts
    .filter(Boolean)
    .map((part) => `, ${part}`)
    .join('')
}
