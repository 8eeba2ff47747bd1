import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  fingerprintScreenshot,
  type ScreenshotFingerprint,
} from '../../../server/duplicates/screenshot-fingerprint.ts'
import { findMatches, recordCheck } from '../../../server/duplicates/screenshot-matches.repository.ts'
import { copiesOf, renderBankStatements } from '../support/bank-app-corpus.ts'
import { createTestContext, DIALECTS, insertClaim, type TestContext } from '../support/helpers.ts'

// statements of one bank layout whose coarse hashes are as near as a copy's (8 to 12 bits apart, in
// npm run bench:duplicate-corpus), and two more to copy
const LOOKALIKES = [1, 25, 16, 6, 8, 18, 13, 24]
const COPIED = [1, 13]

let statements: Map<number, ScreenshotFingerprint>
let copies: { seed: number; how: string; fingerprint: ScreenshotFingerprint }[]

beforeAll(async () => {
  const shots = await renderBankStatements({ seeds: LOOKALIKES })
  statements = new Map(LOOKALIKES.map((seed, at) => [seed, fingerprintScreenshot(shots[at]!)]))
  copies = COPIED.flatMap((seed) =>
    copiesOf(shots[LOOKALIKES.indexOf(seed)]!).map(({ how, bytes }) => ({
      seed,
      how,
      fingerprint: fingerprintScreenshot(bytes),
    })),
  )
}, 120_000)

for (const dialect of DIALECTS) {
  describe(`${dialect}: bank statements rendered by Chromium from one app's layout`, () => {
    let ctx: TestContext
    const claimOf = new Map<number, number>()
    let seq = 0

    async function insertClaimRow() {
      seq += 1
      const row = {
        app: 'brigit',
        created_at: new Date().toISOString(),
        first_name: 'Corpus',
        last_name: 'Claimant',
        email: `corpus${seq}@mail.test`,
        phone_number: `(646) 555-${String(seq).padStart(4, '0')}`,
        cash_advance_count: 1,
        membership_months: 2,
        screenshot_key: 'brigit-screenshots/corpus.png',
        screenshot_type: 'image/png',
      }
      const { id } = await insertClaim(ctx.db, row)
      return {
        id,
        screenshotKey: row.screenshot_key,
        screenshotSha256: '',
        phoneNumber: row.phone_number,
        email: row.email,
      }
    }

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      for (const [seed, fingerprint] of statements) {
        const claim = await insertClaimRow()
        const matches = await findMatches(ctx.db, { claim, fingerprint })
        await recordCheck(ctx.db, { claimId: claim.id, fingerprint, matches })
        claimOf.set(seed, claim.id)
      }
    })
    afterAll(async () => {
      await ctx?.close()
    })

    it('flags none of the different statements', async () => {
      const flagged = await ctx.db
        .selectFrom('screenshot_matches')
        .select(['claim_id', 'other_claim_id'])
        .execute()
      expect(flagged).toEqual([])
    })

    it('flags each copy (the same file, re-encoded, resized, status bar cropped) with its original only', async () => {
      const found = []
      for (const { seed, how, fingerprint } of copies) {
        const matches = await findMatches(ctx.db, { claim: await insertClaimRow(), fingerprint })
        found.push({ how, others: matches.map((match) => match.otherClaimId), original: claimOf.get(seed) })
      }
      expect(found.map(({ how, others }) => ({ how, others }))).toEqual(
        found.map(({ how, original }) => ({ how, others: [original] })),
      )
    })
  })
}
