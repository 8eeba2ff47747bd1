import { writeAuditEntry } from '../audit/audit-log.ts'
import type { Kysely } from 'kysely'
import { CHECK_ADDRESS_MESSAGE } from '../../src/api/claimant-payouts.ts'
import { checkPayoutChoice, mask, type PayoutChoice } from '../../src/payout-details.ts'
import { phoneDigits } from '../../src/phone.ts'
import type { Translator } from '../../src/translate.ts'
import type { Database, PayoutChoicesTable } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { assertPayoutOpen, fieldRefusal } from './payout-refusals.ts'
import { sealNumber } from './sealed-numbers.ts'

/**
 * Stores how the claimant wants a claim's award paid, replacing an earlier choice:
 * 1. check the fields the method needs (checkPayoutChoice), and that a check has a confirmed address;
 * 2. seal the bank account number (only its last digits stay readable, for the page and staff);
 * 3. in one transaction, refuse once a batch holds the claim, then write the choice.
 */
export async function savePayoutChoice({
  db,
  paymentsKey,
  claimId,
  input,
  hasCheckAddress,
  audit,
  t,
  now = Date.now(),
}: {
  db: Kysely<Database>
  paymentsKey: Buffer
  claimId: number
  input: Partial<Record<keyof PayoutChoice, unknown>>
  /** Whether the claim has a confirmed mailing address (claimant-payout.ts checkAddresses). */
  hasCheckAddress: boolean
  /** The claim's app, where the claimant wrote from, and the evidence key the audit entry is sealed with. */
  audit: ClaimantAudit
  t: Translator
  now?: number
}): Promise<void> {
  const errors = checkPayoutChoice(input, t)
  if (input.method === 'check' && !hasCheckAddress) errors.method = [t(CHECK_ADDRESS_MESSAGE)]
  if (Object.keys(errors).length > 0) throw fieldRefusal(errors)
  const row = choiceRow({ input: input as PayoutChoice, paymentsKey, claimId, now })
  await retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      await assertPayoutOpen(trx, { app: audit.app, claimId, t })
      const { claim_id: _key, ...changes } = row
      await trx
        .insertInto('payout_choices')
        .values(row)
        .onConflict((conflict) => conflict.column('claim_id').doUpdateSet(changes))
        .execute()
      // the method only: the receiver and account stay out of the audit log
      await writeAuditEntry(trx, audit.evidenceKey, {
        clientAddress: audit.clientAddress,
        actor: 'claimant',
        app: audit.app,
        action: 'payout_choice_saved',
        detail: `claim ${claimId}: paid by ${row.method}`,
      })
    }),
  )
}

/** What the audit entry of a claimant's payout step names, and the key it is sealed with. */
export interface ClaimantAudit {
  evidenceKey: Buffer
  clientAddress: string
  app: string
}

/** The row of a checked choice: only the columns its method uses, the rest null. */
function choiceRow({
  input,
  paymentsKey,
  claimId,
  now,
}: {
  input: PayoutChoice
  paymentsKey: Buffer
  claimId: number
  now: number
}): PayoutChoicesTable {
  const row: PayoutChoicesTable = {
    claim_id: claimId,
    method: input.method,
    receiver: null,
    receiver_type: null,
    routing_number: null,
    account_sealed: null,
    account_last4: null,
    account_type: null,
    chosen_at: now,
  }
  if (input.method === 'paypal' || input.method === 'venmo') {
    const email = input.email?.trim() ?? ''
    return email === ''
      ? { ...row, receiver: phoneDigits(input.phone ?? ''), receiver_type: 'phone' }
      : { ...row, receiver: email.toLowerCase(), receiver_type: 'email' }
  }
  if (input.method === 'ach') {
    const account = (input.accountNumber ?? '').replace(/\s/g, '')
    return {
      ...row,
      routing_number: (input.routingNumber ?? '').replace(/\s/g, ''),
      account_sealed: sealNumber({ key: paymentsKey, value: account, purpose: 'accountNumber' }),
      // what mask() shows of it: a short account number is never kept whole
      account_last4: mask(account).replace('••••', ''),
      account_type: input.accountType ?? 'checking',
    }
  }
  return row
}
