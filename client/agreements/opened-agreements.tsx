import { useState } from 'react'
import { useLocale } from '../i18n/use-text.ts'
import type { OpenedAgreementLink } from './api.ts'
import { ClaimantStatusPanel } from './claimant-status.tsx'
import { FoundAgreementCard } from './found-agreement-card.tsx'
import { IntakeAnswerPanel, type IntakeAnswerChange } from './intake-answer-panel.tsx'
import { keepOpening } from './kept-opening.ts'
import { YourPayments } from '../payouts/your-payments.tsx'

/**
 * What an opened link shows: where the claims stand, then each agreement with its downloads; a main-form
 * intake not confirmed yet asks whether the claimant sent it, and one they disowned shows only that.
 */
export function OpenedAgreements({ opened }: { opened: OpenedAgreementLink }) {
  const { locale, t } = useLocale()
  const [agreements, setAgreements] = useState(opened.agreements)
  const [answeredNow, setAnsweredNow] = useState<ReadonlySet<number>>(new Set())
  const answered = (intakeId: number, change: IntakeAnswerChange) => {
    const next = agreements.map((agreement) =>
      agreement.kind === 'intake' && agreement.intakeId === intakeId
        ? { ...agreement, ...change }
        : agreement,
    )
    setAgreements(next)
    setAnsweredNow(new Set(answeredNow).add(intakeId))
    // a reload shows the answer, not the question again
    keepOpening({ ...opened, agreements: next })
  }
  return (
    <div className="found">
      <ClaimantStatusPanel status={opened.status} />
      <YourPayments downloadKey={opened.downloadKey} />
      <h2 className="found-heading">{t('Agreement Found!')}</h2>
      <p className="hint">
        {t('You can download these agreements until {time}. After that, ask for a new link.', {
          time: new Date(opened.downloadsUntil).toLocaleTimeString(locale === 'es' ? 'es-US' : 'en-US', {
            hour: 'numeric',
            minute: '2-digit',
            timeZoneName: 'short',
          }),
        })}
      </p>
      {agreements.map((agreement) => {
        if (agreement.kind === 'claim') {
          return (
            <FoundAgreementCard
              key={`claim-${agreement.claimId}`}
              agreement={agreement}
              downloadKey={opened.downloadKey}
            />
          )
        }
        const question = (
          <IntakeAnswerPanel
            agreement={agreement}
            downloadKey={opened.downloadKey}
            isAnsweredNow={answeredNow.has(agreement.intakeId)}
            onAnswered={(change) => answered(agreement.intakeId, change)}
          />
        )
        // the claimant said it was not theirs: neither its agreement nor its address is offered as theirs
        return agreement.disownedAt !== null ? (
          <article key={`intake-${agreement.intakeId}`} className="found-agreement">
            {question}
          </article>
        ) : (
          <FoundAgreementCard
            key={`intake-${agreement.intakeId}`}
            agreement={agreement}
            downloadKey={opened.downloadKey}
          >
            {question}
          </FoundAgreementCard>
        )
      })}
    </div>
  )
}
