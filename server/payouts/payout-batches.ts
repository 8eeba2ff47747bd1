import type { Kysely, Selectable, Transaction } from 'kysely'
import { canPayApp, type StaffAccountView } from '../../src/api/staff.ts'
import type { PayoutCandidates, PayoutLeftOut, PayoutTotals } from '../../src/api/payouts.ts'
import { AppError } from '../../src/app-error.ts'
import { formatCents } from '../../src/money.ts'
import type { Database, PayoutBatchesTable, PayoutMethod } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { writeAuditEntry } from '../audit/audit-log.ts'
import { chunks } from '../db/id-chunks.ts'
import { readFeeTerms } from './fee-terms.ts'
import { lockAppPayouts } from './payout-lock.ts'
import { splitPayout, spreadCosts, type PayoutSplit } from './payout-split.ts'
import { sumPayoutItems, totalsOf } from './payout-totals.ts'
import { signedAgreements } from './signed-agreements.ts'

/** Who builds or approves a batch: the signed-in account, from where. */
export interface PayoutActor {
  account: Pick<StaffAccountView, 'id' | 'email' | 'role' | 'apps'>
  clientAddress: string
}

type Db = Kysely<Database> | Transaction<Database>

/** An item that is (or may still be) paying its claim: such a claim is not paid again. */
const LIVE_ITEM_STATUSES = ['pending', 'sent', 'paid'] as const
/** Items whose money did not reach the claimant: the claim may be paid again. */
export const UNPAID_ITEM_STATUSES = ['failed', 'unclaimed', 'returned'] as const

interface CandidateRow {
  claimId: number
  grossCents: number
  /** Costs the firm advanced on this claim alone (its award's). */
  claimCostsCents: number
  method: PayoutMethod
  hasTaxForm: boolean
}

export const PAYMENTS_RIGHT_MESSAGE =
  "paying claimants needs the app's payments right, which an admin grants on the accounts page"
export const SAME_ACCOUNT_MESSAGE =
  'the account that built a payout batch cannot approve it: another account with the payments right must'

/**
 * The claims of `app` that can be paid: an award, a payment choice, the signed consent to its
 * settlement's allocation when the award is a settlement's share, not disowned, and no item pending,
 * sent or paid (one that failed or came back may be paid again). Oldest claim first.
 */
async function candidateRows(db: Db, app: string): Promise<CandidateRow[]> {
  const rows = await db
    .selectFrom('claim_awards as award')
    .innerJoin('claims', 'claims.id', 'award.claim_id')
    .innerJoin('payout_choices as choice', 'choice.claim_id', 'award.claim_id')
    .leftJoin('settlement_consents as consent', (join) =>
      join
        .onRef('consent.claim_id', '=', 'award.claim_id')
        .onRef('consent.settlement_id', '=', 'award.settlement_id'),
    )
    .leftJoin('tax_forms as w9', 'w9.claim_id', 'award.claim_id')
    .select([
      'award.claim_id',
      'award.gross_cents',
      'award.costs_cents',
      'choice.method',
      'w9.claim_id as w9_claim_id',
    ])
    .where('award.app', '=', app)
    .where('claims.disowned_at', 'is', null)
    .where((eb) => eb.or([eb('award.settlement_id', 'is', null), eb('consent.claim_id', 'is not', null)]))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('payout_items as item')
            .select('item.id')
            .whereRef('item.claim_id', '=', 'award.claim_id')
            .where('item.status', 'in', LIVE_ITEM_STATUSES),
        ),
      ),
    )
    .orderBy('award.claim_id')
    .execute()
  return rows.map((row) => ({
    claimId: Number(row.claim_id),
    grossCents: Number(row.gross_cents),
    claimCostsCents: Number(row.costs_cents),
    method: row.method,
    hasTaxForm: row.w9_claim_id !== null,
  }))
}

/** How many claims of `app` a batch built now would take, and their awards by payment method. */
export async function payoutCandidates(db: Kysely<Database>, app: string): Promise<PayoutCandidates> {
  const rows = await candidateRows(db, app)
  const byMethod: PayoutCandidates['byMethod'] = {}
  for (const row of rows) {
    const entry = (byMethod[row.method] ??= { count: 0, grossCents: 0 })
    entry.count += 1
    entry.grossCents += row.grossCents
  }
  return {
    count: rows.length,
    grossCents: rows.reduce((sum, row) => sum + row.grossCents, 0),
    withoutTaxForm: rows.filter((row) => !row.hasTaxForm).length,
    byMethod,
  }
}

