import { Router } from 'express'
import { csvRecord, startCsvDownload } from './csv.ts'
import { parseListQuery } from './list-query.ts'

const INTAKE_CSV_HEADER = ['Name', 'Email', 'Phone', 'Apps Used', 'App', 'Step 2 Status', 'Date']

/**
 * TEMPORARY until the main intake form's issue builds form_submissions: the main page's admin mode
 * (GET /api/staff/intake-submissions and its export.csv) answers an empty list and a header-only CSV.
 */
export function intakeSubmissionRoutes(): Router {
  const router = Router()
  router.get('/api/staff/intake-submissions', (req, res) => {
    const { page, pageSize } = parseListQuery(req.query)
    res
      .set('Cache-Control', 'private, no-store')
      .json({ success: true, data: [], count: 0, total: 0, page, pageSize, error: null })
  })
  router.get('/api/staff/intake-submissions/export.csv', (_req, res) => {
    startCsvDownload(res, 'app-submissions-view.csv')
    res.send(csvRecord(INTAKE_CSV_HEADER))
  })
  return router
}
