import { writeAuditEntry } from '../audit/audit-log.ts'
import type { ClaimantAudit } from './save-payout-choice.ts'
import type { Kysely } from 'kysely'
import { checkW9, plainTin, type W9Details } from '../../src/payout-details.ts'
import type { Translator } from '../../src/translate.ts'
import type { Database, TaxFormsTable } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import type { SignerInfo } from '../platform/signer.ts'
import { assertPayoutOpen, fieldRefusal } from './payout-refusals.ts'
import { readPayoutSignature } from './payout-signature.ts'
import { sealNumber } from './sealed-numbers.ts'
import { recordTaxForm } from './tax-form-seal.ts'

/**
 * Stores the claimant's W-9 for a claim, replacing an earlier one:
 * 1. check its fields (checkW9) and its signature, every problem in one 422;
 * 2. seal the taxpayer number as the W-9 writes it; only its last four stay readable;
 * 3. in one transaction, refuse once a batch holds the claim (its withholding was reckoned with the
 *    W-9 then on file), then write the form with when, from where and how it was signed, sealed on the
 *    evidence chain (recordTaxForm), and the audit entry.
 */
export async function saveTaxForm({
  db,
  paymentsKey,
  claimId,
  input,
  signer,
  audit,
  t,
  now = Date.now(),
}: {
  db: Kysely<Database>
  paymentsKey: Buffer
  claimId: number
  input: Partial<Record<keyof W9Details | 'signatureMethod' | 'typedSignature' | 'signature', unknown>>
  signer: SignerInfo
  audit: ClaimantAudit
  t: Translator
  now?: number
}): Promise<void> {
  const { signing, errors: signatureErrors } = readPayoutSignature(input, t)
  const errors = { ...checkW9(input, t), ...signatureErrors }
  if (!signing || Object.keys(errors).length > 0) throw fieldRefusal(errors)
  const w9 = input as W9Details
  const tin = plainTin(w9.tinType, w9.tin)!
  const line2 = w9.addressLine2?.trim() ?? ''
  const row: TaxFormsTable = {
    claim_id: claimId,
    legal_name: w9.legalName.trim(),
    tin_type: w9.tinType,
    tin_sealed: sealNumber({ key: paymentsKey, value: tin, purpose: 'tin' }),
    tin_last4: tin.slice(-4),
    // the table keeps one address column: the second line, when there is one, on a line of its own
    address: line2 === '' ? w9.addressLine1.trim() : `${w9.addressLine1.trim()}\n${line2}`,
    city: w9.city.trim(),
    state: w9.state.trim().toUpperCase(),
    zip_code: w9.zip.trim(),
    signature_method: signing.method,
    signature: signing.signature,
    certified_at: now,
    ip_address: signer.ipAddress,
    user_agent: signer.userAgent,
  }
  await retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      await assertPayoutOpen(trx, { app: audit.app, claimId, t })
      await recordTaxForm(trx, audit.evidenceKey, row)
      // the kind of number only: the taxpayer number stays out of the audit log
      await writeAuditEntry(trx, audit.evidenceKey, {
        clientAddress: audit.clientAddress,
        actor: 'claimant',
        app: audit.app,
        action: 'tax_form_filed',
        detail: `claim ${claimId}: W-9 certified (${row.tin_type.toUpperCase()})`,
      })
    }),
  )
}
