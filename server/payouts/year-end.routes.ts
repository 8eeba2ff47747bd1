import crypto from 'node:crypto'
import { Router, type Request, type Response } from 'express'
import type { Kysely } from 'kysely'
import type { UnclaimedFunds } from '../../src/api/payouts-year-end.ts'
import { canPayApp } from '../../src/api/staff.ts'
import { AppError } from '../../src/app-error.ts'
import type { FormConfig } from '../../src/form-config.ts'
import type { PayoutsConfigs } from '../../src/payouts-config.ts'
import { actorOf, type RecordAudit } from '../audit/audit-log.ts'
import type { Database } from '../db/database.ts'
import { findFormOrThrow } from '../forms/find-form.ts'
import { isExportCheck } from '../platform/csv.ts'
import { assertCanExport, staffAccountOf } from '../staff/require-staff.ts'
import { form1099File } from './form-1099.ts'
import { unclaimedFunds, unclaimedFundsCsv } from './year-end.ts'

const NO_STORE = 'private, no-store'
const FIRST_YEAR = 2000

/**
 * The year-end files: the firm's 1099 data file, one row per payee over every app (full taxpayer
 * numbers: the payments right on every app, each download on record with its row count and SHA-256),
 * and an app's unclaimed funds by state for escheat (the app's export right). Mounted after requireStaff.
 */
export function yearEndRoutes({
  db,
  forms,
  payoutsConfigs,
  paymentsKey,
  audit,
  now = Date.now,
}: {
  db: Kysely<Database>
  forms: Map<string, FormConfig>
  payoutsConfigs: PayoutsConfigs
  paymentsKey: Buffer
  audit: RecordAudit
  now?: () => number
}): Router {
  const router = Router({ caseSensitive: true })

  router.get('/api/staff/payouts/1099.csv', async (req, res) => {
    const account = staffAccountOf(res)
    // it adds up each payee's payments from every app and lists their taxpayer numbers: every app's right
    const without = [...forms.keys()].filter((app) => !canPayApp(account, app)).sort()
    if (without.length > 0) {
      throw new AppError('FORBIDDEN', {
        status: 403,
        message: `the 1099 file holds full taxpayer numbers and each payee's payments from every app: it needs the payments right on every app, which an admin grants (missing: ${without.join(', ')})`,
      })
    }
    const year = parseYear(req.query.year, now())
    if (isExportCheck(req)) {
      res.set('Cache-Control', 'no-store').status(204).end()
      return
    }
    const { csv, rows } = await form1099File({ db, year, config: payoutsConfigs.firm, paymentsKey })
    const sha256 = crypto.createHash('sha256').update(csv, 'utf8').digest('hex')
    // on record before a byte is sent: nobody takes the taxpayer numbers unlogged
    await audit({
      ...actorOf(req, res),
      action: 'form_1099_download',
      detail: `1099 file for ${year}: ${rows} rows, SHA-256 ${sha256}`,
    })
    sendCsvText(res, `1099-${year}.csv`, csv)
  })

  router.get('/api/staff/apps/:slug/payouts/unclaimed.json', async (req, res) => {
    const { slug } = appOf(req, res)
    const report: UnclaimedFunds = await unclaimedFunds({
      db,
      app: slug,
      config: payoutsConfigs(slug),
      now: now(),
    })
    res.set('Cache-Control', NO_STORE).json(report)
  })

  router.get('/api/staff/apps/:slug/payouts/unclaimed.csv', async (req, res) => {
    const { slug } = appOf(req, res)
    if (isExportCheck(req)) {
      res.set('Cache-Control', 'no-store').status(204).end()
      return
    }
    const at = now()
    const { csv, rows } = await unclaimedFundsCsv({ db, app: slug, config: payoutsConfigs(slug), now: at })
    await audit({
      ...actorOf(req, res),
      app: slug,
      action: 'export',
      detail: `unclaimed funds: ${rows} rows`,
    })
    sendCsvText(res, `${slug}-unclaimed-${new Date(at).toISOString().slice(0, 10)}.csv`, csv)
  })

  const appOf = (req: Request, res: Response) => {
    const { slug } = findFormOrThrow(forms, String(req.params.slug))
    assertCanExport(res, slug)
    return { slug }
  }

  return router
}

/** `?year=2026`: a calendar year of four digits from 2000 to next year; 400 naming anything else. */
function parseYear(value: unknown, now: number): number {
  const text = typeof value === 'string' ? value : ''
  const latest = new Date(now).getUTCFullYear() + 1
  const year = /^\d{4}$/.test(text) ? Number(text) : NaN
  if (year >= FIRST_YEAR && year <= latest) return year
  throw new AppError('BAD_REQUEST', {
    status: 400,
    message:
      text === ''
        ? `"year" is missing: ask for a calendar year, such as ?year=${latest - 1}`
        : `"year" must be a calendar year from ${FIRST_YEAR} to ${latest}, such as ${latest - 1}; "${text.slice(0, 20)}" is not`,
  })
}

function sendCsvText(res: Response, fileName: string, csv: string): void {
  res.attachment(fileName)
  res.set({ 'Content-Type': 'text/csv; charset=utf-8', 'Cache-Control': NO_STORE })
  res.send(csv)
}
