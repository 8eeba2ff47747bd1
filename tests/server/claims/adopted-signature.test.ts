import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreatedIntake } from '../../../src/api/claims.ts'
import type { ErrorBody } from '../../../src/app-error.ts'
import { verifyEvidence } from '../../../server/ops/verify-evidence.ts'
import { sendClaimAsForm, sendIntakeAsForm } from '../support/client-requests.ts'
import { pngDataUrl } from '../support/claim-fixtures.ts'
import { createTestContext, DIALECTS, makeClaimData, makePng, type TestContext } from '../support/helpers.ts'
import { makeIntakeData } from '../support/malformed-intakes.ts'

// A two-app claimant signs the main form once and adopts that signature for each Step 2 agreement with
// one press: the request carries signatureMethod "adopted" and no image, and the server takes the image
// of the intake whose Step 2 link the claimant came by, only when the claim shares its e-mail or phone.

const today = () => new Date().toISOString().slice(0, 10)
/** The main form's signature, unlike any a claim carries, so the claim's can be traced to it. */
const MAIN_FORM_SIGNATURE = pngDataUrl(makePng({ width: 12, height: 5 }))

for (const dialect of DIALECTS) {
  describe(`${dialect}: a Step 2 claim adopts the main form's signature`, () => {
    let ctx: TestContext
    let intake: CreatedIntake
    const claimant = { email: 'adopter@mail.test', phone: '(808) 555-0177' }

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      const answer = await sendIntakeAsForm(ctx.app, {
        data: makeIntakeData({ ...claimant, signature: MAIN_FORM_SIGNATURE }),
        agreementDate: today(),
        signing: { method: 'drawn' },
        locale: 'en',
      }).expect(201)
      intake = answer.body as CreatedIntake
    })
    afterAll(async () => {
      await ctx?.close()
    })

    /** The token of the intake's own Step 2 link for `app`, as /thank-you gives it. */
    const linkToken = (app: string) =>
      intake.steps.find((step) => step.app === app)?.path.split('#prefill=')[1] ??
      ctx.journey.tokens.prefill({ intakeId: intake.id, app, expiresAt: Date.now() + 86_400_000 })
    /** A claim as the Step 2 form sends an adopted signature: no image in its answers. */
    const adopt = (
      app: string,
      {
        journeyToken,
        email = claimant.email,
        phoneNumber = claimant.phone,
      }: {
        journeyToken: string | undefined
        email?: string
        phoneNumber?: string
      },
    ) =>
      sendClaimAsForm(ctx.app, {
        slug: app,
        data: makeClaimData({ email, phoneNumber, signature: undefined }),
        agreementDate: today(),
        signing: { method: 'adopted' },
        locale: 'en',
        journeyToken,
      })
    const claimCount = async () =>
      Number(
        (
          await ctx.db
            .selectFrom('claims')
            .select((eb) => eb.fn.countAll().as('count'))
            .executeTakeFirstOrThrow()
        ).count,
      )
    const expectRefused = async (answer: { status: number; body: unknown }, message: RegExp) => {
      expect(answer.status).toBe(422)
      const { error } = answer.body as ErrorBody
      expect(error.message).toMatch(message)
      expect(error.fields).toEqual({ signatureMethod: { __errors: [error.message] } })
    }

    it("stores the main form's signature as the claim's, marked adopted and naming the intake, and the record verifies", async () => {
      const answer = await adopt('earnin', { journeyToken: linkToken('earnin') })
      expect(answer.status, JSON.stringify(answer.body)).toBe(201)
      const claimId = (answer.body as { id: number }).id
      const record = await ctx.db
        .selectFrom('agreement_records')
        .innerJoin('claims', 'claims.id', 'agreement_records.claim_id')
        .select([
          'agreement_records.signature',
          'agreement_records.signature_method',
          'agreement_records.typed_signature',
          'agreement_records.adopted_from',
          'agreement_records.html',
          'claims.intake_id',
          'claims.intake_by_link',
        ])
        .where('claim_id', '=', claimId)
        .executeTakeFirstOrThrow()
      const reference = `IN-${String(intake.id).padStart(6, '0')}`
      expect(record).toMatchObject({
        signature: MAIN_FORM_SIGNATURE,
        signature_method: 'adopted',
        typed_signature: null,
        adopted_from: reference,
        intake_id: intake.id,
        intake_by_link: 1,
      })
      // the agreement shows the signature as a drawn one, and says where it came from
      // (Handlebars writes base64's "=" as &#x3D;)
      expect(record.html).toContain(`src="${MAIN_FORM_SIGNATURE.replaceAll('=', '&#x3D;')}"`)
      expect(record.html).toMatch(/Adopted from the main form signed on \w+ \d{1,2}, \d{4}/)
      const report = await verifyEvidence({
        db: ctx.db,
        storage: ctx.storage,
        evidenceKey: ctx.evidenceKey,
        claimId,
      })
      expect(report.problems).toEqual([])
    })

    it('refuses an adopted signature without a Step 2 link, and stores nothing', async () => {
      const before = await claimCount()
      await expectRefused(await adopt('chime', { journeyToken: undefined }), /needs the Step 2 link/)
      expect(await claimCount()).toBe(before)
    })

    it("refuses an adopted signature with another app's Step 2 link, and stores nothing", async () => {
      const before = await claimCount()
      await expectRefused(
        await adopt('chime', { journeyToken: linkToken('earnin') }),
        /needs the Step 2 link/,
      )
      expect(await claimCount()).toBe(before)
    })

    it('refuses an adopted signature by a forwarded link (another e-mail and phone), and stores nothing', async () => {
      const before = await claimCount()
      await expectRefused(
        await adopt('chime', {
          journeyToken: linkToken('chime'),
          email: 'someone.else@mail.test',
          phoneNumber: '(808) 555-0199',
        }),
        /e-mail or phone of the main form/,
      )
      expect(await claimCount()).toBe(before)
    })

    it('refuses "adopted" on the main form itself, which has nothing to adopt', async () => {
      const answer = await sendIntakeAsForm(ctx.app, {
        data: makeIntakeData({ email: 'main@mail.test', phone: '(808) 555-0166' }),
        agreementDate: today(),
        signing: { method: 'adopted' },
        locale: 'en',
      })
      expect(answer.status).toBe(422)
      expect((answer.body as ErrorBody).error.message).toMatch(/"signatureMethod" must be "drawn" or "typed"/)
    })
  })
}
