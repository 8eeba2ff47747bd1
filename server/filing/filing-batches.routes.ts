import { PassThrough, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import express, { Router, type Request, type Response } from 'express'
import type { Kysely } from 'kysely'
import yazl from 'yazl'
import {
  BATCH_ZIP_TYPE,
  MAX_FILING_BATCH,
  type BatchCandidates,
  type BatchKind,
  type BatchList,
  type CaseNumbersImported,
  type TrackingNumbersImported,
  type CureRequestsSent,
} from '../../src/api/filing-batches.ts'
import { canDecideApp, visibleApps } from '../../src/api/staff.ts'
import { AppError } from '../../src/app-error.ts'
import type { FormConfig } from '../../src/form-config.ts'
import type { Reviews } from '../../src/review-config.ts'
import type { FraudConfigs } from '../../src/fraud-config.ts'
import type { AgreementPdfs } from '../agreements/agreement-pdfs.ts'
import type { Database } from '../db/database.ts'
import { evidenceBundleFiles, zipBundle } from './evidence-bundle.ts'
import { findFormOrThrow } from '../forms/find-form.ts'
import type { Languages } from '../forms/languages.ts'
import { linkOrigin } from '../public-origin.ts'
import { actorOf, type RecordAudit } from '../audit/audit-log.ts'
import { assertCanExport, assertCanSee, staffAccountOf } from '../staff/require-staff.ts'
import type { ScreenshotStorage } from '../uploads/screenshot-storage.ts'
import type { BatchBuilder } from './batch-builder.ts'
import type { BatchStore } from './batch-store.ts'
import { importCaseNumbers } from './case-numbers.ts'
import { importTrackingNumbers } from './certified-mail-numbers.ts'
import {
  batchCandidates,
  batchClaims,
  batchView,
  filingDay,
  findBatch,
  listBatches,
  markNoticeSent,
  parseNoticeSent,
  sendCureRequests,
  startBatch,
  type BatchActor,
} from './filing-batches.ts'
import type { AppFiling } from './load-filing-config.ts'

const NO_STORE = 'private, no-store'

/**
 * An app's notice and filing batches: what could go in, building one, the list, marking notices sent,
 * the ZIPs, case numbers and cure requests. Seeing them needs the app; building, marking and importing
 * need its decide right; the ZIPs (claimants' personal data) its export right. Mounted after
 * requireStaff and sameOriginOnly.
 */
export function filingBatchRoutes({
  db,
  forms,
  filings,
  reviews,
  fraud,
  evidenceKey,
  batchStore,
  builder,
  claimCures,
  audit,
  storage,
  languages,
  agreementPdfs,
  now = Date.now,
}: {
  db: Kysely<Database>
  forms: Map<string, FormConfig>
  filings: (app: string) => AppFiling
  reviews: Reviews
  /** Each app's fraud.json: its hold threshold keeps claims out of batches. */
  fraud: FraudConfigs
  evidenceKey: Buffer
  /** Where the builder keeps the ZIPs (createBatchStore); left out, none can be downloaded. */
  batchStore: BatchStore | undefined
  /** Woken by each batch started; left out, a batch waits for a server process that builds them. */
  builder?: Pick<BatchBuilder, 'wake'> | undefined
  claimCures?: { wake(): void } | undefined
  audit: RecordAudit
  storage: ScreenshotStorage
  languages: Languages
  agreementPdfs: AgreementPdfs
  now?: () => number
}): Router {
  const router = Router({ caseSensitive: true })
  // 10,000 ids of up to 15 digits
  const json = express.json({ limit: '256kb' })
  // a provider's case-number file for 10,000 claimants, with room for its other columns
  const csv = express.text({ type: ['text/csv', 'text/plain'], limit: '5mb' })

  const appOf = (req: Request, res: Response, right: 'see' | 'decide' | 'export') => {
    const { slug, displayName } = findFormOrThrow(forms, String(req.params.slug))
    if (right === 'see') assertCanSee(res, slug)
    else if (right === 'export') assertCanExport(res, slug)
    else {
      assertCanSee(res, slug)
      if (!canDecideApp(staffAccountOf(res), slug)) {
        throw new AppError('FORBIDDEN', {
          status: 403,
          message: "building, sending and filing batches needs the app's decide right, which an admin grants",
        })
      }
    }
    return { slug, displayName, filing: filings(slug) }
  }
  const actor = (req: Request, res: Response): BatchActor => {
    const { clientAddress, accountId, actor } = actorOf(req, res)
    return { clientAddress, accountId: accountId!, actor: actor!, linkOrigin: linkOrigin(req) }
  }

  router.get('/api/staff/apps/:slug/batches/candidates', async (req, res) => {
    const { slug, filing } = appOf(req, res, 'see')
    const kind = parseKind(req.query.kind)
    const candidates: BatchCandidates = await batchCandidates(db, {
      app: slug,
      kind,
      filing,
      review: reviews(slug),
      fraud: fraud(slug),
      now: now(),
    })
    res.set('Cache-Control', NO_STORE).json(candidates)
  })

  router.get('/api/staff/apps/:slug/batches', async (req, res) => {
    const { slug, filing } = appOf(req, res, 'see')
    res
      .set('Cache-Control', NO_STORE)
      .json({ batches: await listBatches(db, { app: slug, filing }) } satisfies BatchList)
  })

  router.post('/api/staff/apps/:slug/batches', json, async (req, res) => {
    const { slug, filing } = appOf(req, res, 'decide')
    const body = (req.body ?? {}) as Record<string, unknown>
    const kind = parseKind(body.kind)
    const batch = await startBatch(db, {
      app: slug,
      kind,
      claimIds: parseClaimIds(body.claimIds),
      filing,
      review: reviews(slug),
      fraud: fraud(slug),
      evidenceKey,
      by: actor(req, res),
      now: now(),
    })
    res.status(202).json(batch)
    builder?.wake()
  })

  router.post('/api/staff/apps/:slug/batches/cure-requests', json, async (req, res) => {
    const { slug, filing } = appOf(req, res, 'decide')
    const claimIds = parseClaimIds((req.body as Record<string, unknown> | undefined)?.claimIds)
    if (!claimIds || claimIds.length === 0)
      throw badRequest('"claimIds" must list the claims to send a cure request')
    const sent = await sendCureRequests(db, {
      app: slug,
      claimIds,
      filing,
      reviews,
      evidenceKey,
      by: actor(req, res),
      mayDecide: canDecideApp(staffAccountOf(res), slug),
    })
    res.json({ sent } satisfies CureRequestsSent)
    if (sent > 0) claimCures?.wake()
  })

  router.get('/api/staff/apps/:slug/batches/:id', async (req, res) => {
    const { slug, filing } = appOf(req, res, 'see')
    const batch = await findBatch(db, slug, String(req.params.id))
    res
      .set('Cache-Control', NO_STORE)
      .json(batchView(batch, filing, await countNumbered(db, Number(batch.id))))
  })

  router.get('/api/staff/apps/:slug/batches/:id/claims', async (req, res) => {
    const { slug } = appOf(req, res, 'see')
    const batch = await findBatch(db, slug, String(req.params.id))
    const after = /^\d{1,15}$/.test(String(req.query.after ?? '')) ? Number(req.query.after) : 0
    res.set('Cache-Control', NO_STORE).json(await batchClaims(db, Number(batch.id), after))
  })

  router.post('/api/staff/apps/:slug/batches/:id/sent', json, async (req, res) => {
    const { slug } = appOf(req, res, 'decide')
    const batch = await findBatch(db, slug, String(req.params.id))
    const sent = parseNoticeSent(req.body, {
      builtOn: filingDay(Number(batch.created_at)),
      today: filingDay(now()),
    })
    await markNoticeSent(db, { batch, sent, evidenceKey, by: actor(req, res) })
    res.status(204).end()
  })

  router.post('/api/staff/apps/:slug/batches/:id/case-numbers', csv, async (req, res) => {
    const { slug } = appOf(req, res, 'decide')
    const batch = await findBatch(db, slug, String(req.params.id))
    if (typeof req.body !== 'string') throw badRequest("send the provider's case-number file as text/csv")
    const imported = await importCaseNumbers(db, { batch, text: req.body, evidenceKey, by: actor(req, res) })
    res.json({ imported } satisfies CaseNumbersImported)
  })

  router.post('/api/staff/apps/:slug/batches/:id/tracking-numbers', csv, async (req, res) => {
    const { slug } = appOf(req, res, 'decide')
    const batch = await findBatch(db, slug, String(req.params.id))
    if (typeof req.body !== 'string') throw badRequest('send the certified-mail file as text/csv')
    const imported = await importTrackingNumbers(db, {
      batch,
      text: req.body,
      evidenceKey,
      by: actor(req, res),
    })
    res.json({ imported } satisfies TrackingNumbersImported)
  })

  router.get('/api/staff/apps/:slug/batches/:id/download', async (req, res) => {
    const { slug } = appOf(req, res, 'export')
    const batch = await findBatch(db, slug, String(req.params.id))
    if (batch.status !== 'ready' || batch.file_key === null || batchStore === undefined) {
      throw new AppError('CONFLICT', {
        status: 409,
        message: `batch ${batch.id} is ${batch.status}: its ZIP is not ready`,
      })
    }
    const body = await batchStore.open(batch.file_key)
    if (!body) {
      throw new AppError('NOT_FOUND', {
        status: 404,
        message: `batch ${batch.id}'s ZIP is not ${batchStore.missing}`,
      })
    }
    await audit({
      ...actorOf(req, res),
      app: slug,
      action: 'batch_download',
      detail: `${batch.kind} batch ${batch.id} ZIP`,
    }).catch((error: unknown) => {
      body.destroy() // nothing is sent unless the download is on record
      throw error
    })
    res
      .set({
        'Content-Type': BATCH_ZIP_TYPE,
        'Cache-Control': NO_STORE,
        'Content-Length': String(batch.bytes),
      })
      .attachment(batch.file_key)
    await pipeline(body, res).catch(() => res.destroy())
  })

  router.get('/api/staff/apps/:slug/batches/:id/evidence', async (req, res) => {
    const { slug } = appOf(req, res, 'export')
    const batch = await findBatch(db, slug, String(req.params.id))
    if (batch.kind !== 'filing' || batch.status !== 'ready') {
      throw new AppError('CONFLICT', {
        status: 409,
        message: `batch ${batch.id}: evidence bundles come with a ready filing batch`,
      })
    }
    await audit({
      ...actorOf(req, res),
      app: slug,
      action: 'evidence_download',
      detail: `filing batch ${batch.id}: ${batch.claim_count} evidence bundles`,
    })
    res
      .set({ 'Content-Type': BATCH_ZIP_TYPE, 'Cache-Control': NO_STORE })
      .attachment(`${slug}-filing-batch-${batch.id}-evidence.zip`)
    const zip = new yazl.ZipFile()
    const sent = pipeline(zip.outputStream as Readable, res)
    sent.catch(() => undefined)
    const seen = visibleApps(staffAccountOf(res))
    try {
      for (let after = 0; ;) {
        const page = await batchClaims(db, Number(batch.id), after)
        if (page.length === 0) break
        for (const claim of page) {
          if (res.destroyed) return
          const bundle = await evidenceBundleFiles({
            db,
            storage,
            forms,
            translators: languages.t,
            agreementPdfs,
            claimId: claim.claimId,
            visibleApps: seen,
            // the batch's download above is the record of every bundle in it
            recordDownload: () => Promise.resolve(),
          })
          // one bundle at a time: the next is made once this one has gone out
          const entry = new PassThrough()
          zip.addReadStream(entry, `${claim.rowId}-evidence.zip`, { mtime: bundle.signedAt, mode: 0o100644 })
          await pipeline(zipBundle(bundle.files, bundle.signedAt), entry)
        }
        after = page.at(-1)!.claimId
      }
      zip.end()
      await sent
    } catch {
      res.destroy()
    }
  })

  return router
}

/** How many of a batch's claims have a case number (filing) or their own certified mail number (notice). */
async function countNumbered(db: Kysely<Database>, batchId: number): Promise<number> {
  const { count } = await db
    .selectFrom('filing_batch_claims')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('batch_id', '=', batchId)
    .where((eb) => eb.or([eb('case_number', 'is not', null), eb('tracking_number', 'is not', null)]))
    .executeTakeFirstOrThrow()
  return Number(count)
}

function parseKind(value: unknown): BatchKind {
  if (value === 'notice' || value === 'filing') return value
  throw badRequest(`"kind" must be notice or filing, not "${String(value)}"`)
}

function parseClaimIds(value: unknown): number[] | undefined {
  if (value === undefined) return undefined
  if (
    !Array.isArray(value) ||
    value.length > MAX_FILING_BATCH ||
    !value.every((id) => Number.isSafeInteger(id) && (id as number) > 0)
  ) {
    throw badRequest(`"claimIds" must list up to ${MAX_FILING_BATCH.toLocaleString('en-US')} claim ids`)
  }
  return [...new Set(value as number[])]
}

function badRequest(message: string): AppError {
  return new AppError('BAD_REQUEST', { status: 400, message })
}
