import express, { Router, type Request, type Response } from 'express'
import type { Kysely } from 'kysely'
import type { PayoutBatchBuilt, PayoutsPage, UncashedChecks } from '../../src/api/payouts.ts'
import { canPayApp } from '../../src/api/staff.ts'
import { AppError } from '../../src/app-error.ts'
import type { FormConfig } from '../../src/form-config.ts'
import { parseCents } from '../../src/money.ts'
import type { PayoutChoice } from '../../src/payout-details.ts'
import type { PayoutsConfigs } from '../../src/payouts-config.ts'
import { LOCALES, type Locale } from '../../src/translate.ts'
import type { Database } from '../db/database.ts'
import { actorOf, type RecordAudit } from '../audit/audit-log.ts'
import { clientAddress } from '../client-address.ts'
import { findFormOrThrow } from '../forms/find-form.ts'
import { parseListPage } from '../platform/list-query.ts'
import { assertCanSee, staffAccountOf } from '../staff/require-staff.ts'
import {
  approvePayoutBatch,
  buildPayoutBatch,
  findPayoutBatch,
  payoutCandidates,
  PAYMENTS_RIGHT_MESSAGE,
  type PayoutActor,
} from './payout-batches.ts'
import { achFileOf, checkFilesOf, firmDay } from './payout-files.ts'
import type { PayoutSettings } from './payout-settings.ts'
import { splitPayout } from './payout-split.ts'
import { renderPayoutStatementPdf } from './payout-statement-pdf.ts'
import { listPayoutBatches, payoutItemPage, uncashedChecks } from './payout-views.ts'
import { reconcilePayouts } from './reconciliation.ts'

const NO_STORE = 'private, no-store'

/**
 * An app's payouts for staff: the claims ready to pay and the batches; building a batch and approving
 * one (the payments right, by two different accounts); a batch's items, files for the bank and
 * reconciliation; checks not cashed; a claimant's payment statement. Seeing needs the app; building,
 * approving and the bank's files (which name claimants and amounts) the payments right. Mounted after
 * requireStaff and sameOriginOnly.
 */
