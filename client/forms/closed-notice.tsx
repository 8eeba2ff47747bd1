import type { ClosedNotice as Notice } from '../../src/form-config.ts'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'

/** The notice a closed app shows instead of its form. */
export function ClosedNotice({ notice }: { notice: Notice }) {
  return (
    <section className="card notice closed-notice">
      <h1>{notice.heading}</h1>
      <h2>{notice.subheading}</h2>
      <p>{notice.body}</p>
      <p>
        Questions? Contact us at{' '}
        <a href={`mailto:${FIRM_SETTINGS.contactEmail}`}>{FIRM_SETTINGS.contactEmail}</a>.
      </p>
    </section>
  )
}
