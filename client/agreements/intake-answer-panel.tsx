import { useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { AppError } from '../../src/app-error.ts'
import { CONFIRMATION_LINK_TEXT } from '../../src/confirmation-messages.ts'
import { intakeReference } from '../../src/journey-config.ts'
import { useText } from '../i18n/use-text.ts'
import { NotMeAnswer } from '../ui/not-me-answer.tsx'
import { NotMeQuestion } from '../ui/not-me-question.tsx'
import { answerIntake, type FoundAgreement } from './api.ts'

export type IntakeAgreement = Extract<FoundAgreement, { kind: 'intake' }>

/** What an answer changed on the intake, for the page (and the tab's kept copy of it) to show. */
export type IntakeAnswerChange = Pick<IntakeAgreement, 'confirmedAt'> | Pick<IntakeAgreement, 'disownedAt'>

/**
 * A main-form intake sent with the claimant's e-mail and phone and not confirmed yet: anyone can send one
 * with another person's details, so its address is their claims' only once they confirm it here (or on
 * the /confirm page). Its address lets them tell whether they sent it; "This wasn't me" unties it.
 */
export function IntakeAnswerPanel({
  agreement,
  downloadKey,
  isAnsweredNow,
  onAnswered,
}: {
  agreement: IntakeAgreement
  /** The opened link's key, which stands for the e-mail here. */
  downloadKey: string
  /** Answered on this page, rather than before it opened: then a confirmation is thanked for. */
  isAnsweredNow: boolean
  onAnswered: (change: IntakeAnswerChange) => void
}) {
  const t = useText()
  const headingId = useId()
  const [sending, setSending] = useState<'confirm' | 'not-me'>()
  const [failure, setFailure] = useState<string>()
  const answerRef = useRef<HTMLParagraphElement>(null)
  const reference = intakeReference(agreement.intakeId)
  const isOpen = agreement.confirmedAt === null && agreement.disownedAt === null

  // the pressed button is gone with the question: focus goes to the answer that took its place
  useEffect(() => {
    if (isAnsweredNow && !isOpen) answerRef.current?.focus()
  }, [isAnsweredNow, isOpen])

  const send = async (answer: 'confirm' | 'not-me') => {
    setSending(answer)
    setFailure(undefined)
    try {
      const answered = await answerIntake({ key: downloadKey, intakeId: agreement.intakeId, answer })
      onAnswered(
        'confirmedAt' in answered
          ? { confirmedAt: answered.confirmedAt }
          : { disownedAt: 'disownedAt' in answered ? answered.disownedAt : null },
      )
    } catch (error) {
      setFailure(
        error instanceof AppError && error.status < 500
          ? error.message
          : t('The confirmation could not be sent. Please try again in a few minutes.'),
      )
    } finally {
      setSending(undefined)
    }
  }

  const undo = async () => {
    try {
      await answerIntake({ key: downloadKey, intakeId: agreement.intakeId, answer: 'undo-not-me' })
    } catch (error) {
      throw new Error(
        error instanceof AppError && error.status < 500
          ? error.message
          : t('The confirmation could not be sent. Please try again in a few minutes.'),
      )
    }
    onAnswered({ disownedAt: null })
  }

  if (agreement.disownedAt !== null) {
    return (
      <div className="notice-box intake-answered">
        <p role="status" ref={answerRef} tabIndex={-1}>
          {keptWhole(
            t(
              'You told us you did not send {reference}. Your claims no longer use it, and our team will look into it.',
              { reference },
            ),
            reference,
          )}
        </p>
        <NotMeAnswer disownedAt={agreement.disownedAt} onUndo={undo} />
      </div>
    )
  }
  if (agreement.confirmedAt !== null) {
    return isAnsweredNow ? (
      <p className="notice-box intake-answered" role="status" ref={answerRef} tabIndex={-1}>
        {keptWhole(
          t('{reference} is confirmed. Thank you for letting us know it was you.', { reference }),
          reference,
        )}
      </p>
    ) : null
  }
  return (
    <section className="notice-box intake-question" aria-labelledby={headingId}>
      <h3 id={headingId}>{keptWhole(t('{reference}, not confirmed', { reference }), reference)}</h3>
      <p>{t('This main form was sent with your email address and phone number, for this address:')}</p>
      <p className="intake-address">{agreement.address}</p>
      <p>
        {t(
          "Did you send it? Confirm it, and we will use this address for your claims. If you did not, press “This wasn't me”.",
        )}
      </p>
      <div className="confirm-actions">
        <button
          type="button"
          className="primary"
          disabled={sending !== undefined}
          onClick={() => void send('confirm')}
        >
          {sending === 'confirm' ? t('Confirming...') : t(CONFIRMATION_LINK_TEXT)}
        </button>
        <NotMeQuestion
          question={t(
            'Are you sure? Your claims will no longer use {reference} or its address, and our team will look into it. You can take this back within a day.',
            { reference },
          )}
          isSending={sending !== undefined}
          onSure={() => void send('not-me')}
        />
      </div>
      {failure ? (
        <p className="alert" role="alert">
          {failure}
        </p>
      ) : null}
    </section>
  )
}

/** The text with the reference on one line: a phone would break "IN-000042" at its hyphen. */
function keptWhole(text: string, reference: string): ReactNode {
  return text.split(reference).flatMap((part, index) =>
    index === 0
      ? [part]
      : [
          <span key={index} className="intake-reference">
            {reference}
          </span>,
          part,
        ],
  )
}
