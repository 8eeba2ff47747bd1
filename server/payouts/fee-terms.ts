import { Parser } from 'htmlparser2'
import { AppError } from '../../src/app-error.ts'

/** The fee a claimant agreed to, as their signed agreement states it. */
export interface FeeTerms {
  /** The contingency percent as written, without leading or trailing zeros: '40', '33.33'. */
  percent: string
  /** The sentence it was read from, as the claimant read it: "The firm's fee is 40% of the gross recovery". */
  statedAs: string
}

const PERCENT = String.raw`(\d+(?:\.\d+)?)\s?%`

/**
 * Every way agreements/ (English and Spanish, each variant) states the firm's fee: section 4, the
 * summary's key terms, the clause-one intro, and section 4's cap, which repeats the same percent.
 */
const FEE_STATEMENTS = [
  String.raw`the firm's fee is ${PERCENT} of the gross recovery`,
  String.raw`the fee is ${PERCENT} of the gross recovery`,
  String.raw`fee: ${PERCENT} of the gross recovery`,
  String.raw`never more than ${PERCENT} of everything recovered`,
  String.raw`los honorarios de la firma son el ${PERCENT} de la recuperación bruta`,
  String.raw`los honorarios son el ${PERCENT} de la recuperación bruta`,
  String.raw`honorarios: el ${PERCENT} de la recuperación bruta`,
  String.raw`nunca superan el ${PERCENT} de todo lo recuperado`,
].map((statement) => new RegExp(statement, 'giu'))

/**
 * The contingency fee percent a claim's signed agreement states, read from the signed (sealed) HTML in
 * either language. There is no default: an agreement that states no percent (a variant without the
 * fee section), states two different ones, or one above 100, is refused with a 422 naming the claim,
 * since a fee taken from a claimant's award must be the one they signed.
 * @example readFeeTerms({ html: signedHtml, claimId: 4711 }).percent // '40'
 */
export function readFeeTerms({ html, claimId }: { html: string; claimId: number }): FeeTerms {
  const text = readableText(html)
  const found = FEE_STATEMENTS.flatMap((pattern) =>
    [...text.matchAll(pattern)].map((match) => ({ percent: plainPercent(match[1]!), statedAs: match[0] })),
  )
  const percents = [...new Set(found.map(({ percent }) => percent))]
  if (percents.length === 0) {
    throw refusal(
      claimId,
      `claim ${claimId}: its signed agreement states no fee percent ("The firm's fee is N% of the gross recovery"); no fee can be taken from its award until the firm and the claimant agree one in writing`,
    )
  }
  if (percents.length > 1) {
    throw refusal(
      claimId,
      `claim ${claimId}: its signed agreement states different fee percents (${percents.map((percent) => `${percent}%`).join(', ')}); check the signed text before paying this claim`,
    )
  }
  const [percent] = percents as [string]
  if (Number(percent) > 100) {
    throw refusal(claimId, `claim ${claimId}: its signed agreement states a fee of ${percent}%, above 100%`)
  }
  return { percent, statedAs: found[0]!.statedAs }
}

function refusal(claimId: number, message: string): AppError {
  return new AppError('UNPROCESSABLE', {
    status: 422,
    message,
    details: { problems: [message], claimIds: [claimId] },
  })
}

/** '040.50' as '40.5': the same percent written the same way, so two writings of it are not two fees. */
function plainPercent(written: string): string {
  const [whole = '', decimals = ''] = written.split('.')
  const plainWhole = whole.replace(/^0+(?=\d)/, '')
  const plainDecimals = decimals.replace(/0+$/, '')
  return plainDecimals === '' ? plainWhole : `${plainWhole}.${plainDecimals}`
}

/**
 * The HTML's words as a reader sees them: tags dropped, entities decoded, white space folded, and a
 * typographic apostrophe written plain (an edited agreement may use either).
 */
function readableText(html: string): string {
  let text = ''
  const parser = new Parser({ ontext: (chunk) => (text += chunk) }, { decodeEntities: true })
  parser.write(html)
  parser.end()
  // each run of white space becomes one space; a lone space, most of them, is left as it is: replacing
  // every run made a payout build allocate some 200 KB an agreement
  return text.replace(/\s{2,}|[^\S ]/g, ' ').replace(/[\u2018\u2019]/g, "'")
}
