import { sql, type Kysely } from 'kysely'
import type { UnclaimedFunds, UnclaimedState } from '../../src/api/payouts-year-end.ts'
import { mask, maskEmail } from '../../src/payout-details.ts'
import type { PayoutsConfig } from '../../src/payouts-config.ts'
import { startOfZonedDay, zonedDay } from '../../src/zoned-day.ts'
import { DAY_MS } from '../../src/durations.ts'
import type { Database, PayoutItemStatus } from '../db/database.ts'
import { chunks } from '../db/id-chunks.ts'
import { readBatchClaims } from '../filing/batch-claims.ts'
import { csvRecord, UTF8_BOM } from '../platform/csv.ts'
import { CSV_TIME_ZONE } from '../platform/csv-time.ts'
import { decimalAmount } from './providers/decimal-amount.ts'

export const UNCLAIMED_HEADER = [
  'State',
  'Claim ID',
  'Name',
  'Address',
  'Address Line 2',
  'City',
  'ZIP',
  'Method',
  'Paid To',
  'Reason',
  'Amount',
  'Since',
  'Reportable From',
] as const

/** A payee as the year-end files name them: the W-9's legal name and address, else the claim's. */
export interface Payee {
  name: string
  street: string
  addressLine2: string
  city: string
  state: string
  zip: string
  /** The W-9's taxpayer number as stored (sealed), and when the W-9 was certified. */
  tax: { tinType: 'ssn' | 'ein'; tinSealed: string; certifiedAt: number } | undefined
}

/** One payment owed to a claimant that never reached them. */
interface UnclaimedItem {
  claimId: number
  payee: Payee
  method: string
  paidTo: string
  reason: string
  amountCents: number
  /** When it became unclaimed (failed, unclaimed, returned) or, for a check, when it was sent. */
  since: number
}

const LOST: PayoutItemStatus[] = ['unclaimed', 'failed', 'returned']
const REASONS: Partial<Record<PayoutItemStatus, string>> = {
  unclaimed: 'not claimed at the provider',
  failed: 'failed, no payment in its place',
  returned: 'returned by the bank',
  sent: 'check not cashed',
}

/**
 * The app's payments owed to claimants that never reached them, each the last of its line (no later
 * item pays it instead): items unclaimed, failed or returned, and checks sent more than
 * `uncashedCheckDays` ago and not paid. Each is the claimant's net; what was withheld went to the IRS.
 */
async function unclaimedItems({
  db,
  app,
  config,
  now,
}: {
  db: Kysely<Database>
  app: string
  config: Pick<PayoutsConfig, 'uncashedCheckDays'>
  now: number
}): Promise<UnclaimedItem[]> {
  const cutoff = now - config.uncashedCheckDays * DAY_MS
  const rows = await db
    .selectFrom('payout_items as item')
    .innerJoin('payout_batches as batch', 'batch.id', 'item.batch_id')
    .leftJoin('payout_choices as choice', 'choice.claim_id', 'item.claim_id')
    .select([
      'item.claim_id',
      'item.method',
      'item.status',
      'item.net_cents',
      'item.check_number',
      'item.updated_at',
      'batch.sent_at',
      'choice.method as choice_method',
      'choice.receiver',
      'choice.receiver_type',
      'choice.account_last4',
    ])
    .where('batch.app', '=', app)
    .where((eb) =>
      eb.or([
        eb('item.status', 'in', LOST),
        // a check counts from when it went out: its batch's sending, or a later fallback's own
        eb.and([
          eb('item.method', '=', 'check'),
          eb('item.status', '=', 'sent'),
          eb('batch.sent_at', '<', cutoff),
          eb('item.updated_at', '<', cutoff),
        ]),
      ]),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('payout_items as later')
            .select(sql.lit(1).as('one'))
            .whereRef('later.replaces_item_id', '=', 'item.id'),
        ),
      ),
    )
    .orderBy('item.claim_id')
    .orderBy('item.id')
    .execute()
  const payees = await readPayees(db, app, [...new Set(rows.map((row) => Number(row.claim_id)))])
  return rows.map((row) => ({
    claimId: Number(row.claim_id),
    payee: payees.get(Number(row.claim_id))!,
    method: row.method,
    paidTo:
      row.method === 'check'
        ? row.check_number === null
          ? ''
          : `check ${row.check_number}`
        : row.choice_method === row.method
          ? maskedReceiver(row)
          : '',
    reason: REASONS[row.status] ?? row.status,
    amountCents: Number(row.net_cents),
    since: Math.max(Number(row.updated_at), Number(row.sent_at ?? 0)),
  }))
}

