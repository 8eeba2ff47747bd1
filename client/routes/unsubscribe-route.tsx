import { useEffect, useRef, useState } from 'react'
import type { Unsubscribed } from '../../src/api/journey.ts'
import { fetchJson } from '../http.ts'
import { useText } from '../i18n/use-text.ts'
import { Confirmation } from '../ui/confirmation.tsx'

type UnsubscribeState =
  { status: 'ready' } | { status: 'sending' } | { status: 'done'; message: string } | { status: 'error' }

/**
 * /unsubscribe#token=…: the reminders' unsubscribe link. Nothing changes until the button is pressed
 * (mail scanners open links on their own); the answer is the same for any token, so the page tells
 * nobody whose address it was. Mail programs' one-click button posts to the API directly (RFC 8058).
 */
export function UnsubscribeRoute() {
  const t = useText()
  const [token] = useState(() => new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '')
  const [state, setState] = useState<UnsubscribeState>({ status: 'ready' })
  const alertRef = useRef<HTMLParagraphElement>(null)
  useEffect(() => {
    document.title = t('Unsubscribe from reminders')
  }, [t])
  useEffect(() => {
    if (state.status === 'error') alertRef.current?.focus()
  }, [state])

  if (state.status === 'done') return <Confirmation line={state.message} />
  const unsubscribe = async () => {
    setState({ status: 'sending' })
    try {
      const answer = await fetchJson<Unsubscribed>('/api/journey/unsubscribe', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ token }),
      })
      setState({ status: 'done', message: answer.message })
    } catch {
      setState({ status: 'error' })
    }
  }
  return (
    <section className="card">
      <header className="card-header">
        <h1>{t('Unsubscribe from reminders')}</h1>
        <p>
          {t(
            'We remind you of the claims you have not filed yet. Press the button and we will stop. Messages about claims you filed still come.',
          )}
        </p>
      </header>
      <div className="card-body">
        {state.status === 'error' ? (
          <p className="alert" role="alert" tabIndex={-1} ref={alertRef}>
            {t('That did not work. Please try again in a few minutes.')}
          </p>
        ) : null}
        <button
          type="button"
          className="submit"
          disabled={state.status === 'sending'}
          onClick={() => void unsubscribe()}
        >
          {state.status === 'sending' ? t('Sending...') : t('Stop the reminders')}
        </button>
      </div>
    </section>
  )
}
