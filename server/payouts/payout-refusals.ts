import type { Transaction } from 'kysely'
import { AppError, type FieldErrors } from '../../src/app-error.ts'
import { PAYOUT_LOCKED_MESSAGE } from '../../src/api/claimant-payouts.ts'
import type { PayoutFieldErrors } from '../../src/payout-details.ts'
import type { Translator } from '../../src/translate.ts'
import type { Database } from '../db/database.ts'
import { lockAppPayouts } from './payout-lock.ts'

/** A claimant's form refused as the claim form is: 422, every message keyed by its field. */
export function fieldRefusal(errors: PayoutFieldErrors): AppError {
  const fields: FieldErrors = {}
  for (const [field, messages] of Object.entries(errors)) fields[field] = { __errors: messages }
  return new AppError('VALIDATION_FAILED', {
    status: 422,
    message: Object.values(errors).flat().join(' '),
    fields,
  })
}

/**
 * Refuses (409) a change to a claim's payment choice or W-9 once a payout batch holds an item for it:
 * the batch was built, and may be approved and sent, with the ones on file then. A build of the app
 * under way is waited for (lockAppPayouts), so this is the first thing the change's transaction does.
 */
export async function assertPayoutOpen(
  trx: Transaction<Database>,
  { app, claimId, t }: { app: string; claimId: number; t: Translator },
): Promise<void> {
  await lockAppPayouts(trx, app)
  const item = await trx
    .selectFrom('payout_items')
    .select('id')
    .where('claim_id', '=', claimId)
    .limit(1)
    .executeTakeFirst()
  if (item) throw new AppError('CONFLICT', { status: 409, message: t(PAYOUT_LOCKED_MESSAGE) })
}