export function payoutRoutes({
  db,
  forms,
  evidenceKey,
  paymentsKey,
  settings,
  payoutsConfigs,
  sender,
  audit,
  now = Date.now,
}: {
  db: Kysely<Database>
  forms: Map<string, FormConfig>
  evidenceKey: Buffer
  paymentsKey: Buffer
  settings: PayoutSettings
  /** Each app's payouts.json: how many days make a check uncashed. */
  payoutsConfigs: PayoutsConfigs
  /** The send job, woken by each approval. */
  sender: { wake(): void }
  audit: RecordAudit
  now?: () => number
}): Router {
  const router = Router({ caseSensitive: true })
  const json = express.json({ limit: '4kb' })

  const actor = (req: Request, res: Response): PayoutActor => ({
    account: staffAccountOf(res),
    clientAddress: clientAddress(req),
  })
  const appOf = (req: Request, res: Response) => {
    const { slug } = findFormOrThrow(forms, String(req.params.slug))
    assertCanSee(res, slug)
    return slug
  }
  /** The batch, seen by an account of its app; with `pay`, one with the payments right. */
  const batchOf = async (req: Request, res: Response, pay = false) => {
    const batch = await findPayoutBatch(db, Number(req.params.id))
    assertCanSee(res, batch.app)
    if (pay && !canPayApp(staffAccountOf(res), batch.app)) {
      throw new AppError('FORBIDDEN', { status: 403, message: PAYMENTS_RIGHT_MESSAGE })
    }
    return { id: Number(batch.id), app: batch.app }
  }
  const download = async (
    req: Request,
    res: Response,
    {
      batch,
      file,
      type,
      body,
    }: { batch: { id: number; app: string }; file: string; type: string; body: string },
  ) => {
    await audit({
      ...actorOf(req, res),
      app: batch.app,
      action: 'payout_file_download',
      detail: `payout batch ${batch.id}: ${file}`,
    })
    res
      .set('Cache-Control', NO_STORE)
      .type(type)
      .attachment(`${batch.app}-payout-batch-${batch.id}-${file}`)
      .send(body)
  }

  router.get('/api/staff/apps/:slug/payouts', async (req, res) => {
    const app = appOf(req, res)
    const page: PayoutsPage = {
      isPayPalSetUp: settings.paypal !== undefined,
      candidates: await payoutCandidates(db, app),
      batches: await listPayoutBatches(db, app),
    }
    res.set('Cache-Control', NO_STORE).json(page)
  })

  router.post('/api/staff/apps/:slug/payouts', json, async (req, res) => {
    const app = appOf(req, res)
    const costs = (req.body as { costs?: unknown } | undefined)?.costs ?? '0'
    if (typeof costs !== 'string') throw badRequest('"costs" must be a dollar amount as text, like "12.50"')
    const built: PayoutBatchBuilt = await buildPayoutBatch({
      db,
      app,
      by: actor(req, res),
      costsCents: parseCents(costs, 'costs'),
      evidenceKey,
      now: now(),
    })
    res.status(201).json(built)
  })

  router.get('/api/staff/apps/:slug/payouts/reconciliation', async (req, res) => {
    const app = appOf(req, res)
    res.set('Cache-Control', NO_STORE).json(await reconcilePayouts(db, { app }))
  })

  router.get('/api/staff/apps/:slug/payouts/uncashed-checks', async (req, res) => {
    const app = appOf(req, res)
    const days = payoutsConfigs(app).uncashedCheckDays
    const answer: UncashedChecks = {
      uncashedCheckDays: days,
      checks: await uncashedChecks(db, { app, days, now: now() }),
    }
    res.set('Cache-Control', NO_STORE).json(answer)
  })

  router.post('/api/staff/payout-batches/:id/approve', async (req, res) => {
    const batch = await batchOf(req, res)
    await approvePayoutBatch({ db, batchId: batch.id, by: actor(req, res), evidenceKey, now: now() })
    sender.wake()
    const view = (await listPayoutBatches(db, batch.app)).find((each) => each.id === batch.id)
    res.json(view)
  })

  router.get('/api/staff/payout-batches/:id/items', async (req, res) => {
    const batch = await batchOf(req, res)
    const page = parseListPage(req.query)
    res.set('Cache-Control', NO_STORE).json(await payoutItemPage(db, { batchId: batch.id, ...page }))
  })

  router.get('/api/staff/payout-batches/:id/reconciliation', async (req, res) => {
    const batch = await batchOf(req, res)
    res.set('Cache-Control', NO_STORE).json(await reconcilePayouts(db, { batchId: batch.id }))
  })

  router.get('/api/staff/payout-batches/:id/ach.txt', async (req, res) => {
    const batch = await batchOf(req, res, true)
    const file = await achFileOf({ db, batch, ach: settings.ach, paymentsKey, now: now() })
    await download(req, res, { batch, file: 'ach.txt', type: 'text/plain', body: file.text })
  })

  router.get('/api/staff/payout-batches/:id/checks.csv', async (req, res) => {
    const batch = await batchOf(req, res, true)
    const files = await checkFilesOf({ db, batch, ach: settings.ach })
    await download(req, res, { batch, file: 'checks.csv', type: 'text/csv', body: files.registerCsv })
  })

  router.get('/api/staff/payout-batches/:id/positive-pay.csv', async (req, res) => {
    const batch = await batchOf(req, res, true)
    const files = await checkFilesOf({ db, batch, ach: settings.ach })
    await download(req, res, {
      batch,
      file: 'positive-pay.csv',
      type: 'text/csv',
      body: files.positivePayCsv,
    })
  })

  router.get('/api/staff/claims/:id/payout-statement.pdf', async (req, res) => {
    const claimId = Number(req.params.id)
    const claim = Number.isSafeInteger(claimId)
      ? await db.selectFrom('claims').selectAll().where('id', '=', claimId).executeTakeFirst()
      : undefined
    if (!claim)
      throw new AppError('NOT_FOUND', { status: 404, message: `claim "${req.params.id}" not found` })
    assertCanSee(res, claim.app)
    // the payment under way or made: a failed item's fallback, not the item itself
    const item = await db
      .selectFrom('payout_items')
      .selectAll()
      .where('claim_id', '=', claimId)
      .where('status', 'in', ['pending', 'sent', 'paid'])
      .orderBy('id', 'desc')
      .executeTakeFirst()
    if (!item) {
      throw new AppError('NOT_FOUND', {
        status: 404,
        message: `claim ${claimId} has no payment in a payout batch`,
      })
    }
    const record = await db
      .selectFrom('agreement_records')
      .select(['template', 'template_version', 'signed_at', 'sha256', 'html'])
      .where('claim_id', '=', claimId)
      .orderBy('id')
      .execute()
    const signed = record.find((each) => each.html.includes(`${item.fee_percent}%`)) ?? record[0]
    const choice = await db
      .selectFrom('payout_choices')
      .selectAll()
      .where('claim_id', '=', claimId)
      .executeTakeFirst()
    const payment: PayoutChoice = { method: item.method }
    if (item.method === 'paypal' || item.method === 'venmo') {
      if (choice?.receiver_type === 'phone') payment.phone = choice.receiver ?? ''
      else payment.email = choice?.receiver ?? ''
    } else if (item.method === 'ach' && choice) {
      payment.routingNumber = choice.routing_number ?? ''
      // the statement masks it: its last four are all it needs
      payment.accountNumber = `0000${choice.account_last4 ?? ''}`
      payment.accountType = choice.account_type ?? 'checking'
    }
    const locale: Locale = (LOCALES as readonly string[]).includes(claim.locale)
      ? (claim.locale as Locale)
      : 'en'
    // computed again from what the item was asked, so the statement can show how the costs came about
    const split = splitPayout({
      grossCents: Number(item.gross_cents),
      fee: { percent: item.fee_percent },
      costsCents: Number(item.claim_costs_cents) + Number(item.batch_costs_cents),
      claimCostsCents: Number(item.claim_costs_cents),
      isBackupWithholding: Number(item.withholding_cents) > 0,
    })
    if (
      split.feeCents !== Number(item.fee_cents) ||
      split.costsCents !== Number(item.costs_cents) ||
      split.withholdingCents !== Number(item.withholding_cents) ||
      split.netCents !== Number(item.net_cents)
    ) {
      // a statement must say what was paid: an item that no longer adds up was changed after its batch
      throw new AppError('CONFLICT', {
        status: 409,
        message: `payout item ${item.id} of claim ${claimId} does not add up to the split of its award, fee and costs; run verify-evidence before sending a statement`,
      })
    }
    const pdf = await renderPayoutStatementPdf({
      locale,
      statement: {
        claimantName: `${claim.first_name} ${claim.last_name}`,
        appName: forms.get(claim.app)?.displayName ?? claim.app,
        claimId,
        split,
        agreement: {
          templateName: signed?.template ?? '',
          templateVersion: signed?.template_version ?? '',
          signedOn: signed ? firmDay(new Date(signed.signed_at).getTime()) : '',
          sha256: signed?.sha256 ?? '',
        },
        payment,
        issuedOn: firmDay(Number(item.updated_at)),
      },
    })
    res
      .set('Cache-Control', NO_STORE)
      .type('application/pdf')
      .attachment(`payout-statement-claim-${claimId}.pdf`)
      .send(pdf)
  })

  return router
}

function badRequest(message: string): AppError {
  return new AppError('BAD_REQUEST', { status: 400, message })
}
