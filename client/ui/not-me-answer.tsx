import { useState } from 'react'
import { DISOWN_UNDO_MS } from '../../src/confirmation-messages.ts'
import { useLocale } from '../i18n/use-text.ts'

/**
 * An earlier "This wasn't me", said with its date, and its undo while the day after it lasts (the
 * server holds the same window, undo-disown.ts).
 */
export function NotMeAnswer({
  disownedAt,
  onUndo,
}: {
  disownedAt: string
  /** Resolves once taken back; rejects with what to tell the claimant. */
  onUndo: () => Promise<void>
}) {
  const { t, locale } = useLocale()
  const [isSending, setIsSending] = useState(false)
  const [failure, setFailure] = useState<string>()
  const dateOf = (epochMs: number) =>
    new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short' }).format(new Date(epochMs))
  const disowned = new Date(disownedAt).getTime()
  const undoUntil = disowned + DISOWN_UNDO_MS
  // read once per render: a page left open past the day still offers the undo, and the server refuses it
  const canUndo = Date.now() < undoUntil

  const undo = async () => {
    setIsSending(true)
    setFailure(undefined)
    try {
      await onUndo()
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error))
    } finally {
      setIsSending(false)
    }
  }

  return (
    <div className="not-me-answer">
      <p>{t('You told us on {date} that this wasn’t you.', { date: dateOf(disowned) })}</p>
      {canUndo ? (
        <>
          <p className="hint">
            {t('Pressed it by mistake? You can take it back until {date}.', { date: dateOf(undoUntil) })}
          </p>
          <button type="button" className="secondary" disabled={isSending} onClick={() => void undo()}>
            {isSending ? t('Sending...') : t('Undo: it was me')}
          </button>
        </>
      ) : null}
      {failure ? (
        <p className="alert" role="alert">
          {failure}
        </p>
      ) : null}
    </div>
  )
}
