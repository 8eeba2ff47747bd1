import { Suspense, use } from 'react'
import { translator, type Locale } from '../../src/translate.ts'
import { isOfferedOnPage, usePageLanguages } from './form-language.tsx'
import { loadTexts } from './locale-provider.tsx'
import { useLocale } from './use-text.ts'

/** Each language named in itself, so a reader of either finds theirs. */
const CHOICES: { locale: Locale; label: string }[] = [
  { locale: 'en', label: 'English' },
  { locale: 'es', label: 'Español' },
]

/**
 * English | Español: the claimant's choice, remembered for their next visit. On a form not offered in
 * a language, that language's choice says so, in that language, instead of switching to nothing.
 */
export function LanguageSwitch() {
  const { locale, setLocale, t } = useLocale()
  const offered = usePageLanguages()
  return (
    <nav className="language-switch" aria-label={t('Language')}>
      {CHOICES.map((choice, index) => (
        <span key={choice.locale}>
          {index > 0 ? <span aria-hidden="true"> | </span> : null}
          {isOfferedOnPage(offered, choice.locale) ? (
            <button
              type="button"
              lang={choice.locale}
              aria-pressed={choice.locale === locale}
              onClick={() => setLocale(choice.locale)}
            >
              {choice.label}
            </button>
          ) : (
            // focusable and read out, so a keyboard or screen-reader user learns why it does nothing
            <button type="button" lang={choice.locale} aria-disabled="true" className="not-offered">
              <Suspense fallback={choice.label}>
                <NotOfferedLabel locale={choice.locale} label={choice.label} />
              </Suspense>
            </button>
          )}
        </span>
      ))}
    </nav>
  )
}

function NotOfferedLabel({ locale, label }: { locale: Locale; label: string }) {
  // the choice's own language, as its label: the reader it is for reads that one
  const t = translator(use(loadTexts(locale)))
  return t('{language}: not offered on this page', { language: label })
}
