import type { CreatedIntake } from '../../../src/api/claims.ts'
import type { FormSignals } from '../../../src/form-signals.ts'
import { writeAuditEntry } from '../../../server/audit/audit-log.ts'
import { FRAUD_CLEARED, fraudClearedDetail } from '../../../server/fraud/fraud-clearance.ts'
import { makeClaimData, makePng } from './claim-fixtures.ts'
import { sendClaimAsForm, sendIntakeAsForm } from './client-requests.ts'
import { ADMIN_EMAIL, type TestContext } from './helpers.ts'
import { makeIntakeData } from './malformed-intakes.ts'

/** A phone screenshot's shape, so no claim here deducts for the picture's size. */
const PHONE_SCREENSHOT = { content: makePng({ width: 390, height: 844 }), name: 'statement.png' }

/** A device id as the browser's storage keeps it. */
export const deviceId = (n: number) => `device-${String(n).padStart(16, '0')}`

let seq = 0
/** A person no other claim here uses: names, e-mail, phone and a street of their own. */
export function person(first: string, last: string) {
  seq += 1
  return {
    firstName: first,
    lastName: last,
    email: `${first}.${last}.${seq}@mail.test`.toLowerCase(),
    phoneNumber: `(602) 7${String(seq).padStart(2, '0')}-${String(1000 + seq).slice(-4)}`,
    street: `${100 + seq} Palm Lane`,
  }
}

/**
 * A claimant who files the main form (their address) and then the app's Step 2 through its link, both
 * as the forms send them, from `device` and the client address `from`: the claim prints the address.
 */
export async function fileClaimant(
  ctx: Pick<TestContext, 'app'>,
  { who, app, device, from }: { who: ReturnType<typeof person>; app: string; device: string; from: string },
): Promise<number> {
  const today = new Date().toISOString().slice(0, 10)
  const signals = (elapsedMs: number): FormSignals => ({
    device,
    elapsedMs,
    pasted: [],
    typed: ['firstName'],
  })
  const intake = await sendIntakeAsForm(ctx.app, {
    data: makeIntakeData({
      firstName: who.firstName,
      lastName: who.lastName,
      email: who.email,
      phone: who.phoneNumber.replace(/\D/g, ''),
      address: who.street,
      addressLine2: '',
      city: 'Phoenix',
      state: 'AZ',
      zipCode: '85003',
      cashAdvanceApps: [app],
    }),
    agreementDate: today,
    signing: { method: 'drawn' },
    locale: 'en',
    signals: signals(240_000),
  }).set('X-Forwarded-For', from)
  if (intake.status !== 201)
    throw new Error(`the intake answered ${intake.status}: ${JSON.stringify(intake.body)}`)
  const step = (intake.body as CreatedIntake).steps.find((candidate) => candidate.app === app)!
  const claim = await sendClaimAsForm(
    ctx.app,
    {
      slug: app,
      data: makeClaimData({
        firstName: who.firstName,
        lastName: who.lastName,
        email: who.email,
        phoneNumber: who.phoneNumber,
      }),
      agreementDate: today,
      signing: { method: 'drawn' },
      locale: 'en',
      journeyToken: step.path.split('#prefill=')[1],
      signals: signals(95_000),
    },
    PHONE_SCREENSHOT,
  ).set('X-Forwarded-For', from)
  if (claim.status !== 201)
    throw new Error(`the claim answered ${claim.status}: ${JSON.stringify(claim.body)}`)
  return Number(claim.body.id)
}

/** Scores what is due until nothing is (a ring's earlier claims are scored again as it grows). */
export async function scoreAll(ctx: Pick<TestContext, 'fraudScores'>): Promise<void> {
  for (let round = 0; round < 5; round++) await ctx.fraudScores.runDue()
}

/**
 * A decider's "Not fraud" on a claim, written as the dashboard's clearance writes it: the
 * 'fraud_cleared' audit entry (sealed on the ledger) and, in its transaction, the claim's
 * fraud_cleared_at and its fraud_scores row's cleared_* columns naming that entry.
 */
export async function clearOfFraud(
  ctx: Pick<TestContext, 'db' | 'evidenceKey'>,
  { claimId, note, by = ADMIN_EMAIL }: { claimId: number; note: string; by?: string },
): Promise<{ auditId: number; clearedAt: number; score: number }> {
  return ctx.db.transaction().execute(async (trx) => {
    const claim = await trx
      .selectFrom('claims')
      .select(['app', 'fraud_score'])
      .where('id', '=', claimId)
      .executeTakeFirstOrThrow()
    const score = Number(claim.fraud_score)
    const clearedAt = Date.now()
    const auditId = await writeAuditEntry(trx, ctx.evidenceKey, {
      clientAddress: '127.0.0.1',
      actor: by,
      app: claim.app,
      action: FRAUD_CLEARED,
      detail: fraudClearedDetail({ claimId, clearedAt, by, note, score }),
    })
    await trx.updateTable('claims').set({ fraud_cleared_at: clearedAt }).where('id', '=', claimId).execute()
    await trx
      .updateTable('fraud_scores')
      .set({ cleared_by: by, cleared_note: note, cleared_score: score, cleared_audit_id: auditId })
      .where('claim_id', '=', claimId)
      .execute()
    return { auditId, clearedAt, score }
  })
}