/**
 * Builds a payout batch of every claim of `app` that can be paid (the maker's step): each claim's split
 * from the fee its signed agreement states, the costs advanced on the claim (its award's) and its equal
 * part of the batch's costs, backup withholding where
 * the claimant gave no W-9. A claim whose agreement states no fee (or two) is left out and named. The
 * batch, its items and the audit entry commit together, and the app's other builds, award corrections
 * and claimants' changes wait for them (lockAppPayouts). Needs the app's payments right.
 */
export async function buildPayoutBatch({
  db,
  app,
  by,
  costsCents,
  evidenceKey,
  now = Date.now(),
}: {
  db: Kysely<Database>
  app: string
  by: PayoutActor
  costsCents: number
  evidenceKey: Buffer
  now?: number
}): Promise<{ batchId: number; totals: PayoutTotals; leftOut: PayoutLeftOut[] }> {
  if (!canPayApp(by.account, app)) throw forbidden(PAYMENTS_RIGHT_MESSAGE)
  return retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      await lockAppPayouts(trx, app)
      const rows = await candidateRows(trx, app)
      const leftOut: PayoutLeftOut[] = []
      const fees = await feePercents({ db, trx, rows, leftOut })
      const paying = rows.filter((row) => fees.has(row.claimId))
      if (paying.length === 0) {
        throw new AppError('CONFLICT', {
          status: 409,
          message:
            rows.length === 0
              ? `no claim of "${app}" is ready to pay: a claim needs an award, a payment choice, the signed consent to its settlement's allocation, and no payment under way`
              : `no claim of "${app}" can be paid: ${leftOut.map((claim) => claim.reason).join('; ')}`,
          details: {
            problems: leftOut.map((claim) => claim.reason),
            claimIds: leftOut.map((claim) => claim.claimId),
          },
        })
      }
      // a claim paid before whose payment came back is paid that same split again, its net only
      const earlier = await latestUnpaidItems(
        trx,
        paying.map((row) => row.claimId),
      )
      const shares = new Map(
        spreadCosts(
          costsCents,
          paying.filter((row) => !earlier.has(row.claimId)).map((row) => row.claimId),
        ).map((share) => [share.claimId, share.cents]),
      )
      const { id: batchId } = await trx
        .insertInto('payout_batches')
        .values({
          app,
          status: 'built',
          costs_cents: costsCents,
          built_by: by.account.id,
          built_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      const items = paying.map((row) => {
        const before = earlier.get(row.claimId)
        const split: Omit<PayoutSplit, 'explanation' | 'costsWaivedCents' | 'isBackupWithholding'> =
          before ??
          splitPayout({
            grossCents: row.grossCents,
            fee: { percent: fees.get(row.claimId)! },
            costsCents: row.claimCostsCents + (shares.get(row.claimId) ?? 0),
            claimCostsCents: row.claimCostsCents,
            isBackupWithholding: !row.hasTaxForm,
          })
        return {
          batch_id: Number(batchId),
          claim_id: row.claimId,
          method: row.method,
          gross_cents: split.grossCents,
          fee_percent: split.feePercent,
          fee_cents: split.feeCents,
          costs_cents: split.costsCents,
          claim_costs_cents: split.claimCostsCents,
          batch_costs_cents: split.batchCostsCents,
          withholding_cents: split.withholdingCents,
          net_cents: split.netCents,
          status: 'pending' as const,
          replaces_item_id: before ? before.itemId : null,
          updated_at: now,
        }
      })
      for (const part of chunks(items, 200)) await trx.insertInto('payout_items').values(part).execute()
      const totals = totalsOf(items)
      await writeAuditEntry(trx, evidenceKey, {
        clientAddress: by.clientAddress,
        accountId: by.account.id,
        actor: by.account.email,
        app,
        action: 'payout_batch_built',
        detail: `payout batch ${batchId}: ${describeTotals(totals)}${leftOut.length ? `; left out: claims ${leftOut.map((claim) => claim.claimId).join(', ')}` : ''}`,
      })
      return { batchId: Number(batchId), totals, leftOut }
    }),
  )
}

/**
 * Approves a built batch (the checker's step): needs the payments right and another account than the
 * one that built it, admins included, so that no one person both makes and releases a payment. The
 * send job takes it up at once.
 */
