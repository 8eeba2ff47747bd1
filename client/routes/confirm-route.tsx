import { useEffect, useRef, useState } from 'react'
import { AppError } from '../../src/app-error.ts'
import {
  CONFIRMATION_INVALID_MESSAGE,
  CONFIRMATION_LINK_TEXT,
  CONFIRMATION_TOKEN_PATTERN,
  type Confirmed,
  type ConfirmRequest,
  type Disowned,
  type DisownUndone,
  type LinkedRecord,
} from '../../src/confirmation-messages.ts'
import { fetchJson } from '../http.ts'
import { useLocale } from '../i18n/use-text.ts'
import { Confirmation } from '../ui/confirmation.tsx'
import { NotMeAnswer } from '../ui/not-me-answer.tsx'
import { NotMeQuestion } from '../ui/not-me-question.tsx'

type ConfirmState =
  | { status: 'ready' }
  | { status: 'sending' }
  | { status: 'done'; confirmed: Confirmed }
  | { status: 'disowned'; disowned: Disowned }
  | { status: 'undone' }
  | { status: 'error'; message: string }

const jsonPost = (body: ConfirmRequest) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
  body: JSON.stringify(body),
})

/**
 * /confirm#token=…: the page a Step 2 copy's link, or the link in the e-mail after the main form, opens.
 * It says which claim the link is for; the claim is confirmed, or disowned ("This wasn't me", which puts
 * it before a reviewer), only when a button is pressed: mail scanners open links on their own, and must not answer for the claimant. The
 * token is in the fragment, which the browser never sends to a server (nor in a Referer).
 */
export function ConfirmRoute() {
  const { t, locale } = useLocale()
  const [token] = useState(() => new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '')
  const [state, setState] = useState<ConfirmState>({ status: 'ready' })
  const [claim, setClaim] = useState<LinkedRecord>()
  const statusRef = useRef<HTMLParagraphElement>(null)
  const answerRef = useRef<HTMLParagraphElement>(null)
  const isValid = CONFIRMATION_TOKEN_PATTERN.test(token)
  const dateOf = (iso: string) =>
    new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'long' }).format(new Date(iso))
  useEffect(() => {
    document.title = t(CONFIRMATION_LINK_TEXT)
  }, [t])
  useEffect(() => {
    if (state.status === 'error') statusRef.current?.focus()
    // the pressed button is gone with the question: focus goes to the answer that took its place
    if (state.status === 'disowned' || state.status === 'undone') answerRef.current?.focus()
  }, [state])
  useEffect(() => {
    if (!isValid) return
    let current = true
    fetchJson<LinkedRecord>('/api/confirmations/claim', jsonPost({ token })).then(
      (found) => current && setClaim(found),
      (error: unknown) =>
        current && error instanceof AppError && error.status < 500
          ? setState({ status: 'error', message: error.message })
          : undefined,
    )
    return () => {
      current = false
    }
  }, [isValid, token])

  if (state.status === 'done') {
    const date = dateOf(state.confirmed.confirmedAt)
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

  const send = async (what: 'confirm' | 'not-me') => {
    setState({ status: 'sending' })
    try {
      if (what === 'confirm') {
        const confirmed = await fetchJson<Confirmed>('/api/confirmations', jsonPost({ token }))
        setState({ status: 'done', confirmed })
      } else {
        const disowned = await fetchJson<Disowned>('/api/confirmations/not-me', jsonPost({ token }))
        setClaim((found) => found && { ...found, disownedAt: disowned.disownedAt })
        setState({ status: 'disowned', disowned })
      }
    } catch (error) {
      const message =
        error instanceof AppError && error.status < 500
          ? error.message
          : t('The confirmation could not be sent. Please try again in a few minutes.')
      setState({ status: 'error', message })
    }
  }

  const undo = async () => {
    try {
      await fetchJson<DisownUndone>('/api/confirmations/undo-not-me', jsonPost({ token }))
    } catch (error) {
      throw new Error(
        error instanceof AppError && error.status < 500
          ? error.message
          : t('The confirmation could not be sent. Please try again in a few minutes.'),
      )
    }
    setClaim((found) => found && { ...found, disownedAt: null })
    setState({ status: 'undone' })
  }
  const earlierConfirmation = claim?.confirmedAt ?? null
  const disownedAt = claim?.disownedAt ?? null
  const canAnswer = isValid && earlierConfirmation === null && disownedAt === null

  return (
    <section className="card confirm-page">
      <header className="card-header">
        <h1>{t(CONFIRMATION_LINK_TEXT)}</h1>
        <p>{t('Press the button to confirm that you filed this claim yourself.')}</p>
      </header>
      <div className="card-body">
        {claim ? (
          <p className="linked-claim">
            {claim.of === 'claim'
              ? t('This link is for your {app} claim number {id}, filed on {date}.', {
                  app: claim.appName,
                  id: claim.claimId,
                  date: dateOf(claim.filedAt),
                })
              : t('This link is for the claim form you signed on {date}, reference {reference} ({apps}).', {
                  reference: claim.reference,
                  apps: claim.appNames.join(', '),
                  date: dateOf(claim.filedAt),
                })}
          </p>
        ) : null}
        {earlierConfirmation !== null ? (
          <p className="earlier-answer">
            {t('You confirmed this on {date}.', { date: dateOf(earlierConfirmation) })}
          </p>
        ) : null}
        {state.status === 'disowned' ? (
          <p className="notice-box" role="status" ref={answerRef} tabIndex={-1}>
            {t(
              'Thank you for telling us. Our team will look into this claim, and it will not go on as it is.',
            )}
          </p>
        ) : null}
        {state.status === 'undone' ? (
          <p className="notice-box" role="status" ref={answerRef} tabIndex={-1}>
            {t('Taken back: this claim goes on as before. You can confirm it now.')}
          </p>
        ) : null}
        {disownedAt !== null ? <NotMeAnswer disownedAt={disownedAt} onUndo={undo} /> : null}
        {canAnswer ? (
          <div className="confirm-actions">
            <button
              type="button"
              className="primary"
              disabled={state.status === 'sending'}
              onClick={() => void send('confirm')}
            >
              {state.status === 'sending' ? t('Confirming...') : t(CONFIRMATION_LINK_TEXT)}
            </button>
            <NotMeQuestion
              question={t(
                'Are you sure? We will tell our team you did not file this claim, and it will not go on as it is. You can take this back within a day.',
              )}
              isSending={state.status === 'sending'}
              onSure={() => void send('not-me')}
            />
          </div>
        ) : null}
        {canAnswer ? (
          <p className="hint">
            {t("If you did not file this claim, press “This wasn't me”: we will look into it.")}
          </p>
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
