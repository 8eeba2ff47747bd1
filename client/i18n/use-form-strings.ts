import { englishStringTranslator, type TranslatableString } from '@rjsf/utils'
import { useCallback } from 'react'
import { useText } from './use-text.ts'

/**
 * RJSF's own texts (the Yes and No of a boolean question, …) in the page's language: the form's
 * `translateString`. Their Spanish lives with the pages' texts under the English RJSF gives.
 */
export function useFormStrings(): (text: TranslatableString, params?: string[]) => string {
  const t = useText()
  return useCallback((text, params) => t(englishStringTranslator(text, params)), [t])
}
