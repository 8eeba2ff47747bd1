import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import type { Kysely, Selectable, Transaction } from 'kysely'
import type { FormConfig } from '../../src/form-config.ts'
import type { Reviews } from '../../src/review-config.ts'
import type { FraudConfigs } from '../../src/fraud-config.ts'
import type { Database, FilingBatchesTable } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { canonicalJson } from '../evidence/canonical-json.ts'
import { subjectOf } from '../evidence/ledger.ts'
import { errorCode, type Logger } from '../logger.ts'
import { makePrivateFolder } from '../private-files.ts'
import type { JobContext, RowJobHandler } from '../jobs/job-handler.ts'
import { recordMove } from '../lifecycle/move-claim.ts'
import { writeAuditEntry } from '../audit/audit-log.ts'
import { chunks } from '../db/id-chunks.ts'
import { readBatchClaims, type BatchClaimRow } from './batch-claims.ts'
import {
  compileFilingTemplate,
  documentContext,
  mailingLogCsv,
  noticeFileName,
  representativesCsv,
  statementHtml,
} from './batch-documents.ts'
import type { BatchStore } from './batch-store.ts'
import { openBatchZip, type BatchZip } from './batch-zip.ts'
import type { FilingPdfs } from './filing-pdfs.ts'
import { fraudHoldProblem } from './fraud-hold.ts'
import { fraudChecksHtml } from './fraud-statement.ts'
import type { AppFiling } from './load-filing-config.ts'
import { spreadsheetCsv, spreadsheetRows, writeSpreadsheetXlsx } from './provider-spreadsheet.ts'

type BatchRow = Selectable<FilingBatchesTable>

export const BUILD_BATCH = 'build-batch'

/** The lease is renewed after this many PDFs. */
const RENEW_EVERY = 50
/** Claims moved to filed in one transaction: SQLite's one writer is the batch's only this long. */
const MOVE_PAGE = 200

/** Where a batch's ZIP is kept: DATA_DIR/batches/<app>-<kind>-batch-<id>.zip. */
export function batchFile(batchDir: string, batch: Pick<BatchRow, 'app' | 'kind' | 'id'>): string {
  return path.join(batchDir, batchFileName(batch))
}

export function batchFileName({ app, kind, id }: Pick<BatchRow, 'app' | 'kind' | 'id'>): string {
  return `${app}-${kind}-batch-${id}.zip`
}

/**
 * Builds the ZIP of a batch startBatch queued; a batch whose process died is built again. The PDFs are
 * made in their own low-priority thread (filingPdfThread), one at a time, and the ZIP goes to disk as it
 * is filled; between PDFs the builder gives way to the server's requests. A build that fails fails its
 * batch, which frees its claims for another.
 */
