import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { agreementContext, type AgreementContext } from '../../src/agreement-context.ts'
import type { Locale } from '../../src/translate.ts'
import { pngDataUrl } from '../../tests/server/support/claim-fixtures.ts'
import { loadAgreementTemplates } from '../agreements/agreement-templates.ts'
import { readFeeTerms } from './fee-terms.ts'

const TEMPLATES = loadAgreementTemplates()
const ANSWERS = {
  firstName: 'Ana',
  lastName: "O'Neil",
  email: 'ana@example.com',
  phoneNumber: '5552234567',
  signature: pngDataUrl(),
}

/** The agreement as a claimant signs it, in their language, with the firm's percent set to `percent`. */
function signedHtml({
  variant,
  locale = 'en',
  percent,
}: {
  variant: string
  locale?: Locale
  percent?: number
}): string {
  const context: AgreementContext = agreementContext({
    app: { displayName: 'Brigit', slug: 'brigit' },
    answers: ANSWERS,
    date: '2026-11-22',
    locale,
  })
  if (percent !== undefined) context.firm = { ...context.firm, contingencyPercent: percent }
  return TEMPLATES.render(variant, context, locale)
}

function thrownBy(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  throw new Error('expected an error')
}

const STATING_VARIANTS = [
  'full',
  'full-with-acknowledgment',
  'full-with-second-signature',
  'sections-1-5',
  'summary',
  'clause-one',
]

describe('readFeeTerms', () => {
  it.each(STATING_VARIANTS)(
    "reads firm.json's 40%% from the %s agreement in English and Spanish",
    (variant) => {
      expect(readFeeTerms({ html: signedHtml({ variant }), claimId: 1 }).percent).toBe('40')
      expect(readFeeTerms({ html: signedHtml({ variant, locale: 'es' }), claimId: 1 }).percent).toBe('40')
    },
  )

  it.each([33.33, 25, 12.5, 0.5, 100])('reads a fee of %s%% as the agreement states it', (percent) => {
    for (const locale of ['en', 'es'] as const) {
      for (const variant of STATING_VARIANTS) {
        expect(readFeeTerms({ html: signedHtml({ variant, locale, percent }), claimId: 1 }).percent).toBe(
          String(percent),
        )
      }
    }
  })

  it('quotes the sentence the percent was read from, in the language signed', () => {
    expect(readFeeTerms({ html: signedHtml({ variant: 'full', percent: 33.33 }), claimId: 1 }).statedAs).toBe(
      "The firm's fee is 33.33% of the gross recovery",
    )
    expect(readFeeTerms({ html: signedHtml({ variant: 'full', locale: 'es' }), claimId: 1 }).statedAs).toBe(
      'Los honorarios de la firma son el 40% de la recuperación bruta',
    )
    expect(readFeeTerms({ html: signedHtml({ variant: 'summary' }), claimId: 1 }).statedAs).toBe(
      'Fee: 40% of the gross recovery',
    )
    expect(
      readFeeTerms({ html: signedHtml({ variant: 'summary', locale: 'es' }), claimId: 1 }).statedAs,
    ).toBe('Honorarios: el 40% de la recuperación bruta')
  })

  it.each(['sections-1-2', 'none'])(
    'refuses the %s agreement, which states no fee, naming the claim instead of assuming one',
    (variant) => {
      for (const locale of ['en', 'es'] as const) {
        const error = thrownBy(() => readFeeTerms({ html: signedHtml({ variant, locale }), claimId: 4711 }))
        expect(error).toMatchObject({
          status: 422,
          message: expect.stringMatching(/^claim 4711: its signed agreement states no fee percent/),
          details: { claimIds: [4711] },
        })
      }
    },
  )

  it('refuses an agreement that states two different percents, naming both and the claim', () => {
    const html = signedHtml({ variant: 'full' })
    const doctored = html.replace("The firm's fee is 40%", "The firm's fee is 35%")
    expect(doctored).not.toBe(html)
    expect(() => readFeeTerms({ html: doctored, claimId: 12 })).toThrow(
      'claim 12: its signed agreement states different fee percents (35%, 40%); check the signed text before paying this claim',
    )
  })

  it('takes the same percent written two ways as one, and reads through entities and curly apostrophes', () => {
    const html =
      '<p>The firm&rsquo;s fee is 40.0% of the gross recovery.</p><ul><li><strong>Fee:</strong> 040% of the gross recovery</li></ul>'
    expect(readFeeTerms({ html, claimId: 3 })).toEqual({
      percent: '40',
      statedAs: "The firm's fee is 40.0% of the gross recovery",
    })
  })

  it('refuses a percent above 100', () => {
    expect(() => readFeeTerms({ html: '<p>The fee is 140% of the gross recovery</p>', claimId: 5 })).toThrow(
      'claim 5: its signed agreement states a fee of 140%, above 100%',
    )
  })

  it('refuses a Spanish agreement whose key terms and section 4 disagree', () => {
    const html = `${signedHtml({ variant: 'summary', locale: 'es', percent: 30 })}${signedHtml({ variant: 'sections-1-5', locale: 'es' })}`
    expect(() => readFeeTerms({ html, claimId: 13 })).toThrow(
      'claim 13: its signed agreement states different fee percents (40%, 30%)',
    )
  })

  it('does not take a percent mentioned elsewhere in the agreement for the fee', () => {
    expect(() =>
      readFeeTerms({ html: '<p>Interest of 10% of the gross recovery may apply.</p>', claimId: 6 }),
    ).toThrow('claim 6: its signed agreement states no fee percent')
  })

  it('reads the fee and quotes it with single spaces however white space is written between its words', () => {
    // runs of any white space, line breaks, tabs and no-break spaces included, as an edited agreement has
    const space = fc
      .array(fc.constantFrom(' ', '\n', '\t', '\r\n', '\u00a0', '\u2003', '\u3000'), {
        minLength: 1,
        maxLength: 4,
      })
      .map((parts) => parts.join(''))
    const words = ['The', "firm's", 'fee', 'is', '40%', 'of', 'the', 'gross', 'recovery']
    fc.assert(
      fc.property(fc.array(space, { minLength: words.length + 1, maxLength: words.length + 1 }), (gaps) => {
        const sentence = words.map((word, i) => `${gaps[i]}${word}`).join('') + gaps[words.length]
        expect(readFeeTerms({ html: `<p>${sentence}</p>`, claimId: 7 })).toEqual({
          percent: '40',
          statedAs: "The firm's fee is 40% of the gross recovery",
        })
      }),
    )
  })
})
