import type { Locale } from '../../src/translate.ts'
import { useLocale } from './use-text.ts'

/** Each language named in itself, so a reader of either finds theirs. */
const CHOICES: { locale: Locale; label: string }[] = [
  { locale: 'en', label: 'English' },
  { locale: 'es', label: 'Español' },
]

/** English | Español: the claimant's choice, remembered for their next visit. */
export function LanguageSwitch() {
  const { locale, setLocale, t } = useLocale()
  return (
    <nav className="language-switch" aria-label={t('Language')}>
      {CHOICES.map((choice, index) => (
        <span key={choice.locale}>
          {index > 0 ? <span aria-hidden="true"> | </span> : null}
          <button
            type="button"
            lang={choice.locale}
            aria-pressed={choice.locale === locale}
            onClick={() => setLocale(choice.locale)}
          >
            {choice.label}
          </button>
        </span>
      ))}
    </nav>
  )
}
