import { useEffect, useRef, useState } from 'react'
import { AppError } from '../../src/app-error.ts'
import {
  CONFIRMATION_INVALID_MESSAGE,
  CONFIRMATION_LINK_TEXT,
  CONFIRMATION_TOKEN_PATTERN,
  type ClaimConfirmed,
  type ConfirmClaimRequest,
} from '../../src/confirmation-messages.ts'
import { fetchJson } from '../http.ts'
import { useLocale } from '../i18n/use-text.ts'
import { Confirmation } from '../ui/confirmation.tsx'

type ConfirmState =
  | { status: 'ready' }
  | { status: 'sending' }
  | { status: 'done'; confirmed: ClaimConfirmed }
  | { status: 'error'; message: string }

/**
 * /confirm#token=…: the page the e-mail copy's link opens. The claim is confirmed only when the button
 * is pressed: mail scanners open links on their own, and must not confirm for the claimant. The token
 * is in the fragment, which the browser never sends to a server (nor in a Referer).
 */
export function ConfirmRoute() {
  const { t, locale } = useLocale()
  const [token] = useState(() => new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '')
  const [state, setState] = useState<ConfirmState>({ status: 'ready' })
  const statusRef = useRef<HTMLParagraphElement>(null)
  useEffect(() => {
    document.title = t(CONFIRMATION_LINK_TEXT)
  }, [t])
  useEffect(() => {
    if (state.status === 'error') statusRef.current?.focus()
  }, [state])

  if (state.status === 'done') {
    const date = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short' }).format(
      new Date(state.confirmed.confirmedAt),
    )
    return (
      <Confirmation
        line={
          state.confirmed.alreadyConfirmed
            ? t('Your claim was already confirmed on {date}.', { date })
            : t('Your claim is confirmed. Thank you for letting us know it was you.')
        }
      />
    )
  }

  const isValid = CONFIRMATION_TOKEN_PATTERN.test(token)
  const confirm = async () => {
    setState({ status: 'sending' })
    try {
      const confirmed = await fetchJson<ClaimConfirmed>('/api/confirmations', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ token } satisfies ConfirmClaimRequest),
      })
      setState({ status: 'done', confirmed })
    } catch (error) {
      const message =
        error instanceof AppError && error.status < 500
          ? error.message
          : t('The confirmation could not be sent. Please try again in a few minutes.')
      setState({ status: 'error', message })
    }
  }

  return (
    <section className="card confirm-page">
      <header className="card-header">
        <h1>{t(CONFIRMATION_LINK_TEXT)}</h1>
        <p>{t('Press the button to confirm that you filed this claim yourself.')}</p>
      </header>
      <div className="card-body">
        {isValid ? (
          <button
            type="button"
            className="primary"
            disabled={state.status === 'sending'}
            onClick={() => void confirm()}
          >
            {state.status === 'sending' ? t('Confirming...') : t(CONFIRMATION_LINK_TEXT)}
          </button>
        ) : null}
        <p
          className="alert"
          role="alert"
          ref={statusRef}
          tabIndex={-1}
          hidden={isValid && state.status !== 'error'}
        >
          {state.status === 'error' ? state.message : isValid ? '' : t(CONFIRMATION_INVALID_MESSAGE)}
        </p>
      </div>
    </section>
  )
}
