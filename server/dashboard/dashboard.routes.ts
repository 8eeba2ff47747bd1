import { pipeline } from 'node:stream/promises'
import { sendScreenshot } from './send-screenshot.ts'
import { Router } from 'express'
import type { Kysely } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import type { FormConfig } from '../../src/form-config.ts'
import type { IntakeConfig } from '../../src/intake-config.ts'
import type { Database } from '../db/database.ts'
import { findFormOrThrow } from '../forms/find-form.ts'
import { siteOrigin } from '../public-origin.ts'
import type { ScreenshotStorage } from '../uploads/screenshot-storage.ts'
import { actorOf, type RecordAudit } from '../audit/audit-log.ts'
import { assertCanExport, assertCanSee, staffAccountOf } from '../staff/require-staff.ts'
import { evidenceBundleFiles, zipBundle } from '../filing/evidence-bundle.ts'
import type { Languages } from '../forms/languages.ts'
import type { AgreementPdfs } from '../agreements/agreement-pdfs.ts'
import { isExportCheck, sendCsv } from '../platform/csv.ts'
import { findClaimScreenshot } from './claim-list.ts'
import { claimSearch } from './claim-search.ts'
import { computeClaimStats } from './claim-stats.ts'
import { intakeSubmissionRoutes } from '../intake-view/intake-view.routes.ts'
import { parseListQuery } from '../platform/list-query.ts'
import { parseClaimFilters } from './parse-claim-filters.ts'
import type { Reviews } from '../../src/review-config.ts'
import { findDuplicateIds } from './flagged-claims.ts'
import { duplicateScreenshotRoutes } from './duplicate-screenshots.routes.ts'
import { CLAIMS_CSV_HEADER, toStaffClaimRow } from './claim-row.ts'
import { visibleApps, type ClaimListPage } from '../../src/api/staff.ts'
import type { FraudConfigs } from '../../src/fraud-config.ts'
import { fraudRoutes } from './fraud.routes.ts'

const NO_STORE = 'private, no-store'

/**
 * The staff dashboards' data: list and search, stats, screenshots, CSV export, and the main page's
 * admin list. Mounted after requireStaff, so every route here needs a session.
 */
