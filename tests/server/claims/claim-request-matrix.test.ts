import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreatedIntake } from '../../../src/api/claims.ts'
import type { Attribution } from '../../../src/attribution.ts'
import { isFormOpen } from '../../../src/form-config.ts'
import type { FormSignals } from '../../../src/form-signals.ts'
import type { SigningChoice } from '../../../src/api/claim-request.ts'
import type { Locale } from '../../../src/translate.ts'
import { loadLanguages } from '../../../server/forms/languages.ts'
import { sendClaimAsForm, sendIntakeAsForm } from '../support/client-requests.ts'
import {
  createTestContext,
  DIALECTS,
  FORMS_DIR,
  makeClaimData,
  type TestContext,
} from '../support/helpers.ts'
import { makeIntakeData } from '../support/malformed-intakes.ts'

// Every way a claimant can arrive, as the forms send it: the signature drawn or typed, by the Step 2
// link or not, from a campaign or not, in English or Spanish. Each request goes through the forms' own
// request builder, so a field the forms send is a field these requests carry.
const SIGNINGS: SigningChoice[] = [{ method: 'drawn' }, { method: 'typed', typedName: 'José Peña-Núñez' }]
const CAMPAIGNS: (Attribution | undefined)[] = [undefined, { utm_source: 'ig', utm_campaign: 'fees-2026' }]
const LOCALES: Locale[] = ['en', 'es']
const BY_LINK = [false, true]
// what both forms send beside the answers, whichever way the claimant arrived
const SIGNALS: FormSignals = {
  device: 'q3Vb0mXh1e_Zt9LkQp2W-A',
  elapsedMs: 61_000,
  pasted: [],
  typed: ['firstName', 'email'],
}

interface Arrival {
  signing: SigningChoice
  attribution: Attribution | undefined
  locale: Locale
  byLink: boolean
}

const ARRIVALS: Arrival[] = SIGNINGS.flatMap((signing) =>
  CAMPAIGNS.flatMap((attribution) =>
    LOCALES.flatMap((locale) => BY_LINK.map((byLink) => ({ signing, attribution, locale, byLink }))),
  ),
)

const describeArrival = ({ signing, attribution, locale, byLink }: Arrival) =>
  [
    signing.method,
    byLink ? 'by the Step 2 link' : 'without a link',
    attribution ? 'from an ad' : 'no campaign',
    locale,
  ].join(', ')

const today = () => new Date().toISOString().slice(0, 10)

for (const dialect of DIALECTS) {
  describe(`${dialect}: every way a claimant arrives files`, () => {
    let ctx: TestContext
    let languages: ReturnType<typeof loadLanguages>
    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      languages = loadLanguages({ formsDir: FORMS_DIR, forms: ctx.forms, intake: ctx.intake })
    })
    afterAll(async () => {
      await ctx?.close()
    })

    it('takes the main form signed either way, from a campaign or not, in English or Spanish', async () => {
      let seq = 0
      for (const arrival of ARRIVALS.filter((each) => each.byLink)) {
        seq += 1
        const answer = await sendIntakeAsForm(ctx.app, {
          data: makeIntakeData({ email: `intake${seq}@mail.test`, phone: `(808) 555-01${seq}0` }),
          agreementDate: today(),
          signing: arrival.signing,
          locale: arrival.locale,
          attribution: arrival.attribution,
          signals: SIGNALS,
        })
        expect(answer.status, `${describeArrival(arrival)}: ${JSON.stringify(answer.body)}`).toBe(201)
        const stored = await ctx.db
          .selectFrom('form_submissions')
          .select(['locale', 'signature_method', 'typed_signature', 'source', 'signals'])
          .where('id', '=', (answer.body as CreatedIntake).id)
          .executeTakeFirstOrThrow()
        expect(stored).toEqual({
          locale: arrival.locale,
          signature_method: arrival.signing.method,
          typed_signature: arrival.signing.typedName ?? null,
          source: arrival.attribution?.utm_source ?? '(none)',
          signals: JSON.stringify(SIGNALS),
        })
      }
    })

    it('takes a Step 2 claim on every open app in each of the sixteen ways a claimant arrives', async () => {
      const openApps = [...ctx.forms.values()].filter(isFormOpen).map((config) => config.slug)
      expect(openApps.length).toBeGreaterThanOrEqual(10)
      let seq = 0
      for (const arrival of ARRIVALS) {
        seq += 1
        // one claimant per way of arriving, filing every app as a claimant of many apps does
        const email = `claimant${seq}@mail.test`
        const phone = `(808) 555-02${String(seq).padStart(2, '0')}`
        let intake: CreatedIntake | undefined
        if (arrival.byLink) {
          const answer = await sendIntakeAsForm(ctx.app, {
            data: makeIntakeData({ email, phone }),
            agreementDate: today(),
            signing: arrival.signing,
            locale: arrival.locale,
            attribution: arrival.attribution,
            signals: SIGNALS,
          }).expect(201)
          intake = answer.body as CreatedIntake
        }
        for (const slug of openApps) {
          const intakeId = intake?.id
          // the apps the main form offers have a link on /thank-you; the rest get the same signed token
          const journeyToken =
            intake === undefined || intakeId === undefined
              ? undefined
              : (intake.steps.find((step) => step.app === slug)?.path.split('#prefill=')[1] ??
                ctx.journey.tokens.prefill({ intakeId, app: slug, expiresAt: Date.now() + 86_400_000 }))
          const answer = await sendClaimAsForm(ctx.app, {
            slug,
            data: makeClaimData({ email, phoneNumber: phone }),
            agreementDate: today(),
            signing: arrival.signing,
            locale: arrival.locale,
            journeyToken,
            attribution: arrival.attribution,
            signals: SIGNALS,
          })
          const what = `${slug}, ${describeArrival(arrival)}`
          expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBe(201)
          const claimId = (answer.body as { id: number }).id
          const stored = await ctx.db
            .selectFrom('claims')
            .innerJoin('agreement_records', 'agreement_records.claim_id', 'claims.id')
            .select([
              'claims.locale',
              'claims.intake_id',
              'claims.source',
              'claims.signals',
              'agreement_records.signature_method',
              'agreement_records.typed_signature',
            ])
            .where('claims.id', '=', claimId)
            .executeTakeFirstOrThrow()
          expect(stored, what).toEqual({
            locale: languages.formLocale(slug, arrival.locale),
            intake_id: intakeId ?? null,
            source: arrival.attribution?.utm_source ?? '(none)',
            signature_method: arrival.signing.method,
            typed_signature: arrival.signing.typedName ?? null,
            signals: JSON.stringify(SIGNALS),
          })
        }
      }
    })
  })
}