export async function approvePayoutBatch({
  db,
  batchId,
  by,
  evidenceKey,
  now = Date.now(),
}: {
  db: Kysely<Database>
  batchId: number
  by: PayoutActor
  evidenceKey: Buffer
  now?: number
}): Promise<Selectable<PayoutBatchesTable>> {
  const batch = await findPayoutBatch(db, batchId)
  if (!canPayApp(by.account, batch.app)) throw forbidden(PAYMENTS_RIGHT_MESSAGE)
  if (Number(batch.built_by) === by.account.id) throw forbidden(SAME_ACCOUNT_MESSAGE)
  return retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      const approved = await trx
        .updateTable('payout_batches')
        .set({ status: 'approved', approved_by: by.account.id, approved_at: now, due_at: now })
        .where('id', '=', batchId)
        .where('status', '=', 'built')
        .where('built_by', '!=', by.account.id)
        .returningAll()
        .executeTakeFirst()
      if (!approved) {
        throw new AppError('CONFLICT', {
          status: 409,
          message: `payout batch ${batchId} is ${batch.status}, not built: only a built batch can be approved`,
        })
      }
      const totals = (await sumPayoutItems(trx, [batchId])).get(batchId) ?? totalsOf([])
      await writeAuditEntry(trx, evidenceKey, {
        clientAddress: by.clientAddress,
        accountId: by.account.id,
        actor: by.account.email,
        app: batch.app,
        action: 'payout_batch_approved',
        detail: `payout batch ${batchId}: ${describeTotals(totals)}`,
      })
      return approved
    }),
  )
}

/** The batch, or 404. */
export async function findPayoutBatch(db: Db, batchId: number): Promise<Selectable<PayoutBatchesTable>> {
  const batch = Number.isSafeInteger(batchId)
    ? await db.selectFrom('payout_batches').selectAll().where('id', '=', batchId).executeTakeFirst()
    : undefined
  if (!batch) throw new AppError('NOT_FOUND', { status: 404, message: `payout batch "${batchId}" not found` })
  return batch
}

function describeTotals(totals: PayoutTotals): string {
  return `${totals.count} claims; gross ${formatCents(totals.grossCents)}, fee ${formatCents(totals.feeCents)}, costs ${formatCents(totals.costsCents)}, withholding ${formatCents(totals.withholdingCents)}, net ${formatCents(totals.netCents)}`
}

/**
 * Each claim's fee percent as its signed agreement states it; a claim whose agreements state none (or
 * differing ones) goes to `leftOut` with readFeeTerms's reason. The agreements are read one claim at a
 * time (signedAgreements): every claim's HTML at once was most of a build's memory.
 */
async function feePercents({
  db,
  trx,
  rows,
  leftOut,
}: {
  db: Kysely<Database>
  trx: Transaction<Database>
  rows: readonly CandidateRow[]
  leftOut: PayoutLeftOut[]
}): Promise<Map<number, string>> {
  const fees = new Map<number, string>()
  const claimIds = rows.map((row) => row.claimId)
  for await (const { claimId, html } of signedAgreements({ db, trx, claimIds })) {
    try {
      fees.set(claimId, readFeeTerms({ html, claimId }).percent)
    } catch (error) {
      if (!(error instanceof AppError)) throw error
      leftOut.push({ claimId, reason: error.message })
    }
  }
  return fees
}

/** The latest item of each claim that was sent but did not pay it, with its split. */
async function latestUnpaidItems(db: Db, claimIds: readonly number[]) {
  const latest = new Map<
    number,
    {
      itemId: number
      grossCents: number
      feePercent: string
      feeCents: number
      costsCents: number
      claimCostsCents: number
      batchCostsCents: number
      withholdingCents: number
      netCents: number
    }
  >()
  for (const ids of chunks(claimIds)) {
    const items = await db
      .selectFrom('payout_items')
      .selectAll()
      .where('claim_id', 'in', ids)
      .where('status', 'in', UNPAID_ITEM_STATUSES)
      .orderBy('id')
      .execute()
    for (const item of items) {
      latest.set(Number(item.claim_id), {
        itemId: Number(item.id),
        grossCents: Number(item.gross_cents),
        feePercent: item.fee_percent,
        feeCents: Number(item.fee_cents),
        costsCents: Number(item.costs_cents),
        claimCostsCents: Number(item.claim_costs_cents),
        batchCostsCents: Number(item.batch_costs_cents),
        withholdingCents: Number(item.withholding_cents),
        netCents: Number(item.net_cents),
      })
    }
  }
  return latest
}

function forbidden(message: string): AppError {
  return new AppError('FORBIDDEN', { status: 403, message })
}
