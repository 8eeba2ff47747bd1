import type { Kysely } from 'kysely'
import type { Database, PayoutMethod } from '../server/db/database.ts'
import { chunks } from '../server/db/id-chunks.ts'
import { ACCOUNT_NUMBER_PURPOSE } from '../server/payouts/payout-files.ts'
import { sealNumber } from '../server/payouts/sealed-numbers.ts'

/** A seeded claimant's award and how they chose to be paid, as the bench gives them. */
export interface BenchPayee {
  claimId: number
  caseNumber: string
  grossCents: number
  method: PayoutMethod
  hasTaxForm: boolean
}

/**
 * The spread, by a claimant's place in the list: in each 20, 8 PayPal (40 %), 4 Venmo (20 %),
 * 5 ACH (25 %) and 3 checks (15 %); one in 10 without a W-9, so backup withholding is in every run.
 */
export function payeeOf(claimId: number, index: number): BenchPayee {
  const slot = index % 20
  const method: PayoutMethod = slot < 8 ? 'paypal' : slot < 12 ? 'venmo' : slot < 17 ? 'ach' : 'check'
  return {
    claimId,
    caseNumber: `BENCH-${claimId}`,
    // $500.00 to $4,999.99, spread so that the fee and the withholding round both ways
    grossCents: 50_000 + ((index * 7_919) % 450_000),
    method,
    hasTaxForm: index % 10 !== 3,
  }
}

/**
 * Makes the app's seeded claims filed, each with a case number the award file names, and writes each
 * claimant's payment choice and W-9 as the claimant's routes store them (numbers sealed under the
 * payments key). Gives the payees in claim order.
 */
export async function preparePayees({
  db,
  app,
  paymentsKey,
}: {
  db: Kysely<Database>
  app: string
  paymentsKey: Buffer
}): Promise<BenchPayee[]> {
  const ids = (await db.selectFrom('claims').select('id').where('app', '=', app).orderBy('id').execute()).map(
    (row) => Number(row.id),
  )
  const payees = ids.map((id, index) => payeeOf(id, index))
  const now = Date.now()
  await db.transaction().execute(async (trx) => {
    for (const payee of payees) {
      // a claim is filed once its provider gave it a case number; the filing itself is bench:filing's
      await trx
        .updateTable('claims')
        .set({ review_status: 'filed', case_number: payee.caseNumber })
        .where('id', '=', payee.claimId)
        .execute()
    }
    for (const part of chunks(payees, 200)) {
      await trx
        .insertInto('payout_choices')
        .values(part.map((payee) => choiceRow(payee, { paymentsKey, now })))
        .execute()
      const w9s = part.filter((payee) => payee.hasTaxForm)
      if (w9s.length === 0) continue
      await trx
        .insertInto('tax_forms')
        .values(
          w9s.map((payee) => ({
            claim_id: payee.claimId,
            legal_name: `Payee ${payee.claimId}`,
            tin_type: 'ssn' as const,
            tin_sealed: sealNumber({ key: paymentsKey, value: ssnOf(payee.claimId), purpose: 'tin' }),
            tin_last4: ssnOf(payee.claimId).slice(-4),
            address: '12 Main St',
            city: 'Fresno',
            state: 'CA',
            zip_code: '93701',
            signature_method: 'typed' as const,
            signature: `Payee ${payee.claimId}`,
            certified_at: now,
            ip_address: '127.0.0.1',
            user_agent: 'bench',
          })),
        )
        .execute()
    }
  })
  return payees
}

function choiceRow(payee: BenchPayee, { paymentsKey, now }: { paymentsKey: Buffer; now: number }) {
  const id = payee.claimId
  const account = String(4_000_000_000 + id)
  return {
    claim_id: id,
    method: payee.method,
    receiver:
      payee.method === 'paypal'
        ? `payee.${id}@mail.test`
        : payee.method === 'venmo'
          ? `+1 408 ${String(id % 1000).padStart(3, '0')} ${String(id % 10_000).padStart(4, '0')}`
          : null,
    receiver_type:
      payee.method === 'paypal' ? ('email' as const) : payee.method === 'venmo' ? ('phone' as const) : null,
    routing_number: payee.method === 'ach' ? '011000015' : null,
    account_sealed:
      payee.method === 'ach'
        ? sealNumber({ key: paymentsKey, value: account, purpose: ACCOUNT_NUMBER_PURPOSE })
        : null,
    account_last4: payee.method === 'ach' ? account.slice(-4) : null,
    account_type: payee.method === 'ach' ? ('checking' as const) : null,
    chosen_at: now,
  }
}

/** An SSN of the valid form (area 001–665, group and serial not 0) for a claim. */
function ssnOf(claimId: number): string {
  const area = String(100 + (claimId % 500)).padStart(3, '0')
  const group = String(10 + (claimId % 89)).padStart(2, '0')
  const serial = String(1000 + (claimId % 8999)).padStart(4, '0')
  return `${area}-${group}-${serial}`
}

/** The award file a provider sends: a case number and an award a line. */
export function awardCsv(payees: readonly BenchPayee[]): string {
  const dollars = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`
  return [
    'Case Number,Award',
    ...payees.map((payee) => `${payee.caseNumber},${dollars(payee.grossCents)}`),
  ].join('\n')
}
