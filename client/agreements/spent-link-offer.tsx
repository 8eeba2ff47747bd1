import { useText } from '../i18n/use-text.ts'

/**
 * A link opened a second time (often because a mail app opened it first to check it): the server's
 * message, and one press to have a new link sent to the same address, which the page never learns.
 */
export function SpentLinkOffer({
  message,
  isSending,
  onResend,
}: {
  message: string
  isSending: boolean
  onResend: () => void
}) {
  const t = useText()
  return (
    <div className="spent-link">
      <div className="alert" role="alert">
        {message}
      </div>
      <p>
        {t(
          'Some email apps open a link before you do. We can send a new link to the same email address right away.',
        )}
      </p>
      <button type="button" className="submit" disabled={isSending} onClick={onResend}>
        {isSending ? t('Sending...') : t('Send me a new link')}
      </button>
    </div>
  )
}
