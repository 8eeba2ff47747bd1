import './two-factor.css'
import { useEffect, useId, useRef } from 'react'

/**
 * The ten recovery codes, shown this once: the server keeps only their hashes. The person moves on only
 * by saying they saved them.
 */
export function RecoveryCodesNotice({
  codes,
  onContinue,
  continueLabel = 'I have saved these codes',
}: {
  codes: string[]
  onContinue: () => void
  continueLabel?: string
}) {
  const headingId = useId()
  const headingRef = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    headingRef.current?.focus()
  }, [])
  return (
    <section className="recovery-codes" aria-labelledby={headingId}>
      <h2 id={headingId} ref={headingRef} tabIndex={-1}>
        Your recovery codes
      </h2>
      <p>
        Each code signs you in once in place of a code from your authenticator app, if you lose your phone.
        Save them somewhere safe now (print them, or keep them in a password manager): they are not shown
        again.
      </p>
      <ul className="recovery-code-list" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <button type="button" className="submit" onClick={onContinue}>
        {continueLabel}
      </button>
    </section>
  )
}
