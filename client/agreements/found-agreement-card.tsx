import { useState, type ReactNode } from 'react'
import type { Locale } from '../../src/translate.ts'
import { useLocale } from '../i18n/use-text.ts'
import { agreementRef, downloadAgreement, type FoundAgreement } from './api.ts'

function longDate(iso: string, locale: Locale): string {
  return new Date(iso).toLocaleDateString(locale === 'es' ? 'es-US' : 'en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  })
}

/** One signed agreement: its details, the text exactly as signed, and its downloads. */
export function FoundAgreementCard({
  agreement,
  downloadKey,
  children,
}: {
  agreement: FoundAgreement
  /** What the opened link gave: the downloads take it instead of the e-mail and phone. */
  downloadKey: string
  /** Shown under the card's first line: a main-form intake's question whether the claimant sent it. */
  children?: ReactNode
}) {
  const { locale, t } = useLocale()
  const [busy, setBusy] = useState<'pdf'>()
  const [failure, setFailure] = useState<string>()
  const download = async (format: 'pdf') => {
    setBusy(format)
    setFailure(undefined)
    try {
      await downloadAgreement({ downloadKey, agreement: agreementRef(agreement), format })
    } catch (error) {
      setFailure(
        t('The download failed: {message}. Please try again.', { message: (error as Error).message }),
      )
    } finally {
      setBusy(undefined)
    }
  }
  const signedOn = longDate(agreement.signedAt, locale)
  const values = { app: agreement.appName, date: signedOn }
  return (
    <article className="found-agreement">
      <p className="found-line">
        {agreement.kind === 'intake'
          ? t(
              'We found the agreement you signed on the main form on {date}, for your claims against {app}.',
              values,
            )
          : t('We found your {app} agreement signed on {date}.', values)}
      </p>
      {children}
      <dl className="details">
        <dt>{t('Name')}</dt>
        <dd>
          {agreement.firstName} {agreement.lastName}
        </dd>
        <dt>{t('Email')}</dt>
        <dd>{agreement.email}</dd>
        <dt>{t('Phone')}</dt>
        <dd>{agreement.phoneNumber}</dd>
        <dt>{t('Date Signed')}</dt>
        <dd>{signedOn}</dd>
        <dt>{t('Signed by')}</dt>
        <dd>
          {agreement.signatureMethod === 'typed'
            ? t('typing the full name "{name}", shown in a signature style', {
                name: agreement.typedSignature ?? '',
              })
            : t('drawing the signature on the screen')}
        </dd>
        {agreement.kind === 'claim' ? (
          <>
            <dt>{t('Cash Advances')}</dt>
            <dd>
              {agreement.cashAdvanceCount} {agreement.cashAdvanceCount === 1 ? t('time') : t('times')}
            </dd>
            <dt>{t('Membership')}</dt>
            <dd>
              {agreement.membershipMonths} {agreement.membershipMonths === 1 ? t('month') : t('months')}
            </dd>
          </>
        ) : null}
      </dl>
      {agreement.html.trim() ? (
        <div
          className="agreement-scroll"
          // the stored record, rendered by our escaping templates when it was signed
          dangerouslySetInnerHTML={{ __html: agreement.html }}
          tabIndex={0}
          role="region"
          aria-label={t('{app} agreement as signed', { app: agreement.appName })}
        />
      ) : (
        <p className="hint">
          {t(
            "No agreement text was shown on the {app} claim form; the download holds your signature and the claim's audit details.",
            { app: agreement.appName },
          )}
        </p>
      )}
      {/* one download, the PDF: it opens on any phone, and the e-mailed copy carries the HTML beside it */}
      <div className="download-actions">
        <button
          type="button"
          className="submit"
          onClick={() => void download('pdf')}
          disabled={busy !== undefined}
        >
          {busy === 'pdf'
            ? t('Downloading...')
            : agreement.kind === 'intake'
              ? t('Download your main-form agreement (PDF)')
              : t('Download your {app} agreement (PDF)', { app: agreement.appName })}
        </button>
      </div>
      <p className="hint">
        {t(
          'The downloaded file includes your signature and the terms of the agreement exactly as you signed it.',
        )}
      </p>
      {failure ? (
        <p className="alert" role="alert">
          {failure}
        </p>
      ) : null}
    </article>
  )
}