export function dashboardRoutes({
  db,
  forms,
  intake,
  storage,
  audit,
  languages,
  agreementPdfs,
  reviews,
  fraud,
  evidenceKey,
}: {
  db: Kysely<Database>
  forms: Map<string, FormConfig>
  intake: IntakeConfig
  storage: ScreenshotStorage
  audit: RecordAudit
  languages: Languages
  agreementPdfs: AgreementPdfs
  /** Each app's review: the statuses and reasons its filters take, the labels its stats give. */
  reviews: Reviews
  /** Each app's fraud thresholds: the Score column's standing and the ?fraud= filter. */
  fraud: FraudConfigs
  /** Seals "Not fraud" in the ledger with its audit entry. */
  evidenceKey: Buffer
}): Router {
  const router = Router({ caseSensitive: true })
  const claims = claimSearch(db)

  router.get('/api/staff/apps/:slug/submissions', async (req, res) => {
    const { slug } = findFormOrThrow(forms, req.params.slug)
    assertCanSee(res, slug)
    const { term, order, flagged, page, pageSize } = parseListQuery(req.query)
    const filters = await parseClaimFilters(req.query, {
      db,
      review: reviews(slug),
      fraud: fraud(slug),
      accountId: staffAccountOf(res).id,
    })
    const seen = visibleApps(staffAccountOf(res))
    const { rows, count, isCountCapped, total } = await claims.page({
      app: slug,
      term,
      order,
      flagged,
      filters,
      page,
      pageSize,
      visibleApps: seen,
    })
    const duplicates = await findDuplicateIds(db, { claimIds: rows.map(({ id }) => Number(id)), apps: seen })
    res.set('Cache-Control', NO_STORE).json({
      success: true,
      data: rows.map((row) =>
        toStaffClaimRow({ ...row, duplicate_of: duplicates.get(Number(row.id)) ?? [] }, fraud(slug)),
      ),
      count,
      isCountCapped,
      total,
      page,
      pageSize,
      error: null,
    } satisfies ClaimListPage)
  })

  router.get('/api/staff/apps/:slug/stats', async (req, res) => {
    const { slug } = findFormOrThrow(forms, req.params.slug)
    assertCanSee(res, slug)
    res
      .set('Cache-Control', NO_STORE)
      .json(await computeClaimStats(db, { app: slug, review: reviews(slug), fraud: fraud(slug) }))
  })

  router.get('/api/staff/apps/:slug/export.csv', async (req, res) => {
    const { slug } = findFormOrThrow(forms, req.params.slug)
    assertCanExport(res, slug)
    const { term, flagged } = parseListQuery(req.query)
    const filters = await parseClaimFilters(req.query, {
      db,
      review: reviews(slug),
      fraud: fraud(slug),
      accountId: staffAccountOf(res).id,
    })
    if (isExportCheck(req)) {
      res.set('Cache-Control', 'no-store').status(204).end()
      return
    }
    const result = await sendCsv(res, {
      fileName: `${slug}-submissions-${new Date().toISOString().slice(0, 10)}.csv`,
      header: CLAIMS_CSV_HEADER,
      ...claims.exportBody({
        app: slug,
        term,
        flagged,
        filters,
        origin: siteOrigin(req),
        visibleApps: visibleApps(staffAccountOf(res)),
      }),
    })
    const filtered = filters.map(({ label }) => `, ${label}`).join('')
    const detail = `${result.written} rows${term ? ' (search)' : ''}${flagged ? ' (flagged)' : ''}${filtered}${result.complete ? '' : ', client left early'}`
    await audit({ ...actorOf(req, res), app: slug, action: 'export', detail })
    res.end()
  })

  router.get('/api/staff/claims/:id/screenshot', async (req, res) => {
    const id = Number(req.params.id)
    const claim = /^\d{1,15}$/.test(req.params.id) ? await findClaimScreenshot(db, id) : undefined
    if (!claim) throw screenshotNotFound(req.params.id)
    assertCanSee(res, claim.app)
    const file = await openScreenshot(storage, claim.screenshot_key, req.params.id)
    await audit({
      ...actorOf(req, res),
      app: claim.app,
      action: 'screenshot_view',
      detail: `claim ${id}`,
    }).catch((error: unknown) => {
      file.body.destroy() // nothing is sent unless the view is on record
      throw error
    })
    await sendScreenshot(res, {
      file,
      type: claim.screenshot_type,
      filename: `claim-${id}.${claim.screenshot_key.split('.').pop()}`,
    })
  })

  router.get('/api/staff/claims/:id/evidence.zip', async (req, res) => {
    const id = /^\d{1,15}$/.test(req.params.id) ? Number(req.params.id) : undefined
    if (id === undefined) {
      throw new AppError('NOT_FOUND', { status: 404, message: `no signed claim "${req.params.id}"` })
    }
    const bundle = await evidenceBundleFiles({
      db,
      storage,
      forms,
      translators: languages.t,
      agreementPdfs,
      claimId: id,
      authorize: (app) => assertCanExport(res, app),
      visibleApps: visibleApps(staffAccountOf(res)),
      recordDownload: (entry) => audit({ ...actorOf(req, res), ...entry }),
    })
    res
      .set({ 'Content-Type': 'application/zip', 'Cache-Control': NO_STORE })
      .attachment(`claim-${id}-evidence.zip`)
    await pipeline(zipBundle(bundle.files, bundle.signedAt), res).catch(() => res.destroy())
  })

  router.use(intakeSubmissionRoutes({ db, intake, forms, audit, reviews }))
  router.use(duplicateScreenshotRoutes({ db, forms, audit, fraud }))
  router.use(fraudRoutes({ db, forms, reviews, fraud, evidenceKey }))
  return router
}

async function openScreenshot(storage: ScreenshotStorage, key: string, id: string) {
  try {
    return await storage.stream(key)
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') throw screenshotNotFound(id)
    throw error
  }
}

function screenshotNotFound(id: string): AppError {
  return new AppError('NOT_FOUND', { status: 404, message: `no screenshot for claim "${id}"` })
}
