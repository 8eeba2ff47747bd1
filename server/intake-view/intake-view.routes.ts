import type { IntakeSubmissionDetails } from '../../src/api/staff.ts'
import { Router } from 'express'
import type { Kysely } from 'kysely'
import type { FormConfig } from '../../src/form-config.ts'
import { intakeAppChoices, type IntakeConfig } from '../../src/intake-config.ts'
import type { Reviews } from '../../src/review-config.ts'
import type { IntakeSubmission, StaffPage } from '../../src/api/staff.ts'
import type { Database } from '../db/database.ts'
import { actorOf, type RecordAudit } from '../audit/audit-log.ts'
import { adminOnly } from '../staff/require-staff.ts'
import { isExportCheck, sendCsv } from '../platform/csv.ts'
import { CSV_TIME_ZONE, csvTime, TIME_ZONE_HEADER } from '../platform/csv-time.ts'
import { intakeDetails, intakeIdParam, intakeRowToSubmission } from './intake-details.ts'
import {
  findIntakeById,
  findIntakeCaseExportPages,
  findIntakeCases,
  findIntakePage,
} from './intakes.repository.ts'
import { parseListQuery } from '../platform/list-query.ts'
import { AppError } from '../../src/app-error.ts'

/**
 * The columns of the site this replaces (its main-page list without the signature image) first, named
 * and ordered as there, then Time Zone (the Date's zone), then the ones added since: the row's app and
 * its Step 2 status.
 */
const INTAKE_CSV_HEADER = [
  'Name',
  'Email',
  'Phone',
  'Apps Used',
  'Date',
  TIME_ZONE_HEADER,
  'App',
  'Step 2 Status',
]

/**
 * The main page's admin mode: every intake, newest first, searched and paginated; one intake's details
 * with its apps' Step 2 claims; and the app-submissions-view.csv (one row per intake and chosen app,
 * with that app's Step 2 status).
 */
export function intakeSubmissionRoutes({
  db,
  intake,
  forms,
  audit,
  reviews,
}: {
  db: Kysely<Database>
  intake: IntakeConfig
  forms: Map<string, FormConfig>
  audit: RecordAudit
  /** Each app's review: the label of each Step 2 claim's review status. */
  reviews: Reviews
}): Router {
  const router = Router({ caseSensitive: true })
  const labels = new Map(intakeAppChoices(intake).map((choice) => [choice.value, choice.label]))
  const label = (app: string) => labels.get(app) ?? forms.get(app)?.displayName ?? app

  // the main admin view: every claimant of every app
  router.use('/api/staff/intake-submissions', adminOnly)
  router.get('/api/staff/intake-submissions', async (req, res) => {
    const { term, page, pageSize } = parseListQuery(req.query)
    const { rows, count, total } = await findIntakePage(db, { term, page, pageSize })
    res.set('Cache-Control', 'private, no-store').json({
      success: true,
      data: rows.map((row) => intakeRowToSubmission(row, label)),
      count,
      total,
      page,
      pageSize,
      error: null,
    } satisfies StaffPage<IntakeSubmission>)
  })

  router.get('/api/staff/intake-submissions/export.csv', async (req, res) => {
    if (isExportCheck(req)) {
      res.set('Cache-Control', 'no-store').status(204).end()
      return
    }
    const result = await sendCsv(res, {
      fileName: 'app-submissions-view.csv',
      header: INTAKE_CSV_HEADER,
      pages: findIntakeCaseExportPages(db),
      record: (row) => [
        `${row.first_name} ${row.last_name}`,
        row.email,
        row.phone,
        (JSON.parse(row.cash_advance_apps) as string[]).map(label).join('; '),
        csvTime(row.created_at),
        CSV_TIME_ZONE,
        label(row.app),
        row.claim_id === null ? 'not submitted' : 'submitted',
      ],
    })
    const detail = `intake view, ${result.written} rows${result.complete ? '' : ', client left early'}`
    await audit({ ...actorOf(req, res), action: 'export', detail })
    res.end()
  })

  router.get('/api/staff/intake-submissions/:intakeId', async (req, res) => {
    const id = intakeIdParam(req.params.intakeId)
    const row = await findIntakeById(db, id)
    if (!row) throw new AppError('NOT_FOUND', { status: 404, message: `no intake "${id}"` })
    const cases = await findIntakeCases(db, id)
    const journey = await db
      .selectFrom('claimant_journeys')
      .select(['mails_sent', 'last_mail_at', 'due_at'])
      .where('intake_id', '=', id)
      .executeTakeFirst()
    const unsubscribed = await db
      .selectFrom('email_suppressions')
      .select(['created_at', 'source'])
      .where('email', '=', row.email)
      .executeTakeFirst()
    // nothing is shown unless the view is on record; the entry names the intake by its id only
    await audit({ ...actorOf(req, res), action: 'intake_view', detail: `intake ${id}` })
    const at = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString())
    res.set('Cache-Control', 'private, no-store').json({
      ...intakeDetails({ row, cases, intake, reviews, label }),
      journey: journey
        ? {
            mailsSent: Number(journey.mails_sent),
            lastMailAt: at(journey.last_mail_at),
            // the sender clears a due reminder only when it comes round; once every chosen app has its
            // claim, none will go
            nextDueAt: cases.every((found) => found.claim_id !== null) ? null : at(journey.due_at),
          }
        : null,
      unsubscribed: unsubscribed
        ? { at: new Date(Number(unsubscribed.created_at)).toISOString(), source: unsubscribed.source }
        : null,
    } satisfies IntakeSubmissionDetails)
  })
  return router
}
