import { useText } from '../i18n/use-text.ts'

/** A spinner with its text; the label is given in English and shown in the page's language. */
export function Loading({ label = 'Loading...' }: { label?: string }) {
  const t = useText()
  return (
    <div className="loading" role="status">
      <span className="spinner" aria-hidden="true" />
      {t(label)}
    </div>
  )
}
