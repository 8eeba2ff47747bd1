import { sealNumber } from '../../../server/payouts/sealed-numbers.ts'
import { recordTaxForm } from '../../../server/payouts/tax-form-seal.ts'
import type { PayoutItemStatus } from '../../../server/db/database.ts'
import type { PayoutMethod } from '../../../src/payout-details.ts'
import type { TestContext } from './helpers.ts'

type Ctx = Pick<TestContext, 'db' | 'paymentsKey' | 'evidenceKey'>

// Payout rows written straight into the tables for the year-end tests: the claimant's page writes W-9s
// and choices, and the batches write items, in the product. Numbers are sealed as the product seals them.

/**
 * The claimant's W-9: the TIN sealed under the context's payments key, its last four beside it, the
 * form sealed on the evidence chain. `certifiedAt` tells which of one person's W-9s is the latest.
 */
export async function insertTaxForm(
  { db, paymentsKey, evidenceKey }: Ctx,
  {
    claimId,
    legalName,
    tin,
    tinType = 'ssn',
    state,
    certifiedAt = Date.now(),
  }: {
    claimId: number
    legalName: string
    tin: string
    tinType?: 'ssn' | 'ein'
    state: string
    certifiedAt?: number
  },
): Promise<void> {
  await db.transaction().execute((trx) =>
    recordTaxForm(trx, evidenceKey, {
      claim_id: claimId,
      legal_name: legalName,
      tin_type: tinType,
      tin_sealed: sealNumber({ key: paymentsKey, value: tin, purpose: 'tin' }),
      tin_last4: tin.slice(-4),
      address: '12 Main St\nUnit 3',
      city: 'Springfield',
      state,
      zip_code: '90001',
      signature_method: 'typed',
      signature: legalName,
      certified_at: certifiedAt,
      ip_address: '127.0.0.1',
      user_agent: 'test',
    }),
  )
}

/** The claimant's bank account for ACH: the account number sealed, its last four beside it. */
export async function insertAchChoice(
  { db, paymentsKey }: Ctx,
  { claimId, accountNumber }: { claimId: number; accountNumber: string },
): Promise<void> {
  await db
    .insertInto('payout_choices')
    .values({
      claim_id: claimId,
      method: 'ach',
      routing_number: '021000021',
      account_sealed: sealNumber({ key: paymentsKey, value: accountNumber, purpose: 'accountNumber' }),
      account_last4: accountNumber.slice(-4),
      account_type: 'checking',
      chosen_at: Date.now(),
    })
    .execute()
}

/**
 * One payout item in a batch of its own, sent at `sentAt` (the item's `at` unless told); gross is
 * net plus withholding (no fee or costs: the year-end files read neither). Gives the item's id.
 */
export async function insertPayoutItem(
  { db }: Ctx,
  {
    app,
    claimId,
    netCents,
    withholdingCents = 0,
    status,
    at,
    sentAt = at,
    method = 'check',
    checkNumber = null,
    replacesItemId = null,
  }: {
    app: string
    claimId: number
    netCents: number
    withholdingCents?: number
    status: PayoutItemStatus
    /** The item's updated_at: when it was paid, failed or sent. */
    at: number
    sentAt?: number
    method?: PayoutMethod
    checkNumber?: number | null
    replacesItemId?: number | null
  },
): Promise<number> {
  const builder = await db.selectFrom('staff_accounts').select('id').orderBy('id').executeTakeFirstOrThrow()
  const batch = await db
    .insertInto('payout_batches')
    .values({
      app,
      status: 'sent',
      costs_cents: 0,
      built_by: Number(builder.id),
      built_at: sentAt,
      approved_by: Number(builder.id),
      approved_at: sentAt,
      sent_at: sentAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const { id } = await db
    .insertInto('payout_items')
    .values({
      batch_id: Number(batch.id),
      claim_id: claimId,
      method,
      gross_cents: netCents + withholdingCents,
      fee_percent: '40',
      fee_cents: 0,
      costs_cents: 0,
      withholding_cents: withholdingCents,
      net_cents: netCents,
      status,
      check_number: checkNumber,
      replaces_item_id: replacesItemId,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return Number(id)
}
