import type { PayoutMethod } from '../../../server/db/database.ts'
import { ACCOUNT_NUMBER_PURPOSE } from '../../../server/payouts/payout-files.ts'
import { sealNumber } from '../../../server/payouts/sealed-numbers.ts'
import { recordTaxForm } from '../../../server/payouts/tax-form-seal.ts'
import { recordTrustEntries } from '../../../server/payouts/trust-ledger.ts'
import type { TestContext } from './helpers.ts'
import { signInNewAccount } from './staff-sign-in.ts'

/** How the claimant chose to be paid, numbers in the clear (sealed here as the claimant's API seals them). */
export interface TestPayoutChoice {
  method: PayoutMethod
  receiver?: string
  receiverType?: 'email' | 'phone'
  routingNumber?: string
  accountNumber?: string
  accountType?: 'checking' | 'savings'
}

/** A W-9 as the claimant certified it, the TIN in the clear. */
export interface TestTaxForm {
  legalName: string
  tinType: 'ssn' | 'ein'
  tin: string
  address: string
  city: string
  state: string
  zip: string
}

/**
 * Puts a filed claim in the state "awarded with a choice" by writing the rows the award import and the
 * claimant's payment choice write: the award (and its money received into trust, sealed), the payment
 * choice with the account number sealed under the payments key, and the W-9 with its TIN sealed, the
 * form sealed on the evidence chain as the claimant's page seals it (or none: backup withholding).
 */
export async function awardClaim(
  ctx: Pick<TestContext, 'db' | 'evidenceKey' | 'paymentsKey'>,
  {
    claimId,
    app,
    grossCents,
    choice,
    taxForm,
    now = Date.now(),
  }: {
    claimId: number
    app: string
    grossCents: number
    choice: TestPayoutChoice
    taxForm: TestTaxForm | null
    now?: number
  },
): Promise<void> {
  const key = ctx.paymentsKey
  const last4 = (value: string) => value.replace(/\D/g, '').slice(-4)
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('claim_awards')
      .values({
        claim_id: claimId,
        app,
        gross_cents: grossCents,
        source: 'entered',
        settlement_id: null,
        set_at: now,
        set_by: 'admin@firm.test',
      })
      .execute()
    await recordTrustEntries(trx, ctx.evidenceKey, [
      { app, batch_id: null, claim_id: claimId, kind: 'received', amount_cents: grossCents, at: now },
    ])
    await trx
      .insertInto('payout_choices')
      .values({
        claim_id: claimId,
        method: choice.method,
        receiver: choice.receiver ?? null,
        receiver_type: choice.receiverType ?? null,
        routing_number: choice.routingNumber ?? null,
        account_sealed: choice.accountNumber
          ? sealNumber({ key, value: choice.accountNumber, purpose: ACCOUNT_NUMBER_PURPOSE })
          : null,
        account_last4: choice.accountNumber ? last4(choice.accountNumber) : null,
        account_type: choice.accountType ?? null,
        chosen_at: now,
      })
      .execute()
    if (taxForm) {
      await recordTaxForm(trx, ctx.evidenceKey, {
        claim_id: claimId,
        legal_name: taxForm.legalName,
        tin_type: taxForm.tinType,
        tin_sealed: sealNumber({ key, value: taxForm.tin, purpose: 'tin' }),
        tin_last4: last4(taxForm.tin),
        address: taxForm.address,
        city: taxForm.city,
        state: taxForm.state,
        zip_code: taxForm.zip,
        signature_method: 'typed',
        signature: taxForm.legalName,
        certified_at: now,
        ip_address: '127.0.0.1',
        user_agent: 'test',
      })
    }
  })
}

/**
 * Two staff accounts with the app's payments right, signed in: the maker who builds a payout batch and
 * the checker who approves it (the same account never may). Resolves to their session cookies.
 */
export async function signInMakerAndChecker(
  ctx: Pick<TestContext, 'db' | 'app'>,
  { site, app }: { site: string; app: string },
): Promise<{ maker: string; checker: string }> {
  const apps = [{ app, canExport: false, canPay: true }]
  const maker = await signInNewAccount(ctx, site, {
    email: 'maker@firm.test',
    password: 'maker password 12',
    name: 'Mae Maker',
    role: 'staff',
    apps,
  })
  const checker = await signInNewAccount(ctx, site, {
    email: 'checker@firm.test',
    password: 'checker password 12',
    name: 'Cy Checker',
    role: 'staff',
    apps,
  })
  return { maker, checker }
}
