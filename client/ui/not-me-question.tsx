import { useEffect, useRef, useState } from 'react'
import { useText } from '../i18n/use-text.ts'

/**
 * "This wasn't me", asked once: the first press only opens "Are you sure?" with its own "Yes" and
 * "Cancel". Focus goes to the question, not to "Yes", so a double press or a held Enter answers nothing.
 */
export function NotMeQuestion({
  question,
  isSending,
  onSure,
}: {
  /** What pressing "Yes" does to this claim or form, in the claimant's words. */
  question: string
  isSending: boolean
  onSure: () => void
}) {
  const t = useText()
  const [isAsking, setIsAsking] = useState(false)
  const questionRef = useRef<HTMLParagraphElement>(null)
  const openerRef = useRef<HTMLButtonElement>(null)
  const [wasAsking, setWasAsking] = useState(false)

  useEffect(() => {
    if (isAsking) questionRef.current?.focus()
    // "Cancel" gives focus back to the button that asked
    else if (wasAsking) openerRef.current?.focus()
  }, [isAsking, wasAsking])

  if (!isAsking) {
    return (
      <button
        type="button"
        className="secondary"
        ref={openerRef}
        disabled={isSending}
        onClick={() => {
          setIsAsking(true)
          setWasAsking(true)
        }}
      >
        {t("This wasn't me")}
      </button>
    )
  }
  return (
    <div className="not-me-question" role="group" aria-label={t("This wasn't me")}>
      <p ref={questionRef} tabIndex={-1}>
        {question}
      </p>
      <div className="confirm-actions">
        <button type="button" className="primary" disabled={isSending} onClick={onSure}>
          {isSending ? t('Sending...') : t("Yes, this wasn't me")}
        </button>
        <button type="button" className="secondary" disabled={isSending} onClick={() => setIsAsking(false)}>
          {t('Cancel')}
        </button>
      </div>
    </div>
  )
}