/** The unclaimed funds by the claimant's state, with counts and totals to the cent. */
export async function unclaimedFunds({
  db,
  app,
  config,
  now = Date.now(),
}: {
  db: Kysely<Database>
  app: string
  config: Pick<PayoutsConfig, 'uncashedCheckDays' | 'dormancyYears'>
  now?: number
}): Promise<UnclaimedFunds> {
  const items = await unclaimedItems({ db, app, config, now })
  const byState = new Map<string, UnclaimedState>()
  for (const item of items) {
    const state = byState.get(item.payee.state) ?? {
      state: item.payee.state,
      count: 0,
      totalCents: 0,
      dormantCount: 0,
      dormantCents: 0,
    }
    state.count += 1
    state.totalCents += item.amountCents
    if (reportableFrom(item.since, config.dormancyYears) <= now) {
      state.dormantCount += 1
      state.dormantCents += item.amountCents
    }
    byState.set(item.payee.state, state)
  }
  const states = [...byState.values()].sort(byStateCode)
  return {
    app,
    asOf: new Date(now).toISOString(),
    uncashedCheckDays: config.uncashedCheckDays,
    dormancyYears: config.dormancyYears,
    states,
    count: items.length,
    totalCents: items.reduce((sum, item) => sum + item.amountCents, 0),
  }
}

/**
 * The unclaimed funds' detail as CSV text (UTF-8 with a byte-order mark), by state as the report
 * groups them: no taxpayer number, and an account or wallet only as its last characters.
 */
export async function unclaimedFundsCsv({
  db,
  app,
  config,
  now = Date.now(),
}: {
  db: Kysely<Database>
  app: string
  config: Pick<PayoutsConfig, 'uncashedCheckDays' | 'dormancyYears'>
  now?: number
}): Promise<{ csv: string; rows: number }> {
  const items = await unclaimedItems({ db, app, config, now })
  items.sort((a, b) => byStateCode(a.payee, b.payee) || a.claimId - b.claimId)
  let csv = UTF8_BOM + csvRecord(UNCLAIMED_HEADER)
  for (const item of items) {
    csv += csvRecord([
      item.payee.state,
      String(item.claimId),
      item.payee.name,
      item.payee.street,
      item.payee.addressLine2,
      item.payee.city,
      item.payee.zip,
      item.method,
      item.paidTo,
      item.reason,
      decimalAmount(item.amountCents),
      firmDate(item.since),
      firmDate(reportableFrom(item.since, config.dormancyYears)),
    ])
  }
  return { csv, rows: items.length }
}

/**
 * The payees of these claims: the W-9's legal name and address where the claimant filed one, else the
 * claim's name and the address its claimant confirmed (readBatchClaims), else no address.
 */
export async function readPayees(
  db: Kysely<Database>,
  app: string,
  claimIds: number[],
): Promise<Map<number, Payee>> {
  const claims = await readBatchClaims(db, app, { ids: claimIds })
  const forms = (
    await Promise.all(
      chunks(claimIds).map((ids) =>
        ids.length === 0
          ? []
          : db
              .selectFrom('tax_forms')
              .select([
                'claim_id',
                'legal_name',
                'tin_type',
                'tin_sealed',
                'address',
                'city',
                'state',
                'zip_code',
                'certified_at',
              ])
              .where('claim_id', 'in', ids)
              .execute(),
      ),
    )
  ).flat()
  const taxForms = new Map(forms.map((form) => [Number(form.claim_id), form]))
  const payees = new Map<number, Payee>()
  for (const claim of claims) {
    const form = taxForms.get(claim.claimId)
    if (form) {
      const [street = '', addressLine2 = ''] = form.address.split('\n')
      payees.set(claim.claimId, {
        name: form.legal_name,
        street,
        addressLine2,
        city: form.city,
        state: form.state,
        zip: form.zip_code,
        tax: { tinType: form.tin_type, tinSealed: form.tin_sealed, certifiedAt: Number(form.certified_at) },
      })
      continue
    }
    payees.set(claim.claimId, {
      name: `${claim.firstName} ${claim.lastName}`.trim(),
      street: claim.address?.street ?? '',
      addressLine2: claim.address?.addressLine2 ?? '',
      city: claim.address?.city ?? '',
      state: claim.address?.state.toUpperCase() ?? '',
      zip: claim.address?.zip ?? '',
      tax: undefined,
    })
  }
  return payees
}

function maskedReceiver(choice: {
  method: string
  receiver: string | null
  receiver_type: string | null
  account_last4: string | null
}): string {
  if (choice.method === 'ach') return choice.account_last4 ? `••••${choice.account_last4}` : ''
  if (!choice.receiver) return ''
  return choice.receiver_type === 'email' ? maskEmail(choice.receiver) : mask(choice.receiver)
}

/** The same day `years` later in the firm's zone (February 29 becomes March 1). */
function reportableFrom(since: number, years: number): number {
  const day = zonedDay(since, CSV_TIME_ZONE)
  return startOfZonedDay({ ...day, year: day.year + years }, CSV_TIME_ZONE)
}

function firmDate(at: number): string {
  const { year, month, day } = zonedDay(at, CSV_TIME_ZONE)
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}

/** Two-letter codes in order, no state ('') last. */
function byStateCode(a: { state: string }, b: { state: string }): number {
  if (a.state === b.state) return 0
  if (a.state === '') return 1
  if (b.state === '') return -1
  return a.state < b.state ? -1 : 1
}
