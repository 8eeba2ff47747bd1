import type { ClosedNotice as Notice } from '../../src/form-config.ts'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'
import { useText } from '../i18n/use-text.ts'

/** The notice a closed app shows instead of its form. */
export function ClosedNotice({ notice, level = 1 }: { notice: Notice; level?: 1 | 2 }) {
  const t = useText()
  const Heading = level === 1 ? 'h1' : 'h2'
  const Subheading = level === 1 ? 'h2' : 'h3'
  return (
    <section className="card notice closed-notice">
      <Heading>{notice.heading}</Heading>
      <Subheading className="closed-subheading">{notice.subheading}</Subheading>
      <p>{notice.body}</p>
      <p>
        {t('Questions? Contact us at')}{' '}
        <a href={`mailto:${FIRM_SETTINGS.contactEmail}`}>{FIRM_SETTINGS.contactEmail}</a>.
      </p>
    </section>
  )
}
