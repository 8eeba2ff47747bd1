import type { ReactNode } from 'react'
import { Link } from '../routing/router.tsx'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'
import { useText } from '../i18n/use-text.ts'

/** One confirmation for every form: the check, "Thank You", the page's own lines, contact and way home. */
export function Confirmation({ line, children }: { line: string; children?: ReactNode }) {
  const t = useText()
  return (
    <section className="card confirmation">
      <header className="card-header confirmation-header">
        <span className="check" aria-hidden="true">
          <svg viewBox="0 0 24 24" width="28" height="28" fill="none" stroke="currentColor" strokeWidth="3">
            <path d="M5 12.5 L10 17.5 L19 7" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </span>
        <h1>{t('Thank You')}</h1>
        <p className="confirmation-line">{line}</p>
      </header>
      <div className="card-body confirmation-body">
        {children}
        <p className="confirmation-contact">
          {t('Questions? Contact us at')}{' '}
          <a href={`mailto:${FIRM_SETTINGS.contactEmail}`}>{FIRM_SETTINGS.contactEmail}</a>.
        </p>
        <p>
          <Link to="/">{t('Return to the home page')}</Link>
        </p>
      </div>
    </section>
  )
}
