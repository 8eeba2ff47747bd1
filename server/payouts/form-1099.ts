import type { Kysely } from 'kysely'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'
import { plainTin } from '../../src/payout-details.ts'
import type { PayoutsConfig } from '../../src/payouts-config.ts'
import { startOfZonedDay } from '../../src/zoned-day.ts'
import type { Database } from '../db/database.ts'
import { csvRecord, UTF8_BOM } from '../platform/csv.ts'
import { CSV_TIME_ZONE } from '../platform/csv-time.ts'
import { decimalAmount } from './providers/decimal-amount.ts'
import { openNumber } from './sealed-numbers.ts'
import { readPayees, type Payee } from './year-end.ts'

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
  'Claim IDs',
] as const

export const NO_W9_NOTE = 'No W-9 on file: backup withholding applied; ask the payee for a W-9 before filing'

/** One payee of the year: one taxpayer number (or, without a W-9, one claim) and what they were paid. */
interface Recipient {
  payee: Payee
  /** The full taxpayer number; '' without a W-9. */
  tin: string
  claimIds: number[]
  netCents: number
  withheldCents: number
}

/**
 * The year's 1099 data file for the firm, as CSV text (UTF-8 with a byte-order mark): one record per
 * payee, a payee being one taxpayer number (its type and digits) over all their claims of every app,
 * paid in the calendar `year` of the firm's zone (payout items marked paid then). A payee is listed when
 * their reportable amount (net plus withholding: what went to them or to the IRS for them) reaches the
 * threshold, and whatever its amount when any of it was withheld, as the IRS asks. A claim without a W-9
 * has no number to group by: it is a payee of its own, with an empty TIN and a note. The latest
 * certified W-9 of a number names the payee and their address. The taxpayer numbers are opened here to
 * be compared and written into the file, the one place a full TIN leaves the server.
 */
export async function form1099File({
  db,
  year,
  config,
  paymentsKey,
}: {
  db: Kysely<Database>
  year: number
  config: Pick<PayoutsConfig, 'form1099ThresholdCents'>
  paymentsKey: Buffer
}): Promise<{ csv: string; rows: number }> {
  const from = startOfZonedDay({ year, month: 1, day: 1 }, CSV_TIME_ZONE)
  const to = startOfZonedDay({ year: year + 1, month: 1, day: 1 }, CSV_TIME_ZONE)
  const paid = await db
    .selectFrom('payout_items as item')
    .innerJoin('payout_batches as batch', 'batch.id', 'item.batch_id')
    .select((eb) => [
      'item.claim_id',
      'batch.app',
      eb.fn.sum<number | string>('item.net_cents').as('net'),
      eb.fn.sum<number | string>('item.withholding_cents').as('withheld'),
    ])
    .where('item.status', '=', 'paid')
    .where('item.updated_at', '>=', from)
    .where('item.updated_at', '<', to)
    .groupBy(['item.claim_id', 'batch.app'])
    .orderBy('item.claim_id')
    .execute()
  const payees = await payeesOf(
    db,
    paid.map((row) => ({ claimId: Number(row.claim_id), app: row.app })),
  )
  const recipients = new Map<string, Recipient>()
  for (const row of paid) {
    const claimId = Number(row.claim_id)
    const payee = payees.get(claimId)!
    const opened = payee.tax
      ? openNumber({ key: paymentsKey, sealed: payee.tax.tinSealed, purpose: 'tin' })
      : ''
    // written as the W-9 asks, and compared by its kind and its nine digits however it was typed
    const tin = payee.tax ? (plainTin(payee.tax.tinType, opened) ?? opened) : ''
    const key = payee.tax ? `${payee.tax.tinType}:${tin.replace(/\D/g, '')}` : `claim:${claimId}`
    const recipient = recipients.get(key) ?? { payee, tin, claimIds: [], netCents: 0, withheldCents: 0 }
    if (isNewerW9(payee, recipient.payee)) {
      recipient.payee = payee
      recipient.tin = tin
    }
    recipient.claimIds.push(claimId)
    recipient.netCents += Number(row.net)
    recipient.withheldCents += Number(row.withheld)
    recipients.set(key, recipient)
  }
  const reported = [...recipients.values()]
    .filter(
      ({ netCents, withheldCents }) =>
        netCents + withheldCents >= config.form1099ThresholdCents || withheldCents > 0,
    )
    .sort((a, b) => a.claimIds[0]! - b.claimIds[0]!)
  let csv = UTF8_BOM + csvRecord(FORM_1099_HEADER)
  for (const { payee, tin, claimIds, netCents, withheldCents } of reported) {
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
      // one form per payee: the first of their claims tells it apart, the last column lists them all
      String(claimIds[0]),
      decimalAmount(netCents + withheldCents),
      decimalAmount(withheldCents),
      payee.tax ? '' : NO_W9_NOTE,
      claimIds.join(' '),
    ])
  }
  return { csv, rows: reported.length }
}

/** Each paid claim's payee, read app by app (a claim's address is its app's). */
async function payeesOf(
  db: Kysely<Database>,
  claims: readonly { claimId: number; app: string }[],
): Promise<Map<number, Payee>> {
  const byApp = new Map<string, number[]>()
  for (const { claimId, app } of claims) {
    const ids = byApp.get(app) ?? []
    ids.push(claimId)
    byApp.set(app, ids)
  }
  const payees = new Map<number, Payee>()
  for (const [app, ids] of byApp) {
    for (const [claimId, payee] of await readPayees(db, app, ids)) payees.set(claimId, payee)
  }
  return payees
}

function isNewerW9(candidate: Payee, current: Payee): boolean {
  return (
    candidate.tax !== undefined &&
    current.tax !== undefined &&
    candidate.tax.certifiedAt > current.tax.certifiedAt
  )
}
