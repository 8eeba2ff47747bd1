import spanish from '../../forms/es/ui/payouts.json' with { type: 'json' }
import { translator, type Locale, type Translator } from '../../src/translate.ts'

/**
 * The payout texts (a split's explanation, the statement) in a claimant's language, the Spanish ones
 * from forms/es/ui/payouts.json. Imported with the code rather than passed in from loadLanguages, so a
 * split computed anywhere (a job, a script, a test) carries its Spanish explanation.
 * @example payoutTranslator('es')('Net to you') // 'Neto para usted'
 */
export function payoutTranslator(locale: Locale): Translator {
  return locale === 'es' ? SPANISH : ENGLISH
}

const ENGLISH = translator(undefined)
const SPANISH = translator(spanish)