export function buildBatchJob({
  db,
  forms,
  filings,
  reviews,
  fraud,
  evidenceKey,
  pdfs,
  batchDir,
  store,
  logger,
  pollMs = 10_000,
}: {
  db: Kysely<Database>
  forms: Map<string, FormConfig>
  filings: (app: string) => AppFiling
  reviews: Reviews
  /** Each app's fraud.json: counsel's statement names its tests and hold threshold. */
  fraud: FraudConfigs
  evidenceKey: Buffer
  pdfs: FilingPdfs
  /** DATA_DIR/batches: where each ZIP is written */
  batchDir: string
  /** Where each finished ZIP is kept for download (createBatchStore): that folder, or the S3 bucket. */
  store: BatchStore
  logger: Logger
  pollMs?: number
}): RowJobHandler<'filing_batches'> {
  /** Holds the batch a while longer; LeaseLost when another process took it (this one then stops). */
  const renew = async (ctx: JobContext<'filing_batches'>, trx?: Transaction<Database>) => {
    if (!(await ctx.renew(trx))) throw new LeaseLost()
  }

  const build = async (ctx: JobContext<'filing_batches'>): Promise<'done' | 'ended' | 'handed-back'> => {
    const batch = ctx.row
    const file = batchFile(batchDir, batch)
    try {
      // sealed already (its process stopped while moving its claims): only the moves are left
      if (batch.batch_hash === null) await writeZip(ctx, file)
      if (batch.kind === 'filing') await moveToFiled(ctx)
      await retryWhileLocked(() =>
        db.updateTable('filing_batches').set({ status: 'ready' }).where('id', '=', batch.id).execute(),
      )
    } catch (error) {
      // the process is stopping: the batch is built again by the next
      if (error instanceof LeaseLost) return ctx.isStopped() ? 'handed-back' : 'ended'
      logger.error({ err: errorCode(error), batch: Number(batch.id) }, 'batch build failed')
      await fail(batch, file, error instanceof Error ? error.message : String(error))
    }
    return 'done'
  }

  /** Makes the batch's ZIP and seals it: the batch's hashes on its row and in an audit entry, in one transaction. */
  const writeZip = async (ctx: JobContext<'filing_batches'>, file: string) => {
    const batch = ctx.row
    const filing = filings(batch.app)
    const appName = forms.get(batch.app)?.displayName ?? batch.app
    const members = await db
      .selectFrom('filing_batch_claims')
      .select(['claim_id', 'row_id'])
      .where('batch_id', '=', batch.id)
      .orderBy('claim_id')
      .execute()
    const rowIds = new Map(members.map((member) => [Number(member.claim_id), member.row_id ?? '']))
    const claims = (
      await readBatchClaims(db, batch.app, { ids: members.map((member) => Number(member.claim_id)) })
    ).map((claim) => ({ ...claim, rowId: rowIds.get(claim.claimId)! }))
    if (batch.kind === 'filing') claims.sort((a, b) => (a.rowId < b.rowId ? -1 : 1))
    // scored again since the batch started (a ring grew, the company's list named it): counsel's statement
    // would no longer be true of it, so the batch fails and frees its claims for the next without it
    const held = claims.flatMap((claim) => fraudHoldProblem(claim, fraud(batch.app).thresholds.hold) ?? [])
    if (held.length > 0) {
      throw new Error(`the fraud hold took claims after the batch started: ${held.join('; ')}`)
    }
    const seals = await claimSeals(db, claims)
    const createdAt = Number(batch.created_at)
    makePrivateFolder(batchDir)
    const zip = openBatchZip(file, new Date(createdAt))
    try {
      const context = { filing, appName, createdAt, provider: filing.profile.name }
      const made = await (batch.kind === 'notice'
        ? noticeFiles(zip, ctx, claims, context)
        : filingFiles(zip, ctx, claims, context))
      const manifest = {
        batch: Number(batch.id),
        kind: batch.kind,
        app: batch.app,
        ...(batch.kind === 'filing' ? { provider: filing.settings.provider } : {}),
        respondent: filing.settings.respondent!.legalName,
        createdAt: new Date(createdAt).toISOString(),
        batchHash: made.batchHash,
        files: zip.entries,
        claims: claims.map((claim) => ({
          ...(batch.kind === 'filing'
            ? { rowId: claim.rowId, evidenceBundle: `${claim.rowId}-evidence.zip` }
            : {}),
          claimId: claim.claimId,
          seal: seals.get(claim.claimId) ?? '',
        })),
      }
      const manifestText = `${JSON.stringify(manifest, null, 2)}\n`
      zip.add('manifest.json', Buffer.from(manifestText, 'utf8'))
      const manifestSha = crypto.createHash('sha256').update(manifestText).digest('hex')
      const { bytes, sha256 } = await zip.finish()
      // kept before it is sealed: a batch sealed is one the builder will not write again. The lease is
      // renewed first, so an upload to the bucket has the lease's two minutes before another process
      // may take the batch up
      await renew(ctx)
      await store.keep(path.basename(file), file)
      await retryWhileLocked(() =>
        db.transaction().execute(async (trx) => {
          await renew(ctx, trx)
          await trx
            .updateTable('filing_batches')
            .set({ file_key: path.basename(file), bytes, sha256, batch_hash: made.batchHash })
            .where('id', '=', batch.id)
            .execute()
          await writeAuditEntry(trx, evidenceKey, {
            clientAddress: batch.client_address,
            accountId: Number(batch.account_id),
            actor: batch.actor,
            app: batch.app,
            action: 'batch_sealed',
            detail: `${batch.kind} batch ${batch.id}: ${claims.length} claims; batch hash ${made.batchHash}; manifest.json SHA-256 ${manifestSha}; ZIP SHA-256 ${sha256}`,
          })
        }),
      )
    } catch (error) {
      await zip.discard()
      throw error
    }
  }

  /** A notice per claimant, the notices in one PDF for printing, the mailing log. */
  const noticeFiles = async (
    zip: BatchZip,
    ctx: JobContext<'filing_batches'>,
    claims: BatchClaimRow[],
    context: Parameters<typeof documentContext>[1],
  ) => {
    const batch = ctx.row
    const render = compileFilingTemplate(context.filing.templates.notice)
    const parts = []
    for (const [index, claim] of claims.entries()) {
      const part = { html: render(documentContext(claim, context)), reference: `Claim ID ${claim.claimId}` }
      zip.add(noticeFileName(claim.claimId), await makePdf(batch, 'Notice of Dispute', [part]))
      parts.push(part)
      await pause(ctx, index)
    }
    zip.add('notices-combined.pdf', await makePdf(batch, `Notices of Dispute, batch ${batch.id}`, parts))
    zip.add('mailing-log.csv', Buffer.from(mailingLogCsv(claims, context.filing), 'utf8'))
    return { batchHash: listHash(batch, zip, claims) }
  }

  /** The provider's spreadsheet, a demand per row, the representatives, the clause and counsel's statement. */
  const filingFiles = async (
    zip: BatchZip,
    ctx: JobContext<'filing_batches'>,
    claims: BatchClaimRow[],
    context: Parameters<typeof documentContext>[1],
  ) => {
    const batch = ctx.row
    const { filing, appName, createdAt } = context
    const rows = spreadsheetRows(claims, filing.settings, filing.profile)
    zip.add('spreadsheet.csv', Buffer.from(spreadsheetCsv(rows), 'utf8'))
    const xlsx = new PassThrough()
    const [xlsxBytes] = await Promise.all([
      buffer(xlsx),
      writeSpreadsheetXlsx(rows, xlsx, `${appName} batch ${batch.id}`),
    ])
    zip.add('spreadsheet.xlsx', xlsxBytes)
    zip.add('representatives.csv', Buffer.from(representativesCsv(filing), 'utf8'))
    zip.add('arbitration-clause.txt', Buffer.from(`${filing.settings.clause}\n`, 'utf8'))
    const render = compileFilingTemplate(filing.templates.demand)
    for (const [index, claim] of claims.entries()) {
      const part = { html: render(documentContext(claim, context)), reference: `Row ID ${claim.rowId}` }
      zip.add(`demands/${claim.rowId}.pdf`, await makePdf(batch, 'Demand for Arbitration', [part]))
      await pause(ctx, index)
    }
    const batchHash = listHash(batch, zip, claims)
    const { statement } = filing.profile
    const html = statementHtml({
      batchId: Number(batch.id),
      count: claims.length,
      batchHash,
      statement,
      providerName: filing.profile.name,
      appName,
      filing,
      createdAt,
      fraudChecks: fraudChecksHtml({
        fraud: fraud(batch.app),
        count: claims.length,
        cleared: claims.filter((claim) => claim.fraudCleared).length,
      }),
    })
    zip.add(
      `counsel-${statement}.pdf`,
      await makePdf(
        batch,
        statement === 'affirmation' ? 'Affirmation of Counsel' : 'Declaration of Counsel',
        [{ html, reference: `Filing batch ${batch.id}` }],
      ),
    )
    return { batchHash }
  }

  const makePdf = (batch: BatchRow, title: string, parts: { html: string; reference: string }[]) =>
    pdfs.make({ title, createdAt: Number(batch.created_at), parts })

  /** Between PDFs: the server's requests first, and the lease renewed now and then. */
  const pause = async (ctx: JobContext<'filing_batches'>, index: number) => {
    if (ctx.isStopped()) throw new LeaseLost()
    if ((index + 1) % RENEW_EVERY === 0) await renew(ctx)
    await ctx.quietMoment(Date.now() + 200)
  }

  /** Moves the batch's claims that are still approved in it to filed, a page a transaction. */
  const moveToFiled = async (ctx: JobContext<'filing_batches'>) => {
    const batch = ctx.row
    const review = reviews(batch.app)
    for (;;) {
      const page = await db
        .selectFrom('claims')
        .select(['id', 'review_version'])
        .where('app', '=', batch.app)
        .where('filing_batch_id', '=', batch.id)
        .where('review_status', '=', review.roles.readyToFile)
        .orderBy('id')
        .limit(MOVE_PAGE)
        .execute()
      if (page.length === 0) return
      await renew(ctx)
      await retryWhileLocked(() =>
        db.transaction().execute(async (trx) => {
          for (const claim of page) {
            await recordMove(trx, {
              evidenceKey,
              review,
              claim: {
                id: Number(claim.id),
                app: batch.app,
                status: review.roles.readyToFile,
                version: Number(claim.review_version),
              },
              to: review.roles.filed,
              note: `filing batch ${batch.id}`,
              by: { clientAddress: batch.client_address, accountId: null, actor: 'filing batch' },
              mover: 'system',
            })
          }
        }),
      )
      await ctx.quietMoment(Date.now() + 200)
    }
  }

  /** A build that failed: the batch says why, its claims are free for another, the draft is gone. */
  const fail = async (batch: BatchRow, file: string, problem: string) => {
    const column = batch.kind === 'notice' ? 'notice_batch_id' : 'filing_batch_id'
    await fs.promises.rm(file, { force: true })
    // a ZIP kept before its seal failed: the key is the batch's, so nothing else is under it
    await store.remove(path.basename(file)).catch((error: unknown) => {
      logger.warn({ err: errorCode(error), batch: Number(batch.id) }, 'failed batch ZIP not removed')
    })
    await retryWhileLocked(() =>
      db.transaction().execute(async (trx) => {
        await trx
          .updateTable('filing_batches')
          .set({ status: 'failed', problem: problem.slice(0, 500) })
          .where('id', '=', batch.id)
          .execute()
        for (const ids of chunks(
          (
            await trx
              .selectFrom('filing_batch_claims')
              .select('claim_id')
              .where('batch_id', '=', batch.id)
              .execute()
          ).map((row) => Number(row.claim_id)),
        )) {
          await trx
            .updateTable('claims')
            .set({ [column]: null })
            .where('id', 'in', ids)
            .where(column, '=', batch.id)
            .where('review_status', '=', reviews(batch.app).roles.readyToFile)
            .execute()
        }
        await writeAuditEntry(trx, evidenceKey, {
          clientAddress: batch.client_address,
          accountId: Number(batch.account_id),
          actor: batch.actor,
          app: batch.app,
          action: 'batch_failed',
          detail: `${batch.kind} batch ${batch.id}: ${problem.slice(0, 200)}`,
        })
      }),
    )
  }

  return {
    kind: BUILD_BATCH,
    table: 'filing_batches',
    // a batch inserted ready (an import of one built elsewhere) has nothing to build
    where: (eb) => eb('status', '=', 'building'),
    pollMs,
    batch: 1,
    run: build,
  }
}

