import { expect } from 'vitest'
import type { CreatedIntake } from '../../../src/api/claims.ts'
import type { Attribution } from '../../../src/attribution.ts'
import type { FormSignals } from '../../../src/form-signals.ts'
import { clearFraud } from '../../../server/review/clear-fraud.ts'
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
    // exchanges 200 to 999, lines 0000 to 9999: valid and different for millions of claimants
    phoneNumber: `(602) ${200 + (Math.floor(seq / 10_000) % 800)}-${String(seq % 10_000).padStart(4, '0')}`,
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

/** What a person's browser sends with the form: its own device, a pace a person keeps, fields typed. */
export function humanSignals(device: string): FormSignals {
  return { device, elapsedMs: 95_000, pasted: [], typed: ['firstName', 'email'] }
}

/**
 * A Step 2 claim sent as the form sends it (its request builder), from `address`, with the form's
 * signals; gives its id.
 */
export async function fileAsForm(
  ctx: Pick<TestContext, 'app'>,
  who: ReturnType<typeof person>,
  {
    signals,
    address,
    app = 'brigit',
    attribution,
  }: { signals: FormSignals; address: string; app?: string; attribution?: Attribution },
): Promise<number> {
  const res = await sendClaimAsForm(
    ctx.app,
    {
      slug: app,
      data: makeClaimData({
        firstName: who.firstName,
        lastName: who.lastName,
        email: who.email,
        phoneNumber: who.phoneNumber,
      }),
      agreementDate: new Date().toISOString().slice(0, 10),
      signing: { method: 'drawn' },
      locale: 'en',
      signals,
      attribution,
    },
    PHONE_SCREENSHOT,
  ).set('X-Forwarded-For', address)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return Number(res.body.id)
}

/**
 * Ten people's names, none like another (a ring files under unrelated names; names alike would also
 * read as one person filing twice, name_near_duplicate).
 */
export const RING_NAMES = [
  ['Olivia', 'Bennett'],
  ['Marcus', 'Hale'],
  ['Priya', 'Raman'],
  ['Tomasz', 'Nowak'],
  ['Grace', 'Okafor'],
  ['Luis', 'Serrano'],
  ['Hannah', 'Whitfield'],
  ['Kenji', 'Mori'],
  ['Fatima', 'Haddad'],
  ['Dmitri', 'Volkov'],
] as const

/**
 * Ten claimants filing from one browser under different names, each from a network of its own (a ring
 * on one device): each is held once scored (scoreAll).
 */
export async function fileDeviceRing(
  ctx: Pick<TestContext, 'app'>,
  {
    device,
    app = 'brigit',
    size = 10,
    attribution,
  }: { device: string; app?: string; size?: number; attribution?: Attribution },
): Promise<number[]> {
  const ring: number[] = []
  for (let i = 0; i < size; i++) {
    const [first, last] = RING_NAMES[i % RING_NAMES.length]!
    const who = person(first, last)
    ring.push(
      await fileAsForm(ctx, who, {
        signals: humanSignals(device),
        address: `198.51.${100 + i}.${10 + (seq % 200)}`,
        app,
        attribution,
      }),
    )
  }
  return ring
}

/** Scores what is due until nothing is (a ring's earlier claims are scored again as it grows). */
export async function scoreAll(ctx: Pick<TestContext, 'fraudScores'>): Promise<void> {
  for (let round = 0; round < 5; round++) await ctx.fraudScores.runDue()
}

/**
 * A decider's "Not fraud" on a claim, through the dashboard's own clearance (clearFraud): the sealed
 * 'fraud_cleared' audit entry and, in its transaction, the claim's fraud_cleared_at and its fraud_scores
 * row's cleared_* columns naming that entry.
 */
export async function clearOfFraud(
  ctx: Pick<TestContext, 'db' | 'evidenceKey'>,
  { claimId, note, by = ADMIN_EMAIL }: { claimId: number; note: string; by?: string },
): Promise<{ auditId: number; clearedAt: number; score: number }> {
  const claim = await ctx.db
    .selectFrom('claims')
    .select('app')
    .where('id', '=', claimId)
    .executeTakeFirstOrThrow()
  const account = await ctx.db
    .selectFrom('staff_accounts')
    .select('id')
    .where('email', '=', by)
    .executeTakeFirstOrThrow()
  await clearFraud({
    db: ctx.db,
    evidenceKey: ctx.evidenceKey,
    claim: { id: claimId, app: claim.app },
    body: { note },
    reviewer: { clientAddress: '127.0.0.1', accountId: Number(account.id), actor: by, mayDecide: () => true },
  })
  const row = await ctx.db
    .selectFrom('claims')
    .innerJoin('fraud_scores', 'fraud_scores.claim_id', 'claims.id')
    .select(['claims.fraud_cleared_at', 'fraud_scores.cleared_score', 'fraud_scores.cleared_audit_id'])
    .where('claims.id', '=', claimId)
    .executeTakeFirstOrThrow()
  return {
    auditId: Number(row.cleared_audit_id),
    clearedAt: Number(row.fraud_cleared_at),
    score: Number(row.cleared_score),
  }
}
