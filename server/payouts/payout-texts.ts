import spanish from '../../forms/es/ui/payouts.json' with { type: 'json' }
import { translator, type Locale, type Translator } from '../../src/translate.ts'

/**
 * The payout texts (a split's explanation, the statement) in a claimant's language. They are read from
 * forms/es/ui/payouts.json at build time rather than through loadLanguages, so a split computed in a
 * job or a test carries its Spanish explanation without the server's start-up having run.
 * @example payoutTranslator('es')('Net to you') // 'Neto para usted'
 */
export function payoutTranslator(locale: Locale): Translator {
  return locale === 'es' ? SPANISH : ENGLISH
}

const ENGLISH = translator(undefined)
const SPANISH = translator(spanish)
