import { useLocale } from '../i18n/use-text.ts'
import type { OpenedAgreementLink } from './api.ts'
import { ClaimantStatusPanel } from './claimant-status.tsx'
import { FoundAgreementCard } from './found-agreement-card.tsx'

/** What an opened link shows: where the claims stand, then each agreement with its downloads. */
export function OpenedAgreements({ opened }: { opened: OpenedAgreementLink }) {
  const { locale, t } = useLocale()
  return (
    <div className="found">
      <ClaimantStatusPanel status={opened.status} />
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
      {opened.agreements.map((agreement) => (
        <FoundAgreementCard
          key={agreement.kind === 'claim' ? `claim-${agreement.claimId}` : `intake-${agreement.intakeId}`}
          agreement={agreement}
          downloadKey={opened.downloadKey}
        />
      ))}
    </div>
  )
}