/**
 * The batch's hash: the SHA-256 of the canonical JSON of the batch's id, its files so far (name,
 * SHA-256, size) and its claims (row ID, claim id). Counsel's statement names it; manifest.json holds
 * it and the lists it is taken over, so anyone can recompute it.
 */
function listHash(batch: BatchRow, zip: BatchZip, claims: readonly BatchClaimRow[]): string {
  const text = canonicalJson({
    batch: Number(batch.id),
    files: zip.entries.map(({ name, sha256, bytes }) => ({ name, sha256, bytes })),
    claims: claims.map((claim) => ({ rowId: claim.rowId, claimId: claim.claimId })),
  })
  return crypto.createHash('sha256').update(text, 'utf8').digest('hex')
}

/** Each claim's seal as the ledger holds it (the signed record's SHA-256). */
async function claimSeals(
  db: Kysely<Database>,
  claims: readonly BatchClaimRow[],
): Promise<Map<number, string>> {
  const seals = new Map<number, string>()
  for (const part of chunks(claims.map((claim) => subjectOf('claim', claim.claimId)))) {
    const rows = await db
      .selectFrom('evidence_ledger')
      .select(['subject', 'seal'])
      .where('kind', '=', 'claim')
      .where('subject', 'in', part)
      .execute()
    for (const row of rows) seals.set(Number(row.subject.slice('claim:'.length)), row.seal)
  }
  return seals
}

/** The batch was taken over by another process, or the server is stopping: this process lets it go. */
class LeaseLost extends Error {}
