import { sql, type Kysely } from 'kysely'
import type { UnclaimedFunds, UnclaimedState } from '../../src/api/payouts-year-end.ts'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'
import { mask, maskEmail } from '../../src/payout-details.ts'
import type { PayoutsConfig } from '../../src/payouts-config.ts'
import { startOfZonedDay, zonedDay } from '../../src/zoned-day.ts'
import { DAY_MS } from '../../src/durations.ts'
import type { Database, PayoutItemStatus } from '../db/database.ts'
import { chunks, readBatchClaims } from '../filing/batch-claims.ts'
import { csvRecord, UTF8_BOM } from '../platform/csv.ts'
import { CSV_TIME_ZONE } from '../platform/csv-time.ts'
import { decimalAmount } from './providers/decimal-amount.ts'
import { openNumber } from './sealed-numbers.ts'

/** The columns a firm's 1099 software maps on import: payer, recipient, boxes 3 and 4 of a 1099-MISC. */
export const FORM_1099_HEADER = [
  'Payer Name',
  'Payer Address',
  'Recipient TIN Type',
  'Recipient TIN',
  'Recipient Name',
  'Recipient Address',
  'Recipient Address Line 2',
  'Recipient City',
  'Recipient State',
  'Recipient ZIP',
  'Account Number',
  'Box 3 Other Income',
  'Box 4 Federal Income Tax Withheld',
  'Note',
] as const

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

export const NO_W9_NOTE = 'No W-9 on file: backup withholding applied; ask the payee for a W-9 before filing'

/** A payee as the year-end files name them: the W-9's legal name and address, else the claim's. */
interface Payee {
  name: string
  street: string
  addressLine2: string
  city: string
  state: string
  zip: string
  tax: { tinType: 'ssn' | 'ein'; tinSealed: string } | undefined
}

/**
 * The year's 1099 data file for an app, as CSV text (UTF-8 with a byte-order mark): one record per
 * claim paid in the calendar `year` of the firm's zone (its payout items marked paid then) whose
 * reportable amount (net plus withholding: what went to the claimant or to the IRS for them) reaches
 * the threshold, and every claim with backup withholding whatever its amount, as the IRS asks. The
 * taxpayer number is opened here, the one place a full TIN leaves the server; a payee without a W-9
 * has an empty TIN and a note.
 */
export async function form1099File({
  db,
  app,
  year,
  config,
  paymentsKey,
}: {
  db: Kysely<Database>
  app: string
  year: number
  config: Pick<PayoutsConfig, 'form1099ThresholdCents'>
  paymentsKey: Buffer
}): Promise<{ csv: string; rows: number }> {
  const from = startOfZonedDay({ year, month: 1, day: 1 }, CSV_TIME_ZONE)
  const to = startOfZonedDay({ year: year + 1, month: 1, day: 1 }, CSV_TIME_ZONE)
  const paid = (
    await db
      .selectFrom('payout_items as item')
      .innerJoin('payout_batches as batch', 'batch.id', 'item.batch_id')
      .select((eb) => [
        'item.claim_id',
        eb.fn.sum<number | string>('item.net_cents').as('net'),
        eb.fn.sum<number | string>('item.withholding_cents').as('withheld'),
      ])
      .where('batch.app', '=', app)
      .where('item.status', '=', 'paid')
      .where('item.updated_at', '>=', from)
      .where('item.updated_at', '<', to)
      .groupBy('item.claim_id')
      .orderBy('item.claim_id')
      .execute()
  )
    .map((row) => ({ claimId: Number(row.claim_id), net: Number(row.net), withheld: Number(row.withheld) }))
    .filter(({ net, withheld }) => net + withheld >= config.form1099ThresholdCents || withheld > 0)
  const payees = await readPayees(
    db,
    app,
    paid.map(({ claimId }) => claimId),
  )
  let csv = UTF8_BOM + csvRecord(FORM_1099_HEADER)
  for (const { claimId, net, withheld } of paid) {
    const payee = payees.get(claimId)!
    const tin = payee.tax ? openNumber({ key: paymentsKey, sealed: payee.tax.tinSealed, purpose: 'tin' }) : ''
    csv += csvRecord([
      FIRM_SETTINGS.firmName,
      FIRM_SETTINGS.postalAddress,
      payee.tax ? payee.tax.tinType.toUpperCase() : '',
      tin,
      payee.name,
      payee.street,
      payee.addressLine2,
      payee.city,
      payee.state,
      payee.zip,
      String(claimId),
      decimalAmount(net + withheld),
      decimalAmount(withheld),
      payee.tax ? '' : NO_W9_NOTE,
    ])
  }
  return { csv, rows: paid.length }
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
async function readPayees(
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
        tax: { tinType: form.tin_type, tinSealed: form.tin_sealed },
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
