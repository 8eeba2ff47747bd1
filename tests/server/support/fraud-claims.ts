import { expect } from 'vitest'
import type { Attribution } from '../../../src/attribution.ts'
import type { FormSignals } from '../../../src/form-signals.ts'
import { makeClaimData, makePng } from './claim-fixtures.ts'
import { sendClaimAsForm } from './client-requests.ts'
import type { TestContext } from './helpers.ts'

/** A phone screenshot's shape (390 × 844 points at 1×), so no claim here deducts for the picture's size. */
const PHONE_SCREENSHOT = { content: makePng({ width: 390, height: 844 }), name: 'statement.png' }

let seq = 0

/** A claimant of their own: names, e-mail and phone no other claimant has. */
export function person(first: string, last: string) {
  seq += 1
  return {
    firstName: first,
    lastName: last,
    email: `${first}.${last}.${seq}@mail.test`.toLowerCase(),
    phoneNumber: `(602) 8${String(seq % 100).padStart(2, '0')}-${String(1000 + seq).slice(-4)}`,
  }
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
      data: makeClaimData(who),
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
    const who = person(`Ring${String.fromCharCode(65 + i)}`, `Member${String.fromCharCode(75 + i)}`)
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

/** Scores what is due until nothing is: a ring's earlier claims are scored again as it grows. */
export async function scoreAll(ctx: Pick<TestContext, 'fraudScores'>): Promise<void> {
  for (let round = 0; round < 5; round++) await ctx.fraudScores.runDue()
}
